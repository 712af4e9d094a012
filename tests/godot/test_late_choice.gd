extends "res://suite.gd"
## Choosing on resolve: as an entry resolves the view asks with the runtime's candidates
## (units with the aim, cards with the pile picker, the legal cards lit) and sends the
## answer in choices; when nothing can be chosen any more it does not ask, and the entry
## fails (strict) or does nothing (soft). Played at once without the Cut, the choice is the
## play's target.

const LATE_NODE := {"id": "hit", "type": "DealDamage", "amount": 5, "source": "Target"}
const TAKE := {"id": "take", "type": "MoveCard", "to": "hand", "source": "ChosenCards"}
const HIDE := {
	"id": "hide",
	"name": "Hide",
	"target": "Self",
	"response": true,
	"behavior":
	{
		"start": "ward",
		"nodes": [{"id": "ward", "type": "ApplyStatus", "status": "ward", "source": "Self"}]
	}
}
const WARD := {"id": "ward", "name": "Ward", "protection": "all"}

var view: PyBridgeBattleView = null
var passed: Array = []
var played: Array = []


func late_card() -> Dictionary:
	return card("late", "SingleEnemy", LATE_NODE, {"choose_on_resolve": true})


func dig_card() -> Dictionary:
	var where := {"zones": ["discard"], "where": {"type": "attack"}}
	return card("dig", "None", TAKE, {"choose_on_resolve": true, "card_targets": where})


func with_discard(document: Dictionary) -> Dictionary:
	document["cards"].append(card("blade", "SingleEnemy", LATE_NODE))
	document["cards"].append(
		card("salve", "Self", {"id": "s", "type": "GainArmor", "amount": 1, "source": "Self"})
	)
	document["cards"][-1]["type"] = "skill"
	document["piles"]["discard"] = [
		{"id": "x1", "card": "salve"}, {"id": "x2", "card": "blade"}, {"id": "x3", "card": "blade"}
	]
	return document


func opened(document: Dictionary, through_the_cut: bool = true) -> void:
	view = cut_battle_view(web_client()) if through_the_cut else battle_view(web_client())
	await view.open_battle(document)
	view.passed.connect(func(result: Dictionary) -> void: passed.append(result))
	view.card_played.connect(
		func(_c: String, _t: String, result: Dictionary) -> void: played.append(result)
	)


func settle() -> void:
	await frames(2)
	while view.is_busy():
		await frames(1)


func events_of(results: Array, kind: String) -> Array:
	var found := []
	for result: Dictionary in results:
		for event: Dictionary in result["events"]:
			if event["type"] == kind:
				found.append(event)
	return found


func test_a_unit_is_chosen_as_the_entry_resolves() -> void:
	await opened(small_battle([late_card()], ["goblin", "orc"], "strict"))
	await view.play_card_at("h1", PackedStringArray())
	check_eq(view.cut["cut"][0]["late_choice"]["candidates"], ["goblin", "orc"], "late")
	check_eq(view.cut_view.shown()["entries"][0]["detail"], "Hero · chooses as it resolves", "")
	view.pass_priority()  # nobody answers: the entry resolves, and needs its choice first
	await settle()
	check(view.aim.choice != null and view.aim.choice.entry_id == "e1", "the view asks")
	check_eq(view.aim.candidates(), PackedStringArray(["goblin", "orc"]), "the runtime's")
	check_eq(view.lit_units, PackedStringArray(["goblin", "orc"]), "lit")
	check(view.choice_prompt.visible, "with its prompt")
	check_eq(passed, [], "nothing passed yet")
	view.aim.cycle_target(1)
	view.aim.confirm()  # the orc
	await settle()
	check_eq(passed.size(), 1, "the pass went with the choice")
	check_eq(events_of(passed, "targets_chosen")[0]["units"], ["orc"], "the orc")
	check_eq(events_of(passed, "damage")[0]["unit"], "orc", "and it is hit")
	check_eq(view.cut_view.history[0]["outcome"], "resolved", "resolved")


