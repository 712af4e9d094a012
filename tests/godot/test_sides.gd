extends "res://suite.gd"
## A battle between two card-playing sides (the rivals example) on a battle view: the hand it
## shows is its side's, its requests name that side, and what each side may do is the
## runtime's answer (a card of the side that may not act now is refused with its reason).

const HandSlot := preload("res://addons/pybridge_targeting/battle/pybridge_hand_slot.gd")
## The rivals example battle, mounted by tests/test_gdscript.py.
const RIVALS_FILE := "res://battle/rivals_battle.json"

var view: PyBridgeBattleView = null


func opened() -> void:
	view = cut_battle_view(web_client())
	await view.open_battle(JSON.parse_string(FileAccess.get_file_as_string(RIVALS_FILE)))


func hand() -> Array:
	return view.hand_slots.map(func(slot: HandSlot) -> String: return slot.card_id)


func test_without_a_side_the_view_shows_the_turn_sides_hand_and_names_no_side() -> void:
	await opened()
	check_eq(hand(), ["a1", "a2", "a3", "a4", "a5"], "the player side's turn: its hand")
	check(not view.request_fields().has("side"), "no side named")
	check(view.can_play("a1"), "its Strike can be played")


func test_the_other_sides_hand_is_shown_and_refused_with_the_runtimes_reason() -> void:
	await opened()
	var refused := []
	view.card_refused.connect(func(card: String, why: String) -> void: refused.append([card, why]))
	await view.show_side("enemy")
	check_eq(hand(), ["v1", "v2", "v3", "v4", "v5"], "the enemy side's hand")
	check_eq(view.request_fields({"card": "v1"})["side"], "enemy", "its requests name it")
	check(not view.can_play("v1"), "not its turn")
	check_eq(view.why_not("v1"), "it is the player side's turn", "the runtime's reason")
	check_eq(view.card_data("v3")["owner"], "Rook", "a card's owner on its side")
	check(not await view.play_card_at("v1", PackedStringArray(["aya"])), "the play is refused")
	check_eq(refused.size(), 1, "one refusal")
	check_eq(str(view.cut.get("side")), "player", "the player side still acts")


func test_a_play_hands_priority_to_the_other_side_whose_hand_answers_on_the_cut() -> void:
	await opened()
	await view.show_side("player")
	check(await view.play_card_at("a1", PackedStringArray(["vex"])), "Aya's Strike is on the Cut")
	check_eq(str(view.cut.get("side")), "enemy", "the runtime gives the enemy side priority")
	check(not view.can_play("a2"), "Aya's cards wait")
	await view.show_side("enemy")
	check(view.can_play("v4"), "Vex's Countermand can answer")
	check(await view.play_card_at("v4", PackedStringArray()), "Vex answers")
	check_eq(str(view.cut.get("side")), "player", "priority back to the player side")
	await view.show_side("player")
	check(await view.pass_priority(), "Aya passes: the Countermand resolves")
	var answer: Dictionary = await view.bridge.ask("cut", {"session": view.bridge.session})
	check_eq(answer.get("cut"), [], "the Strike is negated, the Cut is empty")
	check_eq(view.names()["cards"].get("v4"), "Countermand", "both sides' cards are named")
