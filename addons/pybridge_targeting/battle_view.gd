@tool
@icon("res://addons/pybridge_targeting/icons/battle_view.svg")
class_name BattleView
extends Control
## The targeting half of a card battle screen, driven by the Python runtime.
##
## It shows the units of a battle in [member party_area] and [member enemy_area] and the hand
## in [member hand_area], and turns the pointer into plays (see [BattleAim]):
## [br]- Hover a card: exactly the units the runtime returned light up (the candidates of an
## arrow mode, the range of the rest).
## [br]- Drag a card whose mode requires a target: an [AimArrow] follows the pointer, snaps to
## a valid unit and changes colour over an invalid unit or empty space; released on a valid
## unit the card is played, anywhere else the aim is cancelled.
## [br]- Drag any other card into the [member play_area] and release it to play it.
## [br]- Or click a card, then click a unit (or the play area). Keys: 1-9 and 0 pick a card,
## Tab and Shift+Tab cycle its candidates, Enter plays, Escape or a right click cancels.
## [br][br]
## While aiming, each unit shows what the play would do to it (the runtime's preview marks);
## enemies show their intents as the runtime forecasts them. All legality and every word
## comes from the runtime through [member bridge].

## A battle was opened; [param state] is its state.
signal battle_opened(state: Dictionary)
## The battle state changed (opened, a card played, a turn ended).
signal state_changed(state: Dictionary)
## Units or cards moved; [method layout_points] has their new screen positions.
signal layout_changed
## The player started aiming [param card_id] (pressed or picked it).
signal aim_started(card_id: String)
## The player chose [param unit_id] as the target of [param card_id]; the play follows.
signal target_selected(card_id: String, unit_id: String)
## The aim at [param card_id] ended without a play.
signal aim_cancelled(card_id: String)
## The runtime played [param card_id] (at [param target_id], or [code]""[/code]);
## [param result] holds its [code]events[/code], [code]log[/code] and new [code]state[/code].
signal card_played(card_id: String, target_id: String, result: Dictionary)
## The player tried a card the runtime says cannot be played now, or the runtime refused
## the play; [param reason] says why.
signal card_refused(card_id: String, reason: String)
## The turn ended; [param result] holds its [code]events[/code], [code]log[/code] and new
## [code]state[/code].
signal turn_ended(result: Dictionary)
## The lit units changed: [param unit_ids] for [param card_id] ([code]""[/code]: nothing lit).
signal highlight_changed(card_id: String, unit_ids: PackedStringArray)

## The runtime connection. Without one the view looks for the [code]Bridge[/code] autoload.
@export var bridge: PyBridgeClient:
	set(value):
		bridge = value
		update_configuration_warnings()
## Where the player's units are laid out.
@export var party_area: Control:
	set(value):
		party_area = value
		update_configuration_warnings()
## Where the enemy units are laid out.
@export var enemy_area: Control:
	set(value):
		enemy_area = value
		update_configuration_warnings()
## Where the hand is laid out.
@export var hand_area: Control:
	set(value):
		hand_area = value
		update_configuration_warnings()
## Where no-target cards are released to be played; by default everything above the hand.
@export var play_area: Control
## A battle document to open when the view is ready (see [member open_on_ready]).
@export_file("*.json") var battle_file: String = "":
	set(value):
		battle_file = value
		update_configuration_warnings()
## Open [member battle_file] in [method Node._ready].
@export var open_on_ready: bool = true:
	set(value):
		open_on_ready = value
		update_configuration_warnings()
## Size of a unit view.
@export var unit_size: Vector2 = Vector2(140, 230)
## Space between unit views.
@export var unit_gap: float = 14.0
## Colour of the play-area hint while a no-target card is held.
@export var play_area_color: Color = Color("ffd54a")
## Play inside the editor too (the Workshop's sandbox on the editor's main screen); otherwise
## the view stays inert in the editor.
@export var live_in_editor: bool = false