func test_cancelling_the_choice_passes_nothing() -> void:
	await opened(small_battle([late_card()], ["goblin"], "strict"))
	await view.play_card_at("h1", PackedStringArray())
	view.pass_priority()
	await settle()
	view.aim.cancel()
	await settle()
	check_eq(passed, [], "nothing passed")
	check_eq(view.cut_view.shown()["entries"].size(), 1, "the entry still waits")


func test_the_prompts_cancel_button_clicked_passes_nothing() -> void:
	await opened(small_battle([late_card()], ["goblin"], "strict"))
	await view.play_card_at("h1", PackedStringArray())
	view.pass_priority()
	await settle()
	check(view.aim.choice != null and view.choice_prompt.visible, "the choice is asked")
	var at: Array = view.choice_prompt.shown()["cancel"]["point"]
	var pressed_cancel := []
	view.choice_prompt.cancel_pressed.connect(func() -> void: pressed_cancel.append(true))
	for pressed in [true, false]:
		var click := InputEventMouseButton.new()
		click.button_index = MOUSE_BUTTON_LEFT
		click.pressed = pressed
		click.position = Vector2(at[0], at[1])
		click.global_position = click.position
		Input.parse_input_event(click)
		await frames(2)
	await settle()
	check_eq(pressed_cancel, [true], "the click pressed the prompt's Cancel button")
	check(view.aim.choice == null and not view.choice_prompt.visible, "the choice is gone")
	check_eq(passed, [], "nothing passed")
	check_eq(view.cut_view.shown()["entries"].size(), 1, "the entry still waits")


func test_with_no_candidate_left_it_fails_under_strict_without_asking() -> void:
	var document := small_battle([late_card()], ["orc"], "strict", [HIDE], [WARD])
	await opened(document)
	await view.play_card_at("h1", PackedStringArray())
	await view.pass_priority()  # the orc wards itself in answer
	await view.pass_priority()  # the ward resolves
	await view.pass_priority()  # nothing can be chosen any more
	check(view.aim.choice == null, "the view did not ask")
	check_eq(events_of(passed, "effect_failed")[0]["reason"], "no_targets", "it fails")
	var last: Dictionary = view.cut_view.history[0]
	check_eq(last["outcome"], "failed", "fizzled")
	check_eq(last["lines"], ["Late fails: nothing is left to target."], "the runtime's words")


func test_with_no_candidate_left_it_does_nothing_under_soft() -> void:
	var document := small_battle([late_card()], ["orc"], "soft", [HIDE], [WARD])
	await opened(document)
	await view.play_card_at("h1", PackedStringArray())
	await view.pass_priority()
	await view.pass_priority()
	await view.pass_priority()
	check(view.aim.choice == null, "the view did not ask")
	check_eq(events_of(passed, "targets_chosen")[-1]["units"], [], "nothing chosen")
	check_eq(events_of(passed, "effect_failed"), [], "nothing failed")
	check_eq(view.cut_view.history[0]["outcome"], "resolved", "it resolved, doing nothing")


