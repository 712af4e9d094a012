extends "res://suite.gd"
## The typed objects of the runtime's answers beyond the state (PyBridge.Outcome,
## PyBridge.LogLine, PyBridge.CutStatus, PyBridge.Refusal), built from real answers with every
## field of their shapes typed (test_typed.gd's check), and the battle view's typed twins of its
## Dictionary signals: each fires with the typed form of what its twin carries.

const Typed := preload("res://test_typed.gd")

var typed: Typed = null


func _ready() -> void:
	typed = Typed.new()
	add_child(typed)


## Records [param typed]'s failures and checks here too.
func _take_checks() -> void:
	checks += typed.checks
	failures.append_array(typed.failures)
	typed.checks = 0
	typed.failures.clear()


func test_an_outcome_and_its_log_lines_are_typed() -> void:
	var state := await typed.opened(demo_battle())
	var client := typed.client
	var types := PyBridge.Event.types_by_event(typed.schema)
	var card_id := state.side().hand[0].id
	var answer := client.typed_targets(card_id)
	var played := client.play(card_id, answer.candidates[0] if answer.requires_target else "")
	var outcome := PyBridge.Outcome.from(played, types)
	typed.check_typed(outcome, "the play's outcome")
	typed.check_events(outcome.events, played["events"])
	check_eq(outcome.log_lines.size(), (played["log"] as Array).size(), "every log line")
	var first := outcome.log_lines[0]
	check_eq(first.text, str(played["log"][0]["text"]), "its English")
	check_eq(typeof(first.event), TYPE_INT, "the event it tells, an int")
	check_eq(first.sentence(), PyBridge.Sentences.say(played["log"][0]["message"], first.text), "")
	check(outcome.state is PyBridge.BattleState, "the state after it")
	check_eq(outcome.session, "", "no session but open's")
	var turn := PyBridge.Outcome.from(client.end_turn(), types)
	typed.check_typed(turn, "the turn's outcome")
	check_eq(turn.state.turn, 2, "the next turn")
	check(not turn.events_of_type(turn.events[0].type).is_empty(), "its events by type")
	_take_checks()


func test_a_refusal_is_typed_and_read_by_its_code() -> void:
	var state := await typed.opened(demo_battle())
	var client := typed.client
	var strike := ""
	for instance: PyBridge.Card in state.side().hand:
		if instance.card == "strike":
			strike = instance.id
	check(client.last_refusal == null, "no refusal after a success")
	check(client.play(strike, "knight").is_empty(), "Strike at the Knight is refused")
	var refusal := client.last_refusal
	typed.check_typed(refusal, "the refusal")
	check_eq(refusal.code, "not_a_candidate", "its code")
	check_eq(refusal.where, "target", "the field it names")
	check_eq(refusal.reason_message["id"], "refusal.not_a_target", "its sentence")
	check_eq(refusal.said(), PyBridge.Sentences.said_error(client.last_error), "said")
	check(refusal.message.contains("knight"), "the developer's message names the unit")
	check(client.play("nowhere").is_empty(), "an unknown card")
	check_eq([client.last_refusal.code, client.last_refusal.reason], ["unknown_card", ""], "")
	check_eq(client.last_refusal.said(), client.last_refusal.message, "said: its message")
	_take_checks()


func test_a_refusal_that_asks_a_choice_carries_it_typed() -> void:
	var document := small_battle([card("peek", "None", Typed.PEEK)], ["orc"])
	document["piles"]["draw"] = [{"id": "d1", "card": "peek"}, {"id": "d2", "card": "peek"}]
	await typed.opened(document)
	typed.client.request("play", {"session": typed.client.session, "card": "h1"})
	var refusal := typed.client.last_refusal
	typed.check_typed(refusal, "choice_needed")
	check_eq(refusal.code, "choice_needed", "its code")
	check(refusal.choice is PyBridge.AskedChoice, "the choice, typed")
	check_eq(refusal.choice.options, PackedStringArray(["d1", "d2"]), "its options")
	_take_checks()


func test_the_cut_status_is_typed() -> void:
	await typed.opened(duel_battle())
	var client := typed.client
	var fields := {"session": client.session, "card": "c2"}  # the Barrage, no target
	check(not client.request("activate", fields).is_empty(), "on the Cut")
	var answer: Dictionary = client.request("cut", {"session": client.session})
	var status := PyBridge.CutStatus.from(answer)
	typed.check_typed(status, "the cut answer")
	check_eq(status.entries.size(), 1, "one entry")
	check_eq(status.entries[0].card.card, "barrage", "its card")
	check_eq([status.can_pass, status.can_end_turn], [true, false], "what may be done now")
	check_eq(status.end_turn_reason, str(answer["end_turn_reason"]), "why not")
	check_eq(status.said_prompt(), PyBridge.Sentences.say(answer["prompt_message"], ""), "")
	_take_checks()