## The battle state (docs/format.md), as the runtime last sent it.
var state: Dictionary = {}
## Unit id -> [UnitView].
var unit_views: Dictionary = {}
## The hand, left to right.
var card_views: Array[CardView] = []
## Card id -> the runtime's [code]targets[/code] answer for it.
var card_targets: Dictionary = {}
## The unit ids lit now.
var lit_units: PackedStringArray = PackedStringArray()
## The card whose units are lit ([code]""[/code] when none).
var lit_card: String = ""
## The aim: its state, the aimed and the hovered card.
var aim: BattleAim = null
## The card being aimed, or null.
var aimed_card: CardView:
	get:
		return aim.card
## The card under the pointer, or null.
var hovered_card: CardView:
	get:
		return aim.hovered

var _arrow: AimArrow = null
var _marks: PreviewMarks = PreviewMarks.new()
var _names: Dictionary = {}
var _zone_active: bool = false


func _init() -> void:
	aim = BattleAim.new(self)


func _ready() -> void:
	if _inert():
		return
	_arrow = AimArrow.new()
	_arrow.name = "AimArrow"
	add_child(_arrow)
	if bridge == null:
		bridge = get_node_or_null("/root/Bridge") as PyBridgeClient
	if bridge == null:
		push_error("BattleView: no bridge: assign a PyBridgeClient or enable the plugin")
		return
	if party_area == null or enemy_area == null or hand_area == null:
		push_error("BattleView: assign party_area, enemy_area and hand_area")
		return
	resized.connect(_layout)
	if open_on_ready and not battle_file.is_empty():
		open_battle_file(battle_file)


func _get_configuration_warnings() -> PackedStringArray:
	var warnings := PackedStringArray()
	if bridge == null and not ProjectSettings.has_setting("autoload/Bridge"):
		warnings.append("No bridge: assign a PyBridgeClient node to 'bridge', or enable the "
				+ "PyBridge Targeting plugin, which adds the Bridge autoload.")
	if party_area == null or enemy_area == null or hand_area == null:
		warnings.append("Assign 'party_area', 'enemy_area' and 'hand_area': the Controls the "
				+ "units and the hand are laid out in.")
	if open_on_ready and battle_file.is_empty():
		warnings.append("'open_on_ready' is on but 'battle_file' is empty: set a battle "
				+ "document, or turn it off and call open_battle() yourself.")
	elif not battle_file.is_empty() and not FileAccess.file_exists(battle_file):
		warnings.append("'battle_file' %s does not exist." % battle_file)
	return warnings


func _input(event: InputEvent) -> void:
	if _inert() or state.is_empty() or not is_visible_in_tree() or is_battle_over():
		return
	if event is InputEventMouseMotion:
		aim.pointer_moved((event as InputEventMouseMotion).position)
	elif event is InputEventMouseButton:
		var button := event as InputEventMouseButton
		if button.button_index == MOUSE_BUTTON_LEFT:
			if button.pressed:
				if aim.pointer_pressed(button.position):
					get_viewport().set_input_as_handled()
			else:
				aim.pointer_released(button.position)
		elif (button.button_index == MOUSE_BUTTON_RIGHT and button.pressed
				and aim.state != BattleAim.State.IDLE):
			aim.cancel()
			get_viewport().set_input_as_handled()
	elif event is InputEventKey and event.is_pressed() and not event.is_echo():
		if aim.key_pressed(event as InputEventKey):
			get_viewport().set_input_as_handled()


func _draw() -> void:
	if _inert() or not _zone_active:
		return
	var zone := _play_rect()
	var local := Rect2(get_global_transform().affine_inverse() * zone.position, zone.size)
	var box := StyleBoxFlat.new()
	box.bg_color = Color(play_area_color, 0.07)
	box.border_color = Color(play_area_color, 0.6)
	box.set_border_width_all(3)
	box.set_corner_radius_all(18)
	draw_style_box(box, local.grow(-6))
	var font := get_theme_default_font()
	var text := "Release to play" if aim.state == BattleAim.State.DRAGGING else "Click here to play"
	var width := font.get_string_size(text, HORIZONTAL_ALIGNMENT_LEFT, -1, 22).x
	draw_string(font, Vector2(local.get_center().x - width * 0.5, local.position.y + 40), text,
			HORIZONTAL_ALIGNMENT_LEFT, -1, 22, Color(play_area_color, 0.9))


## Opens the battle document [param document]; false when the runtime refused it.
func open_battle(document: Dictionary) -> bool:
	return _opened(bridge.open_battle(document) if bridge != null else {})


