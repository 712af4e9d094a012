@tool
extends RefCounted
## Plays a turn's events (or an entry resolving on the Cut, or with a
## [member PyBridgeBattleView.step_handler] a play's) back step by step on a
## [PyBridgeBattleView]: one step per line of the runtime's log, each showing what its events
## did to the units, an acting enemy lunging at its target, then a pause. [method skip] shows
## the rest at once.
##
## Nothing is computed here: a step's units take what its events say they look like after
## them ([code]unit_after[/code]), and each log line names the event it tells
## ([code]event[/code]). The view settles on the response's final state afterwards.
##
## With a playback handler, each step waits for it too: the view goes on when the handler
## has finished and the step's own pause is over (a play's steps have none), or after
## [member PyBridgeBattleView.playback_handler_timeout] with a warning.

## A step is shown (the view emits it as its own, as every signal of its parts).
signal playback_step_shown(step: Dictionary)
## A step is shown, typed.
signal step_shown(step: PyBridge.Step)
## An event of a step is shown.
signal playback_event_shown(event: Dictionary, step: Dictionary)
## An event of a step is shown, typed by the runtime's schema.
signal event_shown(event: PyBridge.Event, step: PyBridge.Step)

## Seconds a step that changes something stays on screen.
var step_seconds: float = 0.45
## Seconds a step that only tells something (a turn starts, cards are drawn) stays.
var quiet_seconds: float = 0.18
## Seconds a step that shows something of the Cut (an entry resolving, the range it
## collects again, a lost target) stays.
var cut_seconds: float = 0.9
## The steps: [code][{"line", "events"}][/code].
var steps: Array[Dictionary] = []
## The index of the step shown now (-1 before the first).
var current: int = -1
## Whether [method skip] was called.
var skipped: bool = false
## The request [member steps] answer ([code]end_turn[/code], [code]pass[/code],
## [code]play[/code], [code]activate[/code]; [code]""[/code]: not said).
var op: String = ""
## Whether the step shown now waits only for the playback handler (its own pause is over).
var awaiting_handler: bool = false

var _view: PyBridgeBattleView = null
# A play never paused before it had a handler: its steps wait for the handler alone.
var _paced: bool = true
# Event type -> its fields' types, from the view's schema (the typed events' conversion).
var _types: Dictionary = {}


func _init(view: PyBridgeBattleView, result: Dictionary, answered: String = "") -> void:
	_view = view
	_types = PyBridge.Event.types_by_event(view.schema)
	steps = steps_of(result)
	op = answered
	_paced = not op in ["play", "activate"]
	step_seconds = view.step_seconds
	quiet_seconds = view.step_seconds * 0.4
	cut_seconds = view.cut_step_seconds
	skipped = not view.play_back_turns


## The steps of [param result] (an [code]end_turn[/code] or [code]play[/code] answer): each
## log line with the events from the one it tells up to the next line's. Events before the
## first line go with the first; without a log, one step holds every event.
static func steps_of(result: Dictionary) -> Array[Dictionary]:
	var events: Array = result.get("events", [])
	var lines: Array = result.get("log", [])
	var found: Array[Dictionary] = []
	for i in lines.size():
		var line: Dictionary = lines[i]
		var start := 0 if i == 0 else int(line.get("event", 0))
		var stop := events.size()
		if i + 1 < lines.size():
			stop = clampi(int(lines[i + 1].get("event", stop)), start, events.size())
		found.append({"line": line, "events": events.slice(start, stop)})
	if found.is_empty() and not events.is_empty():
		found.append({"line": {}, "events": events})
	return found


## Shows what [param events] report on [param units] (unit id -> a unit of the state,
## changed in place): each event that changed a unit carries the unit as it is after it
## ([code]unit_after[/code]). Returns the ids of the units that changed.
static func apply(units: Dictionary, events: Array) -> PackedStringArray:
	var changed := PackedStringArray()
	for event: Dictionary in events:
		var id := str(event.get("unit", ""))
		var after: Variant = event.get("unit_after")
		if not units.has(id) or not after is Dictionary:
			continue
		var unit: Dictionary = units[id]
		for key: String in after:
			if key == "intent" and _same_intent(unit.get("intent"), after[key]):
				continue  # the drawn intent keeps the forecast the state gave it
			unit[key] = after[key]
		if not id in changed:
			changed.append(id)
	return changed


