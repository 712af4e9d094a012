@tool
extends VBoxContainer
## A small test battle around the card being edited, as the runtime's [code]sandbox[/code]
## builds it (the card alone in the hand, a party with a fallen and a reserve member, enemies
## of different HP, armor and statuses, the library's cards in the draw pile), shown with the
## addon's own [PyBridgeBattleView]: aim it with the arrow, see the highlights and previews, play it
## and read the battle log. The designer may set what the hand and the piles hold (card ids of
## the library, for each pile the runtime names); Restart, or Enter in a pile's field, applies
## them.

## The designer left the sandbox.
signal closed
## The battle opened ([param state]) or could not ([param error] set).
signal opened(state: Dictionary, error: String)
## The card was played: the runtime's [code]play[/code] result (events, log, state).
signal played(result: Dictionary)

## The battle's backdrop.
const BACKDROP_COLOR := Color(0.09, 0.075, 0.14)
## Log colours by the kinds of line the runtime's narrator writes (unknown kinds: white).
## The battle view.
var view: PyBridgeBattleView = null
## The battle log.
var log_view: PyBridgeBattleLog = null
## The heading (the card's name and how to play it).
var heading: Label = null
## Restart and Back.
var buttons: Dictionary = {}
## Pile name -> the field of the card ids the designer puts in it.
var pile_fields: Dictionary = {}

var _bridge: PyBridgeClient = null
var _card: Dictionary = {}
var _library: Dictionary = {}
var _error: Label = null
var _piles_box: GridContainer = null


func _init(bridge: PyBridgeClient) -> void:
	_bridge = bridge
	var bar := HBoxContainer.new()
	heading = Label.new()
	heading.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	heading.clip_text = true
	bar.add_child(heading)
	for action: String in ["restart", "back"]:
		var button := Button.new()
		button.text = "Restart" if action == "restart" else "Back to editing (Esc)"
		bar.add_child(button)
		buttons[action] = button
	buttons["restart"].pressed.connect(func() -> void: open(_card, _library))
	buttons["back"].pressed.connect(closed.emit)
	add_child(bar)
	var body := HBoxContainer.new()
	body.size_flags_vertical = Control.SIZE_EXPAND_FILL
	add_child(body)
	view = _battle_view()
	view.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	body.add_child(view)
	var side := VBoxContainer.new()
	side.custom_minimum_size.x = 300
	var piles_heading := Label.new()
	piles_heading.text = "Piles: card ids, comma separated (Enter applies)"
	piles_heading.add_theme_font_size_override("font_size", 13)
	side.add_child(piles_heading)
	_piles_box = GridContainer.new()
	_piles_box.columns = 2
	side.add_child(_piles_box)
	var log_heading := Label.new()
	log_heading.text = "Battle log"
	side.add_child(log_heading)
	log_view = PyBridgeBattleLog.new()
	log_view.size_flags_vertical = Control.SIZE_EXPAND_FILL
	side.add_child(log_view)
	body.add_child(side)
	_error = Label.new()
	_error.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	_error.add_theme_color_override("font_color", Color("ff6b8a"))
	_error.visible = false
	view.add_child(_error)
	_error.set_anchors_and_offsets_preset(Control.PRESET_CENTER_TOP, Control.PRESET_MODE_KEEP_SIZE)
	_error.custom_minimum_size = Vector2(520, 0)
	_error.position = Vector2(20, 40)
	view.card_played.connect(_on_card_played)
	view.play_refused.connect(_on_play_refused)


## Offers a field for each pile of [param names] (the runtime's [code]piles[/code]).
func set_piles(names: PackedStringArray) -> void:
	for child in _piles_box.get_children():
		child.queue_free()
	pile_fields.clear()
	for pile in names:
		var label := Label.new()
		label.text = pile.capitalize()
		_piles_box.add_child(label)
		var line := LineEdit.new()
		line.size_flags_horizontal = Control.SIZE_EXPAND_FILL
		line.placeholder_text = (
			"after the card" if pile_fields.is_empty() else "as the sandbox deals it"
		)
		line.set_meta("field", "pile." + pile)
		line.text_submitted.connect(func(_text: String) -> void: open(_card, _library))
		_piles_box.add_child(line)
		pile_fields[pile] = line


## What the designer put in the piles: pile -> card ids (only the piles given).
func chosen_piles() -> Dictionary:
	var piles := {}
	for pile: String in pile_fields:
		var ids := PackedStringArray()
		for part in (pile_fields[pile] as LineEdit).text.split(",", false):
			if not part.strip_edges().is_empty():
				ids.append(part.strip_edges())
		if not ids.is_empty():
			piles[pile] = ids
	return piles