## Opens a battle document from its JSON text; false when the runtime refused it.
func open_battle_json(text: String) -> bool:
	return _opened(bridge.open_battle_json(text) if bridge != null else {})


## Opens the battle document stored at [param path] ([code]res://[/code] or a file path).
func open_battle_file(path: String) -> bool:
	var text := FileAccess.get_file_as_string(path)
	if text.is_empty():
		push_error("BattleView: cannot read the battle document %s (%s)"
				% [path, error_string(FileAccess.get_open_error())])
		return false
	return open_battle_json(text)


## Shows [param new_state] (a battle state from the runtime) and asks what each card targets.
func apply_state(new_state: Dictionary) -> void:
	state = new_state
	_names = names_from_state(state)
	_marks.clear()
	_sync_units()
	_sync_hand()
	_layout()
	_refresh_highlight()
	state_changed.emit(state)


## Plays [param card_id] at [param target_id] ([code]""[/code] for modes without a target).
func play_card(card_id: String, target_id: String = "") -> bool:
	if aim.card != null:
		aim.finish()
	var result := bridge.play(card_id, target_id)
	if result.is_empty():
		card_refused.emit(card_id, str(bridge.last_error.get("message", "refused")))
		_refresh_highlight()
		return false
	apply_state(result.get("state", {}))
	card_played.emit(card_id, target_id, result)
	return true


## Ends the turn: the runtime discards, lets the enemies act and deals a new hand.
func end_turn() -> bool:
	if is_battle_over():
		return false
	aim.cancel()
	var result := bridge.end_turn()
	if result.is_empty():
		return false
	apply_state(result.get("state", {}))
	turn_ended.emit(result)
	return true


## Starts aiming [param card_id] as if it had been clicked (keyboard and scripted use).
func select_card(card_id: String) -> bool:
	var card := card_view(card_id)
	return card != null and aim.select(card)


## Stops aiming without playing ([signal aim_cancelled]).
func cancel_aim() -> void:
	aim.cancel()


## Whether the battle has a result (victory or defeat).
func is_battle_over() -> bool:
	return state.get("result") != null and str(state.get("result", "")) != ""


## The runtime's [code]targets[/code] answer for [param card_id] (empty when unknown).
func targets_of(card_id: String) -> Dictionary:
	return card_targets.get(card_id, {})


## The units [param card_id] lights up: its candidates (arrow modes) or its range.
func units_lit_by(card_id: String) -> PackedStringArray:
	var info := targets_of(card_id)
	var key := "candidates" if bool(info.get("requires_target", false)) else "range"
	return PackedStringArray(info.get(key, []))


## The [CardView] of [param card_id] in the hand, or null.
func card_view(card_id: String) -> CardView:
	for card in card_views:
		if card.card_id == card_id:
			return card
	return null


## The hand card under [param point] (global), by the hand layout: the later card wins where
## two overlap, and the hovered card also owns the space it is raised into.
func card_at(point: Vector2) -> CardView:
	for i in range(card_views.size() - 1, -1, -1):
		var card := card_views[i]
		var rect := card.base_rect()
		if card == aim.hovered or card == aim.card:
			var rise := card.raised_offset + rect.size.y * (card.raised_scale - 1.0)
			rect = rect.grow_side(SIDE_TOP, rise)
		if rect.has_point(point):
			return card
	return null


## The id of the unit under [param point] (global), or [code]""[/code].
func unit_at(point: Vector2) -> String:
	for id: String in unit_views:
		var view: UnitView = unit_views[id]
		if view.get_global_rect().has_point(point):
			return id
	return ""


## Whether [param point] (global) is where a no-target card is played.
func in_play_area(point: Vector2) -> bool:
	return _play_rect().has_point(point)


## Screen positions for scripts and tests, in global coordinates:
## [code]{"units": {id: [x, y]}, "cards": {id: [x, y]}}[/code] (a unit's portrait centre; the
## middle of the visible part of each card in the hand).
func layout_points() -> Dictionary:
	var units := {}
	for id: String in unit_views:
		units[id] = BattleLayout.xy((unit_views[id] as UnitView).center_point())
	return {"units": units, "cards": BattleLayout.card_points(card_views)}


