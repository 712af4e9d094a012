extends "res://suite.gd"
## The playback hook: with a handler the game's own animation holds each step of a playback
## (an enemy move, a step of a Cut resolution, the events of a play) and the view goes on
## only once it has finished; a skip or the timeout lets the view go on without it.
##
## The handler here waits for [signal released], which only the test emits: every check
## waits for a state (the step's own pause is over, a step is shown, the play settled).

## Lets the held steps go.
signal released

const TurnPlayback := preload("res://addons/pybridge_targeting/battle/pybridge_turn_playback.gd")

## Every step the handler was given, in order.
var given: Array[Dictionary] = []
## Every step the view showed ([signal PyBridgeBattleView.playback_step_shown]).
var shown: Array[Dictionary] = []
## Every event the view told ([signal PyBridgeBattleView.playback_event_shown]).
var told: Array[Dictionary] = []
## The steps the handler held until released.
var held: Array[Dictionary] = []
## How many handler calls wait for [signal released] now.
var waiting: int = 0
## [code]func(step: Dictionary) -> bool[/code]: whether the handler holds [param step].
var holds: Callable


static func has_event(step: Dictionary, kind: String) -> bool:
	return step["events"].any(func(event: Dictionary) -> bool: return event["type"] == kind)


## A battle view on [param document] (the demo battle by default; with [param cut], the duel
## on a Cut view) whose playback handler is this suite's, holding the steps [param hold]
## picks.
func hooked(hold: Callable, cut: bool = false) -> PyBridgeBattleView:
	var view := cut_battle_view(web_client()) if cut else battle_view(web_client())
	view.step_seconds = 0.05
	view.cut_step_seconds = 0.05
	check(await view.open_battle(duel_battle() if cut else demo_battle()), "the battle opens")
	holds = hold
	view.playback_handler = _handle
	view.playback_step_shown.connect(func(step: Dictionary) -> void: shown.append(step))
	view.playback_event_shown.connect(
		func(event: Dictionary, step: Dictionary) -> void:
			check_eq(step, shown[-1], "an event comes with the step shown")
			told.append(event)
	)
	return view


## Waits until [param condition] holds (at most [param limit] frames, a guard against a
## hang); whether it held.
func until(condition: Callable, limit: int = 150) -> bool:
	for i in limit:
		if condition.call():
			return true
		await frames(1)
	return condition.call()


## Checks that [param view] stays on the step shown now while the handler holds it, then
## that it goes on once the handler is released. [param what] names the step. False when
## the handler never held a step (the test stops there).
func check_held_then_released(view: PyBridgeBattleView, what: String) -> bool:
	if not check(await until(view.is_awaiting_handler), what + ": its own pause is over"):
		return false
	if not check(not held.is_empty() and not shown.is_empty(), what + ": a step is held"):
		return false
	var at := shown.size()
	check_eq(shown[-1], given[-1], what + ": the handler was given the step shown")
	check_eq(held[-1], shown[-1], what + ": and holds it")
	for i in 12:  # frames in which the view would have gone on by its pause
		await frames(1)
		check_eq(shown.size(), at, what + ": no later step is shown while the handler runs")
	check(view.is_playing_back() and view.is_busy(), what + ": the view is still playing back")
	released.emit()
	check(await until(func() -> bool: return shown.size() > at or not view.is_busy()), what)
	return check(shown.size() > at or not view.is_busy(), what + ": the view went on once released")


## Releases every held step until [param done] holds.
func release_until(done: Callable) -> void:
	for i in 300:
		if done.call():
			return
		if waiting > 0:
			released.emit()
		await frames(1)
	check(done.call(), "the playback ended")


func test_each_enemy_move_waits_for_the_handler() -> void:
	var view := await hooked(
		func(step: Dictionary) -> bool:
			return step["op"] == "end_turn" and has_event(step, "enemy_acts")
	)
	var answers := []
	view.turn_ended.connect(func(result: Dictionary) -> void: answers.append(result))
	var settled := []
	view.turn_settled.connect(func(state: Dictionary) -> void: settled.append(state))
	view.end_turn()
	if not await check_held_then_released(view, "the first enemy move"):
		return
	check(settled.is_empty(), "the turn has not settled at the first move")
	await release_until(func() -> bool: return not settled.is_empty())
	if answers.is_empty():
		return
	var result: Dictionary = answers[0]
	var moves := TurnPlayback.steps_of(result).filter(
		func(step: Dictionary) -> bool: return has_event(step, "enemy_acts")
	)
	check(moves.size() >= 2, "the enemies moved (%d)" % moves.size())
	check_eq(held.size(), moves.size(), "every enemy move was held in turn")
	check_eq(given.size(), shown.size(), "the handler was given every step shown")
	check_eq(
		shown.map(func(step: Dictionary) -> Variant: return step["line"]),
		result["log"],
		"every line of the turn, in order"
	)
	check(shown.all(func(step: Dictionary) -> bool: return step["op"] == "end_turn"), "its op")
	check_eq(told, result["events"], "every event told once, in order")
	check_eq(view.state, result["state"], "the view settles on the new state")


