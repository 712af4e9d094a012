@tool
extends PanelContainer
## A choice of cards: the cards of the places a card chooses from (the hand, a pile, the
## Cut), the legal ones lit, the others dimmed, each chosen one numbered in picking order.
##
## The [PyBridgeBattleView] opens it for a card that chooses cards (its
## [code]late_choice.chooses[/code] is [code]"cards"[/code]): as its Cut entry resolves, or,
## in an immediate play, before the play. A click on a lit card (or the target keys and
## Confirm) picks it and the runtime says what may be picked next ([PyBridge.Choice]); when
## the choice is full, or on Confirm once it may be confirmed, it closes with
## [signal PyBridgeBattleView.choice_ended]; Cancel closes it without a choice. The cards
## are shown by the battle view's card scene, at [member card_scale].
##
## The keys step through the lit cards and then the Confirm button (once the choice may be
## confirmed), so a choice of "any number" is answered without the mouse too. A choice that
## takes more than one card lists the picks in order under the cards.

# The view emits each as its own signal of the same name (battle/pybridge_relay.gd).
signal choice_changed(choice: PyBridge.Choice)
signal choice_ended(choice: PyBridge.Choice, confirmed: bool)
signal request_refused(op: String, reason: String)
## A request was refused, typed ([signal PyBridgeBattleView.request_denied]).
signal request_denied(op: String, refusal: PyBridge.Refusal)

const TypedTwins := preload("res://addons/pybridge_targeting/battle/pybridge_typed_twins.gd")
const ViewDrawing := preload("res://addons/pybridge_targeting/drawing/pybridge_view_drawing.gd")
const BattleInput := preload("res://addons/pybridge_targeting/battle/pybridge_battle_input.gd")
const BattleLayout := preload("res://addons/pybridge_targeting/battle/pybridge_battle_layout.gd")
const TargetMarks := preload("res://addons/pybridge_targeting/drawing/pybridge_target_marks.gd")
## The theme type of its items.
const THEME_TYPE := &"PyBridgePilePicker"
## [member focused] when the keys point at the Confirm button.
const ON_CONFIRM := -2

## The scale the cards are shown at.
@export_range(0.4, 1.2) var card_scale: float = 0.8
## How many cards a row holds.
@export_range(1, 12) var columns: int = 6

## The choice being made, or null when closed.
var choice: PyBridge.Choice = null
## The cards shown: [code][{"id", "zone", "slot"}][/code], in the order of their places.
var cards: Array[Dictionary] = []
## The card the keys point at (an index into [member cards]), [constant ON_CONFIRM] for the
## Confirm button, or -1.
var focused: int = -1
## The Confirm button.
var confirm_button: Button = Button.new()
## The Cancel button.
var cancel_button: Button = Button.new()

var _view: PyBridgeBattleView = null
var _title: Label = Label.new()
var _grid: GridContainer = GridContainer.new()
var _order: Label = Label.new()
var _center: Vector2 = Vector2.ZERO
var _restyling: bool = false


func _init(view: PyBridgeBattleView = null) -> void:
	_view = view
	visible = false
	z_index = 60
	mouse_filter = Control.MOUSE_FILTER_STOP
	var rows := VBoxContainer.new()
	rows.add_theme_constant_override(&"separation", 10)
	add_child(rows)
	rows.add_child(_title)
	_grid.add_theme_constant_override(&"h_separation", 12)
	_grid.add_theme_constant_override(&"v_separation", 12)
	rows.add_child(_grid)
	_order.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	rows.add_child(_order)
	var buttons := HBoxContainer.new()
	buttons.alignment = BoxContainer.ALIGNMENT_END
	buttons.add_theme_constant_override(&"separation", 8)
	rows.add_child(buttons)
	for button in [confirm_button, cancel_button]:
		button.focus_mode = Control.FOCUS_NONE
		buttons.add_child(button)
	confirm_button.pressed.connect(confirm)
	cancel_button.pressed.connect(cancel)
	# The cards' sizes reach the panel a frame later: it fits and centres itself again then.
	minimum_size_changed.connect(_fit)