func test_cards_are_chosen_in_the_pile_picker_with_the_legal_ones_lit() -> void:
	await opened(with_discard(small_battle([dig_card()], ["orc"], "strict")))
	await view.play_card_at("h1", PackedStringArray())
	view.pass_priority()
	await settle()
	var picker := view.pile_picker
	check(picker.visible, "the picker opens")
	var shown := picker.shown()
	check_eq(
		shown["cards"].map(func(c: Dictionary) -> String: return c["id"]), ["x1", "x2", "x3"], ""
	)
	check_eq(
		shown["cards"].map(func(c: Dictionary) -> bool: return c["legal"]),
		[false, true, true],
		"the attacks are lit, the skill is not"
	)
	var answer := view.bridge.request(
		"pick", {"session": view.bridge.session, "entry": "e1", "chosen": []}
	)
	check_eq(answer["candidates"], ["x2", "x3"], "as the runtime says")
	var rects: Array = picker.cards.map(
		func(c: Dictionary) -> Rect2: return (c["slot"] as Control).get_global_rect()
	)
	check(rects[0].size.x > 60.0 and rects[0].size.y > 90.0, "a card is card-sized %s" % rects[0])
	for i in range(1, rects.size()):
		check(not rects[i - 1].intersects(rects[i]), "the cards lie side by side")
	check(picker.get_global_rect().encloses(rects[2]), "inside the picker")
	picker.pick("x1")  # not a candidate: nothing happens
	await settle()
	check(picker.visible and picker.choice.chosen.is_empty(), "a dim card cannot be picked")
	var tab := InputEventKey.new()
	tab.keycode = KEY_TAB
	tab.pressed = true
	check(picker.handle(tab), "Tab moves among the lit cards")
	check_eq(picker.shown()["cards"][2]["focused"], true, "to the second")
	var enter := InputEventKey.new()
	enter.keycode = KEY_ENTER
	enter.pressed = true
	picker.handle(enter)
	await settle()
	check(not picker.visible, "the choice is full: it closes")
	check_eq(events_of(passed, "cards_chosen")[0]["cards"], ["x3"], "the answer went in choices")
	var hand: Array = view.state["piles"]["hand"]
	check_eq(hand.map(func(c: Dictionary) -> String: return c["id"]), ["x3"], "into the hand")


func test_played_at_once_the_choice_is_the_target() -> void:
	var document := with_discard(small_battle([dig_card(), late_card()], ["orc", "imp"]))
	await opened(document, false)
	view.cut_flow.release_card("h1")
	await settle()
	check(view.pile_picker.visible, "a card that chooses cards asks before the play")
	view.pile_picker.pick("x2")
	await settle()
	check_eq(events_of(played, "cards_chosen")[0]["cards"], ["x2"], "played with its choice")
	view.select_card("h2")
	view.aim.confirm()
	await settle()
	check(view.aim.needs_unit() and view.aim.choice.late, "a late unit card asks for its unit")
	view.aim.confirm()
	await settle()
	check_eq(events_of(played, "damage")[0]["unit"], "orc", "and plays at it")


func test_the_pile_picker_chooses_from_the_hand_as_the_runtime_says() -> void:
	var where := {"zones": ["hand"], "where": {"type": "attack"}}
	var toss := {"id": "toss", "type": "MoveCard", "to": "discard", "source": "ChosenCards"}
	var cards := [
		card("toss", "None", toss, {"choose_on_resolve": true, "card_targets": where}),
		card("blade", "SingleEnemy", LATE_NODE),
		card("salve", "Self", {"id": "s", "type": "GainArmor", "amount": 1, "source": "Self"}),
	]
	cards[2]["type"] = "skill"
	await opened(small_battle(cards, ["orc"], "strict"))
	await view.play_card_at("h1", PackedStringArray())
	view.pass_priority()
	await settle()
	var picker := view.pile_picker
	check(picker.visible, "the picker opens on the hand")
	var shown := picker.shown()
	var answer := view.bridge.request(
		"pick", {"session": view.bridge.session, "entry": "e1", "chosen": []}
	)
	check_eq(answer["candidates"], ["h2"], "the runtime's candidate: the attack in the hand")
	check_eq(shown["cards"].map(func(c: Dictionary) -> String: return c["id"]), ["h2", "h3"], "")
	var lit: Array = shown["cards"].filter(func(c: Dictionary) -> bool: return c["legal"])
	check_eq(lit.map(func(c: Dictionary) -> String: return c["id"]), answer["candidates"], "lit")
	picker.pick("h2")
	await settle()
	check(not picker.visible, "the choice is full: it closes")
	check_eq(events_of(passed, "cards_chosen")[0]["cards"], ["h2"], "the answer went in choices")
	var discard: Array = view.state["piles"]["discard"]
	check("h2" in discard.map(func(c: Dictionary) -> String: return c["id"]), "h2 was discarded")
