@tool
extends CanvasLayer
## A pile viewer: the cards of one pile (the draw, discard or exhaust pile behind a counter) as
## the runtime's [code]pile[/code] answer gives them to the battle's viewer, drawn by the battle
## view's card scene in a scrollable grid, in the answer's order (the draw pile's order never
## reaches it: the runtime lists that pile in an order that tells nothing, and this never
## sorts). A pile the viewer may not see shows only its count; a face-down card it may not see
## shows as a card back. The title and the note are the runtime's sentences, said in the
## current locale; in a battle of two card-playing sides a line above them says whose pile it
## is. It never shows over a hidden battle view: hiding the view (a hot-seat game's cover)
## closes it, and a pile asked for meanwhile is not shown.
##
## [method PyBridgeBattleView.show_pile] opens it. It is modal: while open it takes every key
## and click. Escape (the cancel action), Enter (confirm), the Close button or a click outside
## the panel close it; the arrow keys, Page Up/Down, Home and End scroll, as the mouse wheel
## does.

## The pile it shows was opened (its [code]pile[/code] answer) or it was closed.
signal pile_shown(answer: Dictionary)
signal pile_closed(pile: String)

const BattleData := preload("res://addons/pybridge_targeting/battle/pybridge_battle_data.gd")
const BattleInput := preload("res://addons/pybridge_targeting/battle/pybridge_battle_input.gd")
const BattleLayout := preload("res://addons/pybridge_targeting/battle/pybridge_battle_layout.gd")
const PilePicker := preload("res://addons/pybridge_targeting/battle/pybridge_pile_picker.gd")
const Sentences := preload("res://addons/pybridge_targeting/pybridge_sentences.gd")
## How far the keys scroll a step (pixels).
const SCROLL_STEP := 60

## The card back's drawing: its inner frame's inset and its pattern's step (unscaled pixels).
const BACK_INSET := 9.0
const BACK_STEP := 14.0
## The theme type whose colours (one per team) tint a card back, as the Cut colours its entries.
const TEAM_THEME_TYPE := &"PyBridgeCutView"

## The scale the cards are shown at.
var card_scale: float = 1.3
## The runtime's last [code]pile[/code] answer while open (empty when closed).
var answer: Dictionary = {}
## The Close button.
var close_button: Button = Button.new()

var _view: PyBridgeBattleView = null
var _shade: Control = Control.new()
var _panel: PanelContainer = PanelContainer.new()
var _whose: Label = Label.new()
var _title: Label = Label.new()
var _note: Label = Label.new()
var _scroll: ScrollContainer = ScrollContainer.new()
var _grid: GridContainer = GridContainer.new()
var _slots: Array[Control] = []
var _asking: int = 0


func _init(view: PyBridgeBattleView = null) -> void:
	_view = view
	layer = 20
	visible = false
	_shade.set_anchors_preset(Control.PRESET_FULL_RECT)
	_shade.mouse_filter = Control.MOUSE_FILTER_STOP
	_shade.gui_input.connect(_on_shade_input)
	_shade.draw.connect(func() -> void: _shade.draw_rect(_shade.get_rect(), Color(0, 0, 0, 0.6)))
	add_child(_shade)
	_panel.mouse_filter = Control.MOUSE_FILTER_STOP
	_shade.add_child(_panel)
	var rows := VBoxContainer.new()
	rows.add_theme_constant_override(&"separation", 8)
	_panel.add_child(rows)
	var head := HBoxContainer.new()
	rows.add_child(head)
	_whose.add_theme_font_size_override(&"font_size", 17)
	_whose.visible = false
	rows.add_child(_whose)
	rows.move_child(_whose, 0)
	_title.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	_title.add_theme_font_size_override(&"font_size", 24)
	head.add_child(_title)
	close_button.focus_mode = Control.FOCUS_NONE
	close_button.pressed.connect(close)
	head.add_child(close_button)
	_note.add_theme_font_size_override(&"font_size", 16)
	_note.modulate = Color(1, 1, 1, 0.8)
	rows.add_child(_note)
	_scroll.horizontal_scroll_mode = ScrollContainer.SCROLL_MODE_DISABLED
	_scroll.size_flags_vertical = Control.SIZE_EXPAND_FILL
	rows.add_child(_scroll)
	_grid.add_theme_constant_override(&"h_separation", 14)
	_grid.add_theme_constant_override(&"v_separation", 14)
	_scroll.add_child(_grid)
	if view != null:  # a hidden battle (a hot-seat game's cover) shows no pile
		view.visibility_changed.connect(
			func() -> void:
				if not view.is_visible_in_tree():
					close()
		)