func _notification(what: int) -> void:
	# An opaque panel (the theme's [code]background[/code] and [code]border[/code] colours of
	# the type PilePicker): the cards read clearly over the field. Setting it notifies
	# a theme change again.
	if what == NOTIFICATION_THEME_CHANGED and not _restyling:
		_restyling = true
		var box := StyleBoxFlat.new()
		box.bg_color = PyBridge.ViewTheme.color(self, &"background", THEME_TYPE)
		box.border_color = PyBridge.ViewTheme.color(self, &"border", THEME_TYPE)
		box.set_border_width_all(2)
		box.set_corner_radius_all(10)
		box.set_content_margin_all(12)
		add_theme_stylebox_override(&"panel", box)
		_restyling = false


func _gui_input(event: InputEvent) -> void:
	var click := event as InputEventMouseButton
	if click != null and click.pressed and click.button_index == MOUSE_BUTTON_LEFT:
		var at := card_at(click.global_position)
		if at >= 0:
			pick(str(cards[at]["id"]))
		accept_event()


## Opens the picker on [param new_choice] of [param title] (the card's name), showing
## [param listed]: [code][{"id", "zone", "data"}][/code], each card's id, its place and what
## the card scene is shown ([method PyBridgeBattleView.card_data]), centred on
## [param center] (global).
func open(new_choice: PyBridge.Choice, title: String, listed: Array, center: Vector2) -> void:
	choice = new_choice
	for child in _grid.get_children():
		child.queue_free()
	cards.clear()
	_grid.columns = clampi(listed.size(), 1, columns)
	for item: Dictionary in listed:
		var slot := _slot(item["data"])
		_grid.add_child(slot)
		var card_name := str(item["data"].get("name", item["id"]))
		cards.append(
			{"id": str(item["id"]), "zone": str(item["zone"]), "slot": slot, "name": card_name}
		)
	focused = _first_candidate()
	_title.set_meta(&"card", title)
	visible = true
	_center = center
	_refresh()
	_fit()


## Closes the picker without a choice.
func cancel() -> void:
	_close(false)


## Confirms the choice when the runtime says it may be confirmed.
func confirm() -> void:
	if choice != null and choice.can_confirm:
		_close(true)


## Picks the card [param id] if it is a candidate (a chosen card is taken back); the choice
## closes when it is full.
func pick(id: String) -> void:
	if choice == null:
		return
	var picking := choice
	var ok := false
	if id in picking.chosen:
		ok = await picking.remove(_view.bridge, id)
	else:
		ok = await picking.add(_view.bridge, id)
	if picking != choice:
		return
	if ok and picking.complete:
		_close(true)
		return
	if not ok and not picking.refused.is_empty():
		var why := str(picking.refused.get("message", ""))
		TypedTwins.refuse_request(self, "pick", picking.refusal, why)
	_refresh()
	if ok:
		choice_changed.emit(picking)  # as the aim tells a unit picked or taken back


## Handles the battle's input actions while open (the target keys move among the lit cards,
## confirm picks the one they point at or confirms, cancel closes); true when it did.
func handle(event: InputEvent) -> bool:
	if not visible or not event.is_pressed() or event.is_echo():
		return false
	if event.is_action(BattleInput.NEXT_TARGET, true) or event.is_action(BattleInput.NEXT_CARD):
		_move_focus(1)
	elif (
		event.is_action(BattleInput.PREVIOUS_TARGET, true)
		or event.is_action(BattleInput.PREVIOUS_CARD)
	):
		_move_focus(-1)
	elif event.is_action(BattleInput.CONFIRM):
		if focused == ON_CONFIRM:
			confirm()
		elif focused >= 0 and _is_candidate(focused):
			pick(str(cards[focused]["id"]))
		else:
			confirm()
	elif event.is_action(BattleInput.CANCEL):
		cancel()
	elif event.is_action(BattleInput.UNDO) and not choice.chosen.is_empty():
		pick(choice.chosen[choice.chosen.size() - 1])
	else:
		return event is InputEventKey  # the battle behind it waits
	return true