func test_the_views_typed_twins_of_a_play_a_turn_and_a_refusal() -> void:
	var view := battle_view(web_client())
	view.step_seconds = 0.05
	var started: Array[PyBridge.BattleState] = []
	view.battle_started.connect(func(s: PyBridge.BattleState) -> void: started.append(s))
	var plays: Array[PyBridge.Outcome] = []
	view.card_play_answered.connect(
		func(_c: String, _t: String, o: PyBridge.Outcome) -> void: plays.append(o)
	)
	var raw_plays := []
	view.card_played.connect(
		func(_c: String, _t: String, r: Dictionary) -> void: raw_plays.append(r)
	)
	var turns: Array[PyBridge.Outcome] = []
	view.turn_end_answered.connect(func(o: PyBridge.Outcome) -> void: turns.append(o))
	var finished: Array[PyBridge.BattleState] = []
	view.turn_finished.connect(func(s: PyBridge.BattleState) -> void: finished.append(s))
	var refusals := []
	view.play_refused.connect(func(c: String, r: PyBridge.Refusal) -> void: refusals.append([c, r]))
	var words := []
	view.card_refused.connect(func(c: String, why: String) -> void: words.append([c, why]))
	check(await view.open_battle(demo_battle()), "the battle opens")
	check(started.size() == 1 and started[0] == view.battle_state, "battle_started: the state")
	var strike := ""
	for instance: PyBridge.Card in view.battle_state.side().hand:
		if instance.card == "strike":
			strike = instance.id
	check(not await view.play_card(strike, "knight"), "Strike at the Knight is refused")
	if check_eq(refusals.size(), 1, "play_refused"):
		check_eq(refusals[0][1].code, "not_a_candidate", "by its code")
		check_eq(words, [[strike, refusals[0][1].said()]], "card_refused: the same words")
	check(await view.play_card(strike, "goblin"), "Strike at the Goblin")
	if check_eq(plays.size(), 1, "card_play_answered"):
		typed.read_schema(view.schema)
		typed.check_typed(plays[0], "the play's outcome")
		typed.check_events(plays[0].events, raw_plays[0]["events"])
	await view.end_turn()
	check_eq(turns.size(), 1, "turn_end_answered")
	check(finished.size() == 1 and finished[0] == view.battle_state, "turn_finished: the state")
	check_eq(turns[0].state.turn if not turns.is_empty() else 0, 2, "the next turn's state")
	_take_checks()


func test_the_views_typed_twins_on_the_cut() -> void:
	var view := cut_battle_view(web_client())
	var activations: Array[PyBridge.Outcome] = []
	view.card_activation_answered.connect(
		func(_c: String, _t: PackedStringArray, o: PyBridge.Outcome) -> void: activations.append(o)
	)
	var statuses: Array[PyBridge.CutStatus] = []
	view.cut_status_changed.connect(func(s: PyBridge.CutStatus) -> void: statuses.append(s))
	var denied := []
	view.request_denied.connect(
		func(op: String, r: PyBridge.Refusal) -> void: denied.append([op, r])
	)
	var passes: Array[PyBridge.Outcome] = []
	view.pass_answered.connect(func(o: PyBridge.Outcome) -> void: passes.append(o))
	await view.open_battle(duel_battle())
	check(await view.play_card_at("c2", PackedStringArray()), "the Barrage is activated")
	check_eq(activations.size(), 1, "card_activation_answered")
	check(not statuses.is_empty() and statuses[-1].entries.size() == 1, "cut_status_changed")
	check(not await view.end_turn(), "no turn ends while effects wait")
	if check_eq(denied.size(), 1, "request_denied"):
		check_eq(denied[0][0], "end_turn", "for the end of the turn")
		check_eq(denied[0][1].reason, statuses[-1].end_turn_reason, "with the Cut's reason")
	await view.pass_priority()
	check(not passes.is_empty(), "pass_answered")
	check(passes.all(func(o: PyBridge.Outcome) -> bool: return o.state != null), "with states")
	_take_checks()