## Asks the runtime for [param pile] of [param team] (empty: the viewer's own side) as the
## battle's viewer sees it and shows it (a coroutine); false when the runtime refused.
func open(pile: String, team: String = "") -> bool:
	if _view == null or _view.bridge == null or _view.state.is_empty():
		return false
	if not _view.is_visible_in_tree():
		return false
	var fields := {"session": _view.bridge.session, "viewer": viewer(), "pile": pile}
	if not team.is_empty():
		fields["side"] = team
	_asking += 1
	var asking := _asking
	var given: Dictionary = await _view.bridge.ask("pile", fields)
	if asking != _asking or given.is_empty() or not _view.is_visible_in_tree():
		return false
	show_answer(given)
	return true


## Shows [param given], a [code]pile[/code] answer, as it comes.
func show_answer(given: Dictionary) -> void:
	answer = given
	_title.text = Sentences.say(given.get("title_message"), str(given.get("title", "")))
	_note.text = Sentences.say(given.get("note_message"), str(given.get("note", "")))
	_show_whose(str(given.get("side", "")))
	close_button.text = BattleInput.with_key(tr("Close"), BattleInput.CANCEL)
	for slot in _slots:
		slot.queue_free()
	_slots.clear()
	for entry: Variant in given.get("cards", []):
		if entry is Dictionary:
			var slot := _slot(entry)
			_grid.add_child(slot)
			_slots.append(slot)
	_shade.theme = _theme_of(_view)
	_grow_to_text()
	_restyle()
	visible = true
	_scroll.scroll_vertical = 0
	_fit()
	pile_shown.emit(given)


## Closes it (and forgets a pile asked for and not shown yet).
func close() -> void:
	_asking += 1
	if not visible:
		return
	visible = false
	var pile := str(answer.get("pile", ""))
	answer = {}
	pile_closed.emit(pile)


## Who it asks as: the view's [member PyBridgeBattleView.side], else in a battle with two
## card-playing sides the side whose turn it is, else the player.
func viewer() -> String:
	if not _view.side.is_empty():
		return _view.side
	return str(_view.state.get("turn_side", "player")) if _view.state.has("sides") else "player"


## What it shows now: [code]{"visible", "pile", "whose", "title", "note", "cards": [{"id",
## "card", "text", "face_down", "point", "size"}], "panel", "close": {"point"}, "scroll"}[/code]
## (points global; a card's point is where it is drawn, scrolled out of sight or not; a card
## back has no card and no text).
func shown() -> Dictionary:
	var listed := []
	for slot in _slots:
		var entry: Dictionary = slot.get_meta(&"entry")
		(
			listed
			. append(
				{
					"id": str(entry.get("id", "")),
					"card": str(entry.get("card", "")),
					"text": str(slot.get_meta(&"text", "")),
					"face_down": not entry.has("card"),
					"point": BattleLayout.xy(slot.get_global_rect().get_center()),
					"size": BattleLayout.xy(slot.get_global_rect().size),
				}
			)
		)
	return {
		"visible": visible,
		"pile": str(answer.get("pile", "")),
		"whose": _whose.text if _whose.visible else "",
		"title": _title.text,
		"note": _note.text,
		"cards": listed,
		"panel": BattleLayout.xy(_panel.get_global_rect().size),
		"close": {"point": BattleLayout.xy(close_button.get_global_rect().get_center())},
		"scroll": _scroll.scroll_vertical,
	}


