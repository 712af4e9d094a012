@tool
extends RefCounted
## A step of a playback as the battle view shows it: a line of the runtime's log and the
## events it tells (an enemy's move, a hit, an entry resolving on the Cut). The view's
## [member PyBridgeBattleView.step_handler] and its [signal PyBridgeBattleView.step_shown] are
## given one; what each event means is the runtime's.

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["step"]
## The class of each property that holds one typed object, for the reader
## ([code]transport/pybridge_shapes.gd[/code]): Godot's property list names only [RefCounted]
## for a class without a global name.
const CLASSES := {
	"line": preload("res://addons/pybridge_targeting/typed/pybridge_log_line.gd"),
}

## The request it answers: [code]end_turn[/code] (the enemy turn), [code]pass[/code] (a Cut
## resolution), [code]play[/code] or [code]activate[/code] (a play).
var op: String = ""
## Its place in the playback, from 0.
var index: int = 0
## How many steps the playback has.
var count: int = 0
## Its line of the runtime's log (null for events the log tells no line of);
## [method sentence] says it.
var line: PyBridge.LogLine = null
## The events it tells, typed by the runtime's [code]schema[/code].
var events: Array[PyBridge.Event] = []
## Whether it shows something of the Cut (an entry resolving, a lost target).
var cut: bool = false


## The step [param data] ([code]op[/code], [code]index[/code], [code]count[/code],
## [code]line[/code], [code]events[/code], [code]cut[/code]: what the playback hook was given
## as a Dictionary) typed; [param types] is [method PyBridge.Event.types_by_event] of the
## runtime's schema.
static func from(data: Dictionary, types: Dictionary = {}) -> PyBridge.Step:
	var step := PyBridge.Step.new()
	step.op = str(data.get("op", ""))
	step.index = int(data.get("index", 0))
	step.count = int(data.get("count", 0))
	var line_data: Variant = data.get("line")
	if line_data is Dictionary and not line_data.is_empty():
		step.line = PyBridge.LogLine.from(line_data)
	for event: Variant in data.get("events", []):
		if event is Dictionary:
			step.events.append(PyBridge.Event.from(event, types.get(str(event.get("type")), {})))
	step.cut = bool(data.get("cut", false))
	return step


## Its line as a sentence in the current locale, its English where there is no translation
## ([code]""[/code] when it has none).
func sentence() -> String:
	return line.sentence() if line != null else ""


## Its events of the type [param type] (a type the runtime's [code]schema[/code] names; the
## addon itself never asks for one).
func events_of_type(type: String) -> Array[PyBridge.Event]:
	var found: Array[PyBridge.Event] = []
	for event: PyBridge.Event in events:
		if event.type == type:
			found.append(event)
	return found