## Display names from the current state (see [method names_from_state]).
func names() -> Dictionary:
	return _names


## Display names from a battle state: [code]{"units", "cards", "statuses", "moves"}[/code],
## each id -> name (card instance ids map to their card's name).
static func names_from_state(from: Dictionary) -> Dictionary:
	var cards := {}
	var definitions := _names_of(from.get("cards", []))
	for pile: Variant in from.get("piles", {}).values():
		for instance: Variant in pile:
			var definition := str(instance.get("card", ""))
			cards[str(instance.get("id"))] = str(definitions.get(definition, definition))
	return {
		"units": _names_of(from.get("units", [])),
		"cards": cards,
		"statuses": _names_of(from.get("statuses", [])),
		"moves": _names_of(from.get("moves", [])),
	}


# -- what the aim asks the view to draw ------------------------------------------------------


## The aim started on [param card] (called by [BattleAim]).
func aim_began(card: CardView) -> void:
	card.set_selected(true)
	_layout_hand()
	_refresh_highlight()
	aim_started.emit(card.card_id)


## The aim at [param card] ended (called by [BattleAim]).
func aim_ended(card: CardView) -> void:
	if card != null:
		card.set_selected(false)
	_arrow.hide()
	_zone_active = false
	queue_redraw()
	for id: String in unit_views:
		var view: UnitView = unit_views[id]
		view.set_target_look(UnitView.TargetLook.NONE)
		view.set_preview([])
	_layout_hand()
	_refresh_highlight()


## The hovered card changed (called by [BattleAim]).
func hover_changed() -> void:
	_layout_hand()
	_refresh_highlight()


## Draws the aim as it is now: the arrow and the unit under it, or the held card and the play
## area, and the preview of the play (called by [BattleAim]).
func show_aim() -> void:
	var card := aim.card
	if card == null:
		return
	var card_id := card.card_id
	var info := targets_of(card_id)
	var target := aim.aimed_unit()
	for id: String in unit_views:
		(unit_views[id] as UnitView).set_target_look(UnitView.TargetLook.NONE)
	if aim.needs_unit():
		var valid: bool = target != "" and target in info.get("candidates", [])
		var look := AimArrow.Look.EMPTY
		var end := aim.pointer
		if target != "":
			var view: UnitView = unit_views[target]
			look = AimArrow.Look.VALID if valid else AimArrow.Look.INVALID
			view.set_target_look(UnitView.TargetLook.VALID if valid
					else UnitView.TargetLook.INVALID)
			if valid:
				end = view.target_point()
		if aim.state == BattleAim.State.PRESSED:
			_arrow.hide()
		else:
			_arrow.aim(card.arrow_origin(), end, look)
		_show_preview(card_id, target if valid else "", not valid)
		return
	_arrow.hide()
	if aim.state == BattleAim.State.DRAGGING:
		card.follow(aim.pointer)
		_layout_hand()
	_zone_active = aim.state in [BattleAim.State.DRAGGING, BattleAim.State.ARMED]
	queue_redraw()
	var over_zone := in_play_area(aim.pointer) or aim.state == BattleAim.State.ARMED
	_show_preview(card_id, "", not over_zone)


# -- internals ------------------------------------------------------------------------------


func _inert() -> bool:
	return Engine.is_editor_hint() and not live_in_editor


func _opened(new_state: Dictionary) -> bool:
	if new_state.is_empty():
		return false
	if aim.card != null:
		aim.finish()
	for id: String in unit_views:
		(unit_views[id] as Node).queue_free()
	unit_views.clear()
	for card in card_views:
		card.queue_free()
	card_views.clear()
	aim.hovered = null
	apply_state(new_state)
	battle_opened.emit(state)
	return true


func _sync_units() -> void:
	var seen := {}
	for unit: Variant in state.get("units", []):
		var id := str(unit.get("id"))
		seen[id] = true
		var view: UnitView = unit_views.get(id)
		if view == null:
			view = UnitView.new()
			view.name = "Unit_" + id
			view.size = unit_size
			var area := party_area if str(unit.get("team")) == "player" else enemy_area
			area.add_child(view)
			unit_views[id] = view
		view.show_unit(unit, _names.get("statuses", {}))
	for id: String in unit_views.keys():
		if not seen.has(id):
			(unit_views[id] as Node).queue_free()
			unit_views.erase(id)