func _input(event: InputEvent) -> void:
	if not visible:
		return
	if event is InputEventMouse:
		return  # the shade and the panel take the pointer
	if event.is_pressed() and not event.is_echo():
		if event.is_action(BattleInput.CANCEL) or event.is_action(BattleInput.CONFIRM):
			close()
		elif event.is_action("ui_down") or event.is_action("ui_page_down"):
			_scroll_by(SCROLL_STEP if event.is_action("ui_down") else int(_scroll.size.y))
		elif event.is_action("ui_up") or event.is_action("ui_page_up"):
			_scroll_by(-SCROLL_STEP if event.is_action("ui_up") else -int(_scroll.size.y))
		elif event.is_action("ui_home") or event.is_action("ui_end"):
			_scroll.scroll_vertical = 0 if event.is_action("ui_home") else 1 << 20
	get_viewport().set_input_as_handled()  # the battle behind waits while it is open


func _on_shade_input(event: InputEvent) -> void:
	var click := event as InputEventMouseButton
	if click != null and click.pressed and click.button_index == MOUSE_BUTTON_LEFT:
		close()  # a click outside the panel


func _scroll_by(pixels: int) -> void:
	_scroll.scroll_vertical += pixels


# The panel: centred over the viewport, as wide as the cards of a row, at most most of it.
func _fit() -> void:
	var screen := _shade.get_viewport_rect().size
	var card := _card_size()
	var columns := clampi(int((screen.x * 0.86 - 40) / (card.x + 14)), 1, 6)
	_grid.columns = columns
	var rows := ceili(float(maxi(_slots.size(), 1)) / columns)
	var tallest := card.y
	for slot in _slots:
		tallest = maxf(tallest, slot.custom_minimum_size.y)
	var wanted := Vector2(columns * (card.x + 14) + 26, rows * (tallest + 14))
	var height := minf(wanted.y, screen.y * 0.86 - 110) if not _slots.is_empty() else 0.0
	_scroll.custom_minimum_size = Vector2(wanted.x, height)
	_panel.reset_size()
	_panel.position = ((screen - _panel.size) * 0.5).round()
	_shade.queue_redraw()


func _restyle() -> void:
	var box := StyleBoxFlat.new()
	box.bg_color = PyBridge.ViewTheme.color(_panel, &"background", PilePicker.THEME_TYPE)
	box.border_color = PyBridge.ViewTheme.color(_panel, &"border", PilePicker.THEME_TYPE)
	box.set_border_width_all(2)
	box.set_corner_radius_all(10)
	box.set_content_margin_all(16)
	_panel.add_theme_stylebox_override(&"panel", box)


# Each card as tall as its whole text needs at the theme's minimum size (the hand grows a
# raised card the same way), so no card's text is cut off in the viewer.
func _grow_to_text() -> void:
	var base := _base_size()
	for slot in _slots:
		for view in slot.get_children():
			if view.has_method(&"raised_height"):
				view.size.y = maxf(base.y, float(view.call(&"raised_height")))
				slot.custom_minimum_size.y = roundf(view.size.y * card_scale)


func _card_size() -> Vector2:
	return (_base_size() * card_scale).round()


func _base_size() -> Vector2:
	var probe := _view.new_card_view()
	var found: Vector2 = probe.size
	if found == Vector2.ZERO and probe.has_method(&"card_size"):
		found = probe.call(&"card_size")
	if found == Vector2.ZERO:
		found = probe.get_combined_minimum_size()
	probe.free()
	return found


func _slot(entry: Dictionary) -> Control:
	var slot := Control.new()
	slot.mouse_filter = Control.MOUSE_FILTER_IGNORE
	slot.set_meta(&"entry", entry)
	slot.custom_minimum_size = _card_size()
	if not entry.has("card"):  # a face-down card the viewer may not see: its back
		var back := Control.new()
		back.mouse_filter = Control.MOUSE_FILTER_PASS  # its tooltip says what it is
		back.set_anchors_preset(Control.PRESET_FULL_RECT)
		back.tooltip_text = tr("Face down")
		back.draw.connect(_draw_back.bind(back, str(answer.get("side", ""))))
		slot.add_child(back)
		return slot
	var view := _view.new_card_view()
	view.size = _base_size()
	view.scale = Vector2.ONE * card_scale
	view.mouse_filter = Control.MOUSE_FILTER_IGNORE
	slot.add_child(view)
	var instance := entry.duplicate()
	if instance.get("owner") == null:  # a card of the pile's side, not of the viewer's
		var seat := BattleData.side_in(_view.state, str(answer.get("side", "")))
		if seat.has("active_player"):
			instance["owner"] = seat["active_player"]
	var data := _view.data.card_data(instance, {})
	data["playable"] = true  # shown, not offered: no card is dimmed as unplayable
	data["reason"] = ""
	if str(data.get("text", "")).is_empty():  # no text of its own: the runtime's sentence
		data["text"] = Sentences.say(entry.get("text_message"), str(entry.get("text", "")))
	slot.set_meta(&"text", str(data.get("text", "")))
	view.call(&"show_card", data)
	return slot


