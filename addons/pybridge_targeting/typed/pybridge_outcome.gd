@tool
extends RefCounted
## What the runtime answered a request that changed the battle (a play, an activation, the end
## of a turn, a pass, a resolution, or the opening): the events in order, typed by the
## runtime's [code]schema[/code], the log lines that tell them, and the state after it. The
## battle view's [signal PyBridgeBattleView.card_play_answered],
## [signal PyBridgeBattleView.turn_end_answered] and the other [code]*_answered[/code] signals
## hand one out.

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["outcome"]
## The class of each property that holds one typed object, for the reader
## ([code]transport/pybridge_shapes.gd[/code]): Godot's property list names only [RefCounted]
## for a class without a global name.
const CLASSES := {
	"state": preload("res://addons/pybridge_targeting/typed/pybridge_battle_state.gd"),
}
## Fields of that shape held under another name ([code]log[/code] is a function's name).
const RENAMED := {"log": "log_lines"}
const Shapes := preload("res://addons/pybridge_targeting/transport/pybridge_shapes.gd")

## What happened, in order, each typed by the runtime's [code]schema[/code].
var events: Array[PyBridge.Event] = []
## The battle log's lines that tell those events, in order.
var log_lines: Array[PyBridge.LogLine] = []
## The battle state after it.
var state: PyBridge.BattleState = null
## The new session ([code]open[/code] only; [code]""[/code] otherwise).
var session: String = ""


## The answer [param data] typed; [param types] is [method PyBridge.Event.types_by_event] of
## the runtime's schema (without it, events keep their JSON, whole numbers as ints).
static func from(data: Dictionary, types: Dictionary = {}) -> PyBridge.Outcome:
	var outcome := PyBridge.Outcome.new()
	var rest := data.duplicate()
	rest.erase("events")
	rest.erase("log")
	Shapes.fill(outcome, rest)
	for event: Variant in data.get("events", []):
		if event is Dictionary:
			var own: Dictionary = types.get(str(event.get("type", "")), {})
			outcome.events.append(PyBridge.Event.from(event, own))
	outcome.log_lines = PyBridge.LogLine.list_from(data.get("log", []))
	return outcome


## Its events of the type [param type] (a type the runtime's [code]schema[/code] names; the
## addon itself never asks for one).
func events_of_type(type: String) -> Array[PyBridge.Event]:
	var found: Array[PyBridge.Event] = []
	for event: PyBridge.Event in events:
		if event.type == type:
			found.append(event)
	return found
