extends "res://suite.gd"
## A choice an extension's action asks as it resolves (tests/godot/extensions/peek.py): the
## view opens the pile picker on the runtime's options, in its order, and sends the play (or
## the pass) again with the answer; cancelling it plays nothing.

const PEEK := {"id": "look", "type": "Peek", "count": 2}

var view: PyBridgeBattleView = null
var played: Array = []
var passed: Array = []


func peek_battle(rules: String = "soft") -> Dictionary:
	var document := small_battle([card("peek", "None", PEEK)], ["orc"], rules)
	document["cards"][0]["type"] = "skill"
	document["cards"].append(
		card(
			"blade",
			"SingleEnemy",
			{"id": "b", "type": "DealDamage", "amount": 1, "source": "Opponent"}
		)
	)
	document["piles"]["draw"] = [
		{"id": "d1", "card": "blade"}, {"id": "d2", "card": "blade"}, {"id": "d3", "card": "blade"}
	]
	return document


func opened(document: Dictionary, through_the_cut: bool) -> void:
	view = cut_battle_view(web_client()) if through_the_cut else battle_view(web_client())
	await view.open_battle(document)
	view.card_played.connect(
		func(_c: String, _t: String, result: Dictionary) -> void: played.append(result)
	)
	view.passed.connect(func(result: Dictionary) -> void: passed.append(result))


func settle() -> void:
	await frames(2)
	while view.is_busy():
		await frames(1)


func draw_ids() -> Array:
	return view.state["piles"]["draw"].map(func(c: Dictionary) -> String: return c["id"])


func made(results: Array) -> Array:
	var found := []
	for result: Dictionary in results:
		for event: Dictionary in result["events"]:
			if event["type"] == "choice_made":
				found.append(event["chosen"])
	return found


func test_a_played_card_asks_in_the_pile_picker_and_plays_with_the_answer() -> void:
	await opened(peek_battle(), false)
	view.play_card_at("h1", PackedStringArray())
	await settle()
	var picker := view.pile_picker
	check(picker.visible, "the picker opens on what the action asks")
	var shown := picker.shown()
	check_eq(shown["cards"].map(func(c: Dictionary) -> String: return c["id"]), ["d1", "d2"], "")
	check(picker.choice.prompt_text("Peek").contains("Keep any on top"), "the runtime's prompt")
	picker.pick("d2")
	await settle()
	check_eq(picker.choice.chosen, PackedStringArray(["d2"]), "one picked")
	picker.confirm()
	await settle()
	check(not picker.visible, "confirmed: it closes")
	check_eq(made(played), [["d2"]], "the play went again with the answer")
	check_eq(draw_ids(), ["d2", "d3", "d1"], "kept on top, the other at the bottom")


func test_cancelling_the_asked_choice_plays_nothing() -> void:
	await opened(peek_battle(), false)
	view.play_card_at("h1", PackedStringArray())
	await settle()
	check(view.pile_picker.visible, "it asks")
	view.pile_picker.cancel()
	await settle()
	check_eq(played, [], "nothing played")
	check_eq(view.state["piles"]["hand"].size(), 1, "the card is still in the hand")
	check_eq(draw_ids(), ["d1", "d2", "d3"], "the draw pile is as it was")


func test_an_entry_that_asks_as_it_resolves_is_answered_under_its_key() -> void:
	await opened(peek_battle("strict"), true)
	await view.play_card_at("h1", PackedStringArray())
	view.pass_priority()
	await settle()
	var picker := view.pile_picker
	check(picker.visible, "the resolving entry asks")
	check_eq(picker.choice.answer_key(), "e1.look", "under the entry and the node")
	picker.pick("d2")
	await settle()
	picker.pick("d1")
	await settle()
	check(not picker.visible, "two of two: the choice is full")
	check_eq(made(passed), [["d2", "d1"]], "in the order picked")
	check_eq(draw_ids(), ["d2", "d1", "d3"], "")