## The enemy acting in [param events] and its target: [code][unit, target][/code], or empty.
static func actor_of(events: Array) -> Array:
	for event: Dictionary in events:
		if str(event.get("type", "")) == "enemy_acts":
			return [str(event.get("unit", "")), str(event.get("target", ""))]
	return []


## Plays every step with nothing lit and the hand dimmed (a coroutine); returns when the
## last step was shown or after a skip.
func play() -> void:
	_view.display.set_lit("", PackedStringArray())
	_view.display.refresh_tooltip()
	_view.hand_area.modulate.a = 0.4
	await run()
	_view.hand_area.modulate.a = 1.0


## Plays every step (a coroutine); returns when the last one was shown or after a skip.
func run() -> void:
	var units := {}
	for unit: Dictionary in _view.state.get("units", []):
		units[str(unit.get("id"))] = unit.duplicate(true)
	for i in steps.size():
		current = i
		var step := steps[i]
		var changed := apply(units, step["events"])
		for id in changed:
			_view.show_unit_data(units[id])
		var marked := _view.show_step(step["line"], step["events"]) if _paced else false
		var shown := {
			"op": op,
			"index": i,
			"count": steps.size(),
			"line": step["line"],
			"events": step["events"],
			"cut": marked,
		}
		var typed := PyBridge.Step.from(shown, _types)
		playback_step_shown.emit(shown)
		step_shown.emit(typed)
		for e in typed.events.size():
			playback_event_shown.emit(step["events"][e], shown)
			event_shown.emit(typed.events[e], typed)
		if skipped:
			continue
		var actor := actor_of(step["events"])
		if not actor.is_empty():
			_view.lunge(actor[0], actor[1])
		var telling := not changed.is_empty() or not actor.is_empty()
		var seconds := cut_seconds if marked else (step_seconds if telling else quiet_seconds)
		await _hold(shown, typed, seconds if _paced else 0.0)


## Shows the remaining steps at once.
func skip() -> void:
	skipped = true


func _hold(step: Dictionary, typed: PyBridge.Step, seconds: float) -> void:
	# Wall-clock time: a frame's delta is smoothed and says less than a slow frame took.
	var now := Time.get_ticks_msec()
	var until := now + int(seconds * 1000.0)
	var running: HandlerCall = null
	if _view.step_handler.is_valid():  # the typed hook wins over the Dictionary one
		running = HandlerCall.new()
		running.start(_view.step_handler, typed)
	elif _view.playback_handler.is_valid():
		running = HandlerCall.new()
		running.start(_view.playback_handler, step)
	var limit := now + int(_view.playback_handler_timeout * 1000.0)
	while not skipped and _view.is_inside_tree():
		now = Time.get_ticks_msec()
		var handled := running == null or running.finished
		if handled and now >= until:
			break
		if not handled and now >= limit:
			var told := "step %d of %d" % [int(step["index"]) + 1, int(step["count"])]
			var limit_text := "%.1f s (playback_handler_timeout)" % _view.playback_handler_timeout
			push_warning(
				(
					"PyBridgeBattleView: the playback handler did not finish %s of %s within %s"
					% [told, op, limit_text]
				)
			)
			break
		awaiting_handler = not handled and now >= until
		await _view.get_tree().process_frame
	awaiting_handler = false


static func _same_intent(drawn: Variant, after: Variant) -> bool:
	if not drawn is Dictionary or not after is Dictionary:
		return false
	return drawn.get("move") == after.get("move") and drawn.get("target") == after.get("target")


## One call of the playback handler, awaited on its own so that the playback can stop
## waiting for it (a skip, the timeout) while it runs on.
class HandlerCall:
	extends RefCounted
	## Whether the handler returned, or what it returned (a coroutine, a signal) finished.
	var finished: bool = false
	var _kept: HandlerCall = null

	## Calls [param handler] with [param step] (a [PyBridge.Step], or a deprecated handler's
	## Dictionary) and awaits what it returns.
	func start(handler: Callable, step: Variant) -> void:
		# Alive while the handler runs, even once nobody waits for it.
		_kept = self
		await handler.call(step)
		finished = true
		_kept = null
