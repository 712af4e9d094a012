extends "res://suite.gd"
## Input: every key and button is a rebindable InputMap action; the battle reads input only
## after the GUI had it (a focused text field keeps its digits); the mouse still aims.

const BattleAim := preload("res://addons/pybridge_targeting/battle/pybridge_battle_aim.gd")
const BattleInput := preload("res://addons/pybridge_targeting/battle/pybridge_battle_input.gd")


func before_battle() -> PyBridgeBattleView:
	var view := battle_view(web_client())
	await view.open_battle(demo_battle())
	return view


func press(event: InputEvent) -> void:
	Input.parse_input_event(event)
	await frames(2)


func key(code: Key, shift: bool = false) -> InputEventKey:
	var event := InputEventKey.new()
	event.keycode = code
	event.shift_pressed = shift
	event.pressed = true
	return event


func test_defaults_are_added_and_a_projects_own_binding_is_kept() -> void:
	for action: StringName in BattleInput.default_bindings():
		if InputMap.has_action(action):
			InputMap.erase_action(action)
	InputMap.add_action(BattleInput.CANCEL)
	InputMap.action_add_event(BattleInput.CANCEL, key(KEY_Q))
	var added := BattleInput.register_defaults()
	check(not BattleInput.CANCEL in added, "the project's cancel is kept")
	check_eq(InputMap.action_get_events(BattleInput.CANCEL).size(), 1, "with its one event")
	check(
		BattleInput.CONFIRM in added and InputMap.has_action(BattleInput.CONFIRM),
		"confirm is added"
	)
	check_eq(added.size(), BattleInput.default_bindings().size() - 1, "every other action is added")
	check(InputMap.has_action(&"pybridge_card_10"), "ten card keys")
	InputMap.erase_action(BattleInput.CANCEL)
	BattleInput.register_defaults()
	check(
		InputMap.event_is_action(key(KEY_ESCAPE), BattleInput.CANCEL), "Escape cancels by default"
	)


func test_keys_pick_cards_and_targets_and_can_be_rebound() -> void:
	var view: PyBridgeBattleView = await before_battle()
	await press(key(KEY_2))
	check(view.aim.card != null and view.aim.card.card_id == "h2", "2 picks the second card")
	await press(key(KEY_ESCAPE))
	check(view.aim.card == null, "Escape puts it back")
	await press(key(KEY_1))
	var candidates: Array = view.targets_of("h1")["candidates"]
	check_eq(
		view.aim.aimed_unit(), str(candidates[0]), "an arrow card starts at its first candidate"
	)
	await press(key(KEY_TAB))
	check_eq(view.aim.aimed_unit(), str(candidates[1]), "Tab goes to the next")
	await press(key(KEY_TAB, true))
	check_eq(view.aim.aimed_unit(), str(candidates[0]), "Shift+Tab goes back")
	InputMap.action_erase_events(BattleInput.CANCEL)
	InputMap.action_add_event(BattleInput.CANCEL, key(KEY_Q))
	await press(key(KEY_ESCAPE))
	check(view.aim.card != null, "rebound: Escape no longer cancels")
	await press(key(KEY_Q))
	check(view.aim.card == null, "Q does")
	InputMap.erase_action(BattleInput.CANCEL)
	BattleInput.register_defaults()


func test_a_focused_text_field_keeps_its_keys() -> void:
	var view: PyBridgeBattleView = await before_battle()
	var field := LineEdit.new()
	field.position = Vector2(1100, 10)
	field.size = Vector2(160, 30)
	add_child(field)
	field.grab_focus()
	await frames(1)
	var typed := key(KEY_3)
	typed.unicode = "3".unicode_at(0)
	await press(typed)
	check_eq(field.text, "3", "the field took the digit")
	check(view.aim.card == null, "and no card was picked")
	field.release_focus()
	await press(key(KEY_3))
	check(view.aim.card != null and view.aim.card.card_id == "h3", "without focus, 3 picks")


func test_the_mouse_drags_a_card_onto_a_target() -> void:
	var view: PyBridgeBattleView = await before_battle()
	var played := []
	view.card_played.connect(
		func(card: String, target: String, _r: Dictionary) -> void: played.append([card, target])
	)
	var points := view.layout_points()
	var from := Vector2(points["cards"]["h1"][0], points["cards"]["h1"][1])
	var to := Vector2(points["units"]["goblin"][0], points["units"]["goblin"][1])
	await press(_mouse_move(from))
	await press(_mouse_button(from, true))
	await press(_mouse_move((from + to) * 0.5))
	await press(_mouse_move(to))
	check(view.aim.state == BattleAim.State.DRAGGING, "the card is dragged")
	check_eq(view.lit_units, PackedStringArray(view.targets_of("h1")["candidates"]), "lit")
	await press(_mouse_button(to, false))
	check_eq(played, [["h1", "goblin"]], "released on the goblin, Strike is played at it")


func _mouse_move(at: Vector2) -> InputEventMouseMotion:
	var event := InputEventMouseMotion.new()
	event.position = at
	event.global_position = at
	return event


func _mouse_button(at: Vector2, down: bool) -> InputEventMouseButton:
	var event := InputEventMouseButton.new()
	event.button_index = MOUSE_BUTTON_LEFT
	event.pressed = down
	event.position = at
	event.global_position = at
	return event


func test_a_control_above_the_view_that_stops_the_mouse_is_named_in_a_warning() -> void:
	var holder := Control.new()
	holder.name = "GameRoot"
	add_child(holder)
	var view := PyBridgeBattleView.new()
	holder.add_child(view)
	check(
		"GameRoot" in BattleInput.blocked_mouse_warning(view),
		"a root Control left at Stop is named"
	)
	check("GameRoot" in "\n".join(view._get_configuration_warnings()), "in the editor too")
	holder.mouse_filter = Control.MOUSE_FILTER_PASS
	check_eq(BattleInput.blocked_mouse_warning(view), "", "Pass lets the pointer through")
	holder.queue_free()