# Whose pile it is, in a battle of two card-playing sides: the side's name (its active
# player's), in the side's colour.
func _show_whose(team: String) -> void:
	_whose.visible = _view.state.has("sides") and not team.is_empty()
	if not _whose.visible:
		return
	var seat := BattleData.side_in(_view.state, team)
	var player := str(seat.get("active_player", team))
	var name := str(_view.names().get("units", {}).get(player, player))
	_whose.text = tr("%s's side") % name if team != viewer() else tr("Your side (%s)") % name
	_whose.add_theme_color_override(&"font_color", _team_color(team).lightened(0.3))


# A card back, the size of a card: the side's colour, a frame and a lattice.
func _draw_back(back: Control, team: String) -> void:
	var tint := _team_color(team)
	var rect := Rect2(Vector2.ZERO, back.size)
	var box := StyleBoxFlat.new()
	box.bg_color = tint.darkened(0.55)
	box.border_color = tint.lightened(0.25)
	box.set_border_width_all(roundi(3 * card_scale))
	box.set_corner_radius_all(roundi(10 * card_scale))
	back.draw_style_box(box, rect)
	var inner := rect.grow(-BACK_INSET * card_scale)
	back.draw_rect(inner, Color(1, 1, 1, 0.2), false, 2.0)
	var step := BACK_STEP * card_scale
	var ink := Color(tint.lightened(0.4), 0.22)
	var x := inner.position.x - inner.size.y
	while x < inner.end.x:  # diagonals both ways, clipped to the inner frame
		for way: float in [1.0, -1.0]:
			var from := Vector2(x, inner.position.y if way > 0 else inner.end.y)
			var to := from + Vector2(inner.size.y, inner.size.y * way)
			var clipped := _clip(from, to, inner)
			if clipped.size() == 2:
				back.draw_line(clipped[0], clipped[1], ink, 1.5)
		x += step
	var center := rect.get_center()
	var r := 16.0 * card_scale
	var diamond := PackedVector2Array(
		[
			center + Vector2(0, -r),
			center + Vector2(r, 0),
			center + Vector2(0, r),
			center - Vector2(r, 0)
		]
	)
	back.draw_colored_polygon(diamond, tint.lightened(0.15))
	diamond.append(diamond[0])
	back.draw_polyline(diamond, Color(1, 1, 1, 0.6), 2.0)


# The part of the segment [param from]-[param to] inside [param rect] (empty if none).
static func _clip(from: Vector2, to: Vector2, rect: Rect2) -> PackedVector2Array:
	var lo := 0.0
	var hi := 1.0
	var delta := to - from
	for axis in 2:
		if is_zero_approx(delta[axis]):
			if from[axis] < rect.position[axis] or from[axis] > rect.end[axis]:
				return PackedVector2Array()
			continue
		var a := (rect.position[axis] - from[axis]) / delta[axis]
		var b := (rect.end[axis] - from[axis]) / delta[axis]
		lo = maxf(lo, minf(a, b))
		hi = minf(hi, maxf(a, b))
	if lo > hi:
		return PackedVector2Array()
	return PackedVector2Array([from + delta * lo, from + delta * hi])


func _team_color(team: String) -> Color:
	return PyBridge.ViewTheme.color_or(_panel, StringName(team), &"dim_text", TEAM_THEME_TYPE)


# The theme the view is drawn with (a CanvasLayer passes none on).
static func _theme_of(node: Node) -> Theme:
	while node != null:
		var control := node as Control
		if control != null and control.theme != null:
			return control.theme
		node = node.get_parent()
	return null