## The index into [member cards] of the card under [param point] (global), or -1.
func card_at(point: Vector2) -> int:
	for i in cards.size():
		if (cards[i]["slot"] as Control).get_global_rect().has_point(point):
			return i
	return -1


## What it shows now: [code]{"visible", "title", "cards": [{"id", "zone", "legal", "chosen",
## "focused", "point", "size"}], "order", "confirm": {"enabled", "focused", "point"},
## "cancel": {"point"}}[/code] ([code]chosen[/code] is the card's number in the choice, 0 when
## it is not chosen; [code]order[/code] the line listing the picks; points global).
func shown() -> Dictionary:
	var listed := []
	for i in cards.size():
		var id := str(cards[i]["id"])
		var slot: Control = cards[i]["slot"]
		(
			listed
			. append(
				{
					"id": id,
					"zone": cards[i]["zone"],
					"legal": _is_candidate(i),
					"chosen": choice.number_of(id) if choice != null else 0,
					"focused": i == focused,
					"point": BattleLayout.xy(slot.get_global_rect().get_center()),
					"size": BattleLayout.xy(slot.get_global_rect().size),
				}
			)
		)
	return {
		"visible": visible,
		"title": _title.text,
		"cards": listed,
		"order": _order.text if _order.visible else "",
		"confirm":
		{
			"enabled": not confirm_button.disabled,
			"focused": focused == ON_CONFIRM,
			"point": BattleLayout.xy(confirm_button.get_global_rect().get_center())
		},
		"cancel": {"point": BattleLayout.xy(cancel_button.get_global_rect().get_center())},
	}


func _close(confirmed: bool) -> void:
	var done := choice
	choice = null
	visible = false
	if done != null and _view != null:
		choice_ended.emit(done, confirmed)


func _fit() -> void:
	if visible:
		reset_size()
		global_position = (_center - size * 0.5).round()


func _refresh() -> void:
	if choice == null:
		return
	_title.text = choice.prompt_text(str(_title.get_meta(&"card", "")))
	confirm_button.text = BattleInput.with_key(tr("Confirm"), BattleInput.CONFIRM)
	cancel_button.text = BattleInput.with_key(tr("Cancel"), BattleInput.CANCEL)
	confirm_button.disabled = not choice.can_confirm
	if (
		(focused >= 0 and not _is_candidate(focused))
		or (focused == ON_CONFIRM and not choice.can_confirm)
	):
		focused = _first_candidate()
	if focused == -1 and choice.can_confirm:
		focused = ON_CONFIRM
	_show_confirm_focus()
	_show_order()
	for i in cards.size():
		var slot: Control = cards[i]["slot"]
		var lit := _is_candidate(i) or choice.number_of(str(cards[i]["id"])) > 0
		slot.modulate = Color.WHITE if lit else Color(0.45, 0.45, 0.5)
		slot.queue_redraw()
		(slot.get_child(1) as Control).queue_redraw()


## The Confirm button looks pressed-to-be while the keys point at it.
func _show_confirm_focus() -> void:
	if focused == ON_CONFIRM:
		var look := StyleBoxFlat.new()
		look.bg_color = PyBridge.ViewTheme.color(self, &"pick", TargetMarks.THEME_TYPE)
		look.set_corner_radius_all(4)
		look.set_content_margin_all(6)
		for state: StringName in [&"normal", &"hover", &"pressed"]:
			confirm_button.add_theme_stylebox_override(state, look)
		confirm_button.add_theme_color_override(&"font_color", Color("1a1428"))
		confirm_button.add_theme_color_override(&"font_hover_color", Color("1a1428"))
	else:
		for state: StringName in [&"normal", &"hover", &"pressed"]:
			confirm_button.remove_theme_stylebox_override(state)
		confirm_button.remove_theme_color_override(&"font_color")
		confirm_button.remove_theme_color_override(&"font_hover_color")