func test_each_step_of_a_cut_resolution_waits_for_the_handler() -> void:
	var view := await hooked(
		func(step: Dictionary) -> bool: return step["op"] == "pass" and step["cut"], true
	)
	check(await view.play_card_at("c2", PackedStringArray()), "the Barrage is activated")
	check(given.any(func(s: Dictionary) -> bool: return s["op"] == "activate"), "activation too")
	check(await view.pass_priority(), "the enemies answer")
	var passes := []
	view.passed.connect(func(result: Dictionary) -> void: passes.append(result))
	view.pass_priority()  # the enemies' answer resolves
	if not await check_held_then_released(view, "the answer resolving"):
		return
	await release_until(func() -> bool: return not view.is_busy())
	given.clear()
	shown.clear()
	held.clear()
	view.pass_priority()  # the Barrage resolves
	if not await check_held_then_released(view, "the Barrage resolving"):
		return
	await release_until(func() -> bool: return not view.is_busy())
	if passes.size() < 2:
		return
	var result: Dictionary = passes[-1]
	var steps := TurnPlayback.steps_of(result)
	check_eq(shown.size(), steps.size(), "every step of the resolution was shown")
	check(shown.all(func(step: Dictionary) -> bool: return step["op"] == "pass"), "its op")
	check(held.size() >= 1 and held.all(func(s: Dictionary) -> bool: return s["cut"]), "held")
	check(has_event(held[0], "resolving"), "the entry resolving was held")
	check_eq(view.state, result["state"], "the view settles on the new state")


func test_the_events_of_a_play_wait_for_a_returned_signal() -> void:
	var view := await hooked(func(_step: Dictionary) -> bool: return false)
	# The Godot way: return a Signal (a tween's finished, say); the view awaits it.
	view.playback_handler = func(step: Dictionary) -> Variant:
		given.append(step)
		if step["op"] == "play" and has_event(step, "damage"):
			held.append(step)
			return released
		return null
	var before := view.state.duplicate(true)
	var played := []
	view.card_played.connect(
		func(_card: String, _target: String, result: Dictionary) -> void: played.append(result)
	)
	view.play_card("h1", "orc")  # Strike
	check(await until(view.is_awaiting_handler), "the hit holds the play")
	check_eq(view.state, before, "the view's state is the old one while the hit plays")
	if not await check_held_then_released(view, "Strike's hit"):
		return
	await release_until(func() -> bool: return not played.is_empty() and not view.is_busy())
	if played.is_empty():
		return
	var result: Dictionary = played[0]
	check(shown.all(func(step: Dictionary) -> bool: return step["op"] == "play"), "its op")
	check_eq(told, result["events"], "every event of the play told once, in order")
	check_eq(given.size(), TurnPlayback.steps_of(result).size(), "every step given")
	check_eq(view.state, result["state"], "the view shows the play's state after the hit")


func test_a_held_play_shows_its_old_state_until_released() -> void:
	var view := await hooked(
		func(step: Dictionary) -> bool: return step["op"] == "play" and has_event(step, "damage")
	)
	var before := view.state.duplicate(true)
	var played := []
	view.card_played.connect(
		func(_card: String, _target: String, result: Dictionary) -> void: played.append(result)
	)
	view.play_card("h1", "orc")
	if not check(await until(view.is_awaiting_handler) and not held.is_empty(), "the hit holds"):
		return
	check_eq(view.state, before, "the state is the old one while the hit plays")
	check(played.is_empty(), "card_played waits for the hit")
	var hits: Array = held[-1]["events"].filter(
		func(event: Dictionary) -> bool: return event["type"] == "damage"
	)
	var hit: Dictionary = hits[0]
	var orc: Control = view.unit_views[str(hit["unit"])]
	check_eq(
		int(orc.get("unit").get("hp")), int(hit["hp_after"]), "the hit unit shows the step's HP"
	)
	await release_until(func() -> bool: return not played.is_empty() and not view.is_busy())
	if check(not played.is_empty(), "the play settles once released"):
		check_eq(view.state, played[0]["state"], "then the play's state")


func test_a_skip_or_the_timeout_lets_the_view_go_on() -> void:
	var view := await hooked(func(_step: Dictionary) -> bool: return true)
	view.playback_handler_timeout = 0.3
	# A handler that never finishes: the timeout ends each wait, with a warning.
	check(await view.play_card("h1", "orc"), "the play settles")
	check(waiting >= 1, "while the handler still waits")
	check(not view.is_busy(), "and the view takes input again")
	# A skip ends the wait at once, and the rest of the turn is shown without the handler.
	view.playback_handler_timeout = 60.0
	var calls := given.size()
	var settled := []
	view.turn_settled.connect(func(state: Dictionary) -> void: settled.append(state))
	view.end_turn()
	if not check(await until(view.is_awaiting_handler), "the first step waits for the handler"):
		view.skip_playback()
		return
	view.skip_playback()
	check(await until(func() -> bool: return not settled.is_empty()), "a skip settles the turn")
	check_eq(given.size(), calls + 1, "no later step was given to the handler")
	released.emit()


func _handle(step: Dictionary) -> void:
	given.append(step)
	if holds.is_valid() and holds.call(step):
		held.append(step)
		waiting += 1
		await released
		waiting -= 1
