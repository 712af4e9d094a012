extends "res://suite.gd"
## The aim on the demo battle: click then click, drag and drop, cancel; the arrow's looks; the
## preview marks the runtime words (none for a random pick); a card that cannot be played is
## refused with the runtime's reason.

const BattleAim := preload("res://addons/pybridge_targeting/battle/pybridge_battle_aim.gd")

var view: PyBridgeBattleView = null
var played: Array = []
var cancelled: Array = []
var refused: Array = []


func opened() -> void:
	view = battle_view(web_client())
	await view.open_battle(demo_battle())
	view.card_played.connect(
		func(card: String, target: String, _r: Dictionary) -> void: played.append([card, target])
	)
	view.aim_cancelled.connect(func(card: String) -> void: cancelled.append(card))
	view.card_refused.connect(func(card: String, why: String) -> void: refused.append([card, why]))


func point(kind: String, id: String) -> Vector2:
	var at: Array = view.layout_points()[kind][id]
	return Vector2(at[0], at[1])


func unit_view(id: String) -> PyBridgeUnitView:
	return view.unit_views[id] as PyBridgeUnitView


func test_click_a_card_then_its_target() -> void:
	await opened()
	var aim := view.aim
	aim.pointer_pressed(point("cards", "h5"))  # Shield Ally: another ally
	aim.pointer_released(point("cards", "h5"))
	check_eq(aim.state, BattleAim.State.ARMED, "a click arms the card")
	check_eq(view.lit_units, PackedStringArray(["cleric", "ranger"]), "its candidates light")
	aim.pointer_moved(point("units", "knight"))
	check_eq(unit_view("knight").target_look, PyBridgeUnitView.TargetLook.INVALID, "not itself")
	aim.pointer_moved(point("units", "ranger"))
	check_eq(unit_view("ranger").target_look, PyBridgeUnitView.TargetLook.VALID, "the ranger")
	check_eq(unit_view("knight").target_look, PyBridgeUnitView.TargetLook.NONE, "knight cleared")
	aim.pointer_pressed(point("units", "ranger"))
	await frames(1)
	check_eq(played, [["h5", "ranger"]], "the second click plays it")
	check_eq(aim.state, BattleAim.State.IDLE, "and the aim is over")


func test_clicking_the_armed_card_again_or_empty_space_puts_it_back() -> void:
	await opened()
	var aim := view.aim
	aim.pointer_pressed(point("cards", "h1"))
	aim.pointer_released(point("cards", "h1"))
	aim.pointer_pressed(point("cards", "h1"))
	check_eq(cancelled, ["h1"], "the same card again cancels")
	aim.pointer_pressed(point("cards", "h1"))
	aim.pointer_moved(Vector2(500, 300))
	aim.pointer_released(Vector2(500, 300))
	check_eq(cancelled, ["h1", "h1"], "a drag released on nothing cancels")
	check_eq(played, [], "nothing was played")


func test_a_card_without_a_target_is_dropped_on_the_field() -> void:
	await opened()
	var aim := view.aim
	var slot := view.hand_slot("h3")  # Defend
	aim.pointer_pressed(point("cards", "h3"))
	var drop := Vector2(500, 250)
	aim.pointer_moved(drop)
	check_eq(aim.state, BattleAim.State.DRAGGING, "dragged")
	check(slot.shown_rect().has_point(drop), "the card follows the pointer")
	check_eq(view.lit_units, PackedStringArray(["knight"]), "Defend lights the knight")
	check_eq(
		unit_view("knight").preview_lines, [{"text": "+5 Armor", "kind": "buff"}], "its preview"
	)
	aim.pointer_released(drop)
	await frames(1)
	check_eq(played, [["h3", ""]], "released on the field, it is played")
	check_eq(int(view.state["units"][0]["armor"]), 5, "the knight has 5 armor")


func test_aiming_shows_the_runtimes_marks_but_not_for_a_random_pick() -> void:
	await opened()
	var aim := view.aim
	view.select_card("h1")  # Strike, the keys' way: its first candidate is aimed
	aim.cycle_target(1)
	check_eq(aim.aimed_unit(), "orc", "Tab moved to the orc")
	await frames(1)
	var orc: Array[Dictionary] = unit_view("orc").preview_lines
	check_eq(
		orc, [{"text": "-2 HP", "kind": "damage"}, {"text": "4 blocked", "kind": "block"}], "orc"
	)
	check(not unit_view("knight").preview_lines.is_empty(), "the Thorns answer shows on the knight")
	aim.cancel()
	check(unit_view("orc").preview_lines.is_empty(), "cancelled: the marks go")
	view.select_card("h8")  # Wild Shot: a random enemy
	aim.pointer_moved(Vector2(500, 250))
	await frames(1)
	for id: String in view.unit_views:
		check(unit_view(id).preview_lines.is_empty(), "no mark gives the random pick away: " + id)


func test_a_card_that_cannot_be_played_is_refused_with_the_runtimes_reason() -> void:
	await opened()
	await view.play_card("h2")  # Meteor Strike: 1 energy left
	check(not view.select_card("h12"), "Resurrect cannot be aimed")
	check_eq(refused.size(), 1, "it is refused")
	check_eq(refused[0][1], view.targets_of("h12")["reason"], "with the runtime's reason")
	check(view.aim.card == null, "nothing is aimed")