## Under a choice of more than one card, the picks by name in the order they were made.
func _show_order() -> void:
	_order.visible = choice.count > 1
	var names := PackedStringArray()
	for id in choice.chosen:
		var named := id
		for card: Dictionary in cards:
			if str(card["id"]) == id:
				named = str(card["name"])
		names.append(tr("%d. %s") % [names.size() + 1, named])
	_order.text = (
		tr("In order: %s") % "   ".join(names) if not names.is_empty() else tr("None picked yet")
	)


func _slot(data: Dictionary) -> Control:
	var view := _view.new_card_view()
	# A built-in card sizes itself from the theme only as it enters the tree: ask it now.
	var card_size: Vector2 = view.size
	if card_size == Vector2.ZERO and view.has_method(&"card_size"):
		card_size = view.call(&"card_size")
	if card_size == Vector2.ZERO:
		card_size = view.get_combined_minimum_size()
	view.size = card_size
	var slot := Control.new()
	slot.mouse_filter = Control.MOUSE_FILTER_IGNORE
	slot.custom_minimum_size = (card_size * card_scale).round()
	view.scale = Vector2.ONE * card_scale
	slot.add_child(view)
	view.call(&"show_card", data)
	var marks := Control.new()
	marks.mouse_filter = Control.MOUSE_FILTER_IGNORE
	marks.set_anchors_preset(Control.PRESET_FULL_RECT)
	slot.add_child(marks)
	marks.draw.connect(_draw_marks.bind(marks, slot))
	return slot


func _draw_marks(canvas: Control, slot: Control) -> void:
	var index := -1
	for i in cards.size():
		if cards[i]["slot"] == slot:
			index = i
	if index < 0 or choice == null:
		return
	var rect := Rect2(Vector2.ZERO, slot.custom_minimum_size)
	var gold := PyBridge.ViewTheme.color(self, &"pick", TargetMarks.THEME_TYPE)
	var number := choice.number_of(str(cards[index]["id"]))
	if _is_candidate(index) or number > 0:
		ViewDrawing.round_rect(canvas, rect.grow(4.0), Color(0, 0, 0, 0), 10, gold, 3.0)
	if index == focused:  # where the keys point: a white ring outside the gold one
		ViewDrawing.round_rect(canvas, rect.grow(9.0), Color(0, 0, 0, 0), 12, Color.WHITE, 2.0)
	if number > 0:
		# Inside the card, over its picture: apart from the card's own corner numbers (its
		# cost) and from its neighbour's.
		var at := rect.position + Vector2(rect.size.x * 0.5, rect.size.y * 0.3)
		canvas.draw_circle(at, 17.0, Color(0, 0, 0, 0.8))
		canvas.draw_circle(at, 14.0, gold)
		ViewDrawing.centered_text(
			canvas,
			get_theme_default_font(),
			str(number),
			at + Vector2(0, 7),
			20,
			Color("1a1428"),
			0,
			Color(0, 0, 0, 0)
		)


func _is_candidate(index: int) -> bool:
	return choice != null and str(cards[index]["id"]) in choice.candidates


func _first_candidate() -> int:
	for i in cards.size():
		if _is_candidate(i):
			return i
	return -1


func _move_focus(offset: int) -> void:
	var lit: Array[int] = []
	for i in cards.size():
		if _is_candidate(i):
			lit.append(i)
	if choice.can_confirm:
		lit.append(ON_CONFIRM)
	if lit.is_empty():
		return
	var at := lit.find(focused)
	focused = lit[posmod(at + offset, lit.size())] if at >= 0 else lit[0]
	_refresh()