## Opens a new sandbox around [param card] (a definition), with the cards of
## [param library] in the draw pile. False (and the runtime's reason shown) when the card does
## not load.
func open(card: Dictionary, library: Dictionary) -> bool:
	_card = card
	_library = library
	log_view.clear()
	heading.text = (
		"Sandbox: %s. Aim it at a glowing unit, or drag it up to play it."
		% str(card.get("name", card.get("id", "?")))
	)
	var asked := {"card": card, "library": library}
	var piles := chosen_piles()
	if not piles.is_empty():
		asked["piles"] = piles
	var made := _bridge.request("sandbox", asked)
	var state := {}
	if not made.is_empty():
		view.live_in_editor = true
		if await view.open_battle(made.get("battle", {})):
			state = view.state
	var error := "" if not state.is_empty() else str(_bridge.last_error.get("message", ""))
	_error.visible = not error.is_empty()
	_error.text = "This card cannot be tried yet:\n%s\n\nFix it in the editor (Esc)." % error
	if not error.is_empty():
		heading.text = "Sandbox: %s does not load." % str(card.get("name", card.get("id", "?")))
	if error.is_empty():
		log_view.add_line(
			(
				"%s is in the hand of %s, with energy to spare."
				% [card.get("name", "The card"), _owner_name(state)]
			),
			"info"
		)
	opened.emit(state, error)
	return error.is_empty()


## Points for tools and tests: units and cards of the battle, the play area, the buttons.
func layout_points() -> Dictionary:
	var points := view.layout_points() if not view.state.is_empty() else {}
	var field: Control = view.party_area.get_parent()
	var middle := field.get_global_transform_with_canvas() * (field.size * 0.5)
	points["play"] = [roundi(middle.x), roundi(middle.y)]
	for action: String in buttons:
		var button: Button = buttons[action]
		var at := button.get_global_transform_with_canvas() * (button.size * 0.5)
		points[action] = [roundi(at.x), roundi(at.y)]
	var piles := {}
	for pile: String in pile_fields:
		var line: LineEdit = pile_fields[pile]
		var at := line.get_global_transform_with_canvas() * (line.size * 0.5)
		piles[pile] = [roundi(at.x), roundi(at.y)]
	points["piles"] = piles
	return points


func _battle_view() -> PyBridgeBattleView:
	var battle := PyBridgeBattleView.new()
	battle.bridge = _bridge
	battle.open_on_ready = false
	# Eight units side by side: narrower unit views, closer together.
	var sizes := Theme.new()
	sizes.set_constant(&"width", &"PyBridgeUnitView", 108)
	sizes.set_constant(&"unit_gap", &"PyBridgeBattleView", 6)
	battle.theme = sizes
	battle.live_in_editor = true
	var backdrop := Panel.new()
	backdrop.mouse_filter = Control.MOUSE_FILTER_IGNORE
	var look := StyleBoxFlat.new()
	look.bg_color = BACKDROP_COLOR
	look.set_corner_radius_all(10)
	backdrop.add_theme_stylebox_override("panel", look)
	battle.add_child(backdrop)
	backdrop.set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	var field := Control.new()
	field.name = "Field"
	field.mouse_filter = Control.MOUSE_FILTER_IGNORE
	battle.add_child(field)
	field.set_anchors_and_offsets_preset(Control.PRESET_TOP_WIDE)
	field.offset_bottom = 270
	battle.party_area = _area(field, "PartyArea", 0.0, 0.58, "YOUR PARTY", Color("6fb1ff"))
	battle.enemy_area = _area(field, "EnemyArea", 0.58, 1.0, "ENEMIES", Color("ff8a6a"))
	var hand := Control.new()
	hand.name = "HandArea"
	hand.mouse_filter = Control.MOUSE_FILTER_IGNORE
	battle.add_child(hand)
	hand.set_anchors_and_offsets_preset(Control.PRESET_BOTTOM_WIDE)
	hand.offset_top = -230
	battle.hand_area = hand
	return battle


func _area(
	field: Control, area_name: String, left: float, right: float, title: String, color: Color
) -> Control:
	var area := Control.new()
	area.name = area_name
	area.mouse_filter = Control.MOUSE_FILTER_IGNORE
	field.add_child(area)
	area.anchor_left = left
	area.anchor_right = right
	area.anchor_top = 0.0
	area.anchor_bottom = 1.0
	area.offset_top = 30
	var label := Label.new()
	label.text = title
	label.add_theme_color_override("font_color", color)
	label.add_theme_font_size_override("font_size", 13)
	field.add_child(label)
	label.anchor_left = left
	label.anchor_right = right
	label.offset_top = 6
	label.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	return area


func _owner_name(state: Dictionary) -> String:
	var info := view.targets_of("sandbox")
	var source := str(info.get("source", state.get("active_player", "")))
	return str(view.names().get("units", {}).get(source, source))


func _on_card_played(_card_id: String, _target_id: String, result: Dictionary) -> void:
	log_view.add_lines(result.get("log", []))
	log_view.add_line("Restart to play it again.", "info")
	played.emit(result)


func _on_play_refused(_card_id: String, refusal: PyBridge.Refusal) -> void:
	log_view.add_line("It cannot be played: %s" % refusal.said(), "error")
