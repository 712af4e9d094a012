extends "res://suite.gd"
## The battle view's typed twins of its Dictionary signals: each fires with the typed form of
## what its twin carries (PyBridge.Outcome, PyBridge.BattleState, PyBridge.CutStatus,
## PyBridge.Refusal), every field of their shapes typed (test_typed.gd's check).

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