func _sync_hand() -> void:
	var definitions := {}
	for card: Variant in state.get("cards", []):
		definitions[str(card.get("id"))] = card
	var over := is_battle_over()
	card_targets.clear()
	var hand: Array[CardView] = []
	for instance: Variant in state.get("piles", {}).get("hand", []):
		var id := str(instance.get("id"))
		var view := card_view(id)
		if view == null:
			view = CardView.new()
			view.name = "Card_" + id
			hand_area.add_child(view)
		var info := {} if over else bridge.targets(id)
		card_targets[id] = info
		var owner_id := str(instance.get("owner", info.get("source", "")))
		if instance.get("owner") == null:
			owner_id = str(info.get("source", state.get("active_player", "")))
		var owner_name := str(_names.get("units", {}).get(owner_id, owner_id))
		view.show_card(id, definitions.get(str(instance.get("card")), {}), owner_name, info)
		hand.append(view)
	for card in card_views:
		if not card in hand:
			if card == aim.hovered:
				aim.hovered = null
			card.queue_free()
	card_views = hand


func _layout() -> void:
	if state.is_empty() or party_area == null or enemy_area == null or hand_area == null:
		return
	var teams := {party_area: [], enemy_area: []}
	for unit: Variant in state.get("units", []):
		var id := str(unit.get("id"))
		if unit_views.has(id):
			teams[party_area if str(unit.get("team")) == "player" else enemy_area].append(id)
	for area: Control in teams:
		var ids: Array = teams[area]
		var points := BattleLayout.unit_row(area, ids.size(), unit_size, unit_gap)
		for i in ids.size():
			var view: UnitView = unit_views[ids[i]]
			view.size = unit_size
			view.position = points[i]
	_layout_hand()
	layout_changed.emit()


func _layout_hand() -> void:
	var points := BattleLayout.hand_row(hand_area, card_views.size(), CardView.CARD_SIZE)
	for i in card_views.size():
		var card := card_views[i]
		if card == aim.card and aim.state == BattleAim.State.DRAGGING and not aim.needs_unit():
			continue  # it follows the pointer
		var raised := card == aim.hovered or card == aim.card
		card.place(points[i], raised, hand_area.size.x)


func _show_preview(card_id: String, target_id: String, clear: bool) -> void:
	var info := targets_of(card_id)
	var facts: Dictionary = info.get("facts", {})
	var per_unit := {}
	# A preview of a random pick would give the pick away; an arrow card shows one per unit.
	var wanted := not clear and not bool(facts.get("random", false))
	if wanted and bool(info.get("requires_target", false)) and target_id.is_empty():
		wanted = false
	if wanted:
		per_unit = _marks.lines_for(bridge, card_id, target_id)
	for id: String in unit_views:
		var lines: Array[Dictionary] = []
		lines.assign(per_unit.get(id, []))
		(unit_views[id] as UnitView).set_preview(lines)


func _refresh_highlight() -> void:
	var card := aim.card if aim.card != null else aim.hovered
	if card == null or is_battle_over():
		_set_lit("", PackedStringArray())
	else:
		_set_lit(card.card_id, units_lit_by(card.card_id))


func _set_lit(card_id: String, ids: PackedStringArray) -> void:
	if card_id == lit_card and ids == lit_units:
		return
	lit_card = card_id
	lit_units = ids
	for id: String in unit_views:
		(unit_views[id] as UnitView).set_highlighted(id in ids)
	highlight_changed.emit(card_id, ids)


func _play_rect() -> Rect2:
	if play_area != null:
		return play_area.get_global_rect()
	var rect := get_global_rect()
	if hand_area != null:
		rect.size.y = hand_area.get_global_rect().position.y - rect.position.y
	return rect


static func _names_of(definitions: Variant) -> Dictionary:
	var found := {}
	if definitions is Array:
		for definition: Variant in definitions:
			if definition is Dictionary:
				found[str(definition.get("id"))] = str(definition.get("name", definition.get("id")))
	return found
