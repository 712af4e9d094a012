@tool
extends RefCounted
## The client's typed answers: the runtime's results read into the addon's typed objects
## ([PyBridge.BattleState], [PyBridge.Targets], [PyBridge.CutStatus], [PyBridge.CutEntry],
## [PyBridge.Outcome], [PyBridge.Event]), and the
## runtime's [code]schema[/code] kept from its first answer, which types each event's fields.
## The client's [code]battle_state[/code], [code]typed_targets[/code],
## [code]cut_entries[/code], [code]events_of[/code] and their [code]ask_[/code] forms use it.

## The operations whose answer is a change of the battle: [code]{"events", "log", "state"}[/code].
const INTENTS := ["play", "end_turn", "pass", "activate", "respond", "resolve"]

## The runtime's last [code]schema[/code] answer (empty until one came; over WebSocket the
## server shares none, and events keep their JSON, whole numbers as ints).
var schema: Dictionary = {}

var _types: Dictionary = {}


## Keeps [param result] when it answers [code]schema[/code] ([param op]); connected to the
## client's [code]request_succeeded[/code], so any schema answer is kept.
func note(op: String, result: Dictionary) -> void:
	if op == "schema" and not result.is_empty():
		schema = result
		_types = PyBridge.Event.types_by_event(result)


## Whether a [code]schema[/code] answer was kept.
func has_schema() -> bool:
	return not schema.is_empty()


## The battle state of [param result] (an [code]open[/code], [code]state[/code],
## [code]view[/code] or intent answer, or a state itself), typed; null when it has none.
static func state_of(result: Dictionary) -> PyBridge.BattleState:
	for key: String in ["state", "view"]:
		if result.get(key) is Dictionary:
			return PyBridge.BattleState.from(result[key])
	return PyBridge.BattleState.from(result) if result.has("units") else null


## The [code]targets[/code] answer [param result] typed; null when the request failed.
static func targets_of(result: Dictionary) -> PyBridge.Targets:
	return PyBridge.Targets.from(result) if not result.is_empty() else null


## The entries of the [code]cut[/code] answer [param result], bottom first, typed.
static func cut_entries_of(result: Dictionary) -> Array[PyBridge.CutEntry]:
	var entries: Array[PyBridge.CutEntry] = []
	for data: Variant in result.get("cut", []):
		if data is Dictionary:
			entries.append(PyBridge.CutEntry.from(data))
	return entries


## The events of [param result] (an intent's answer), typed by the kept [member schema].
func events_of(result: Dictionary) -> Array[PyBridge.Event]:
	var typed: Array[PyBridge.Event] = []
	for data: Variant in result.get("events", []):
		if data is Dictionary:
			typed.append(PyBridge.Event.from(data, _types.get(str(data.get("type", "")), {})))
	return typed


## The answer [param result] to an intent ([constant INTENTS]) typed: its events (typed by
## the kept [member schema]), log lines and state.
func outcome_of(result: Dictionary) -> PyBridge.Outcome:
	return PyBridge.Outcome.from(result, _types)


## The typed form of [param result], the answer to [param op]: a [PyBridge.BattleState] for
## [code]open[/code], [code]state[/code] and [code]view[/code]; a [PyBridge.Targets] for
## [code]targets[/code]; a [PyBridge.CutStatus] for [code]cut[/code]; a [PyBridge.Outcome]
## for an intent ([constant INTENTS]); else [param result] as it is. Null for a failed
## request.
func answer_of(op: String, result: Dictionary) -> Variant:
	if result.is_empty():
		return null
	if op in ["open", "state", "view"]:
		return state_of(result)
	if op == "targets":
		return targets_of(result)
	if op == "cut":
		return PyBridge.CutStatus.from(result)
	if op in INTENTS:
		return outcome_of(result)
	return result
