@tool
extends RefCounted
## One event the runtime reported (a card played, damage, a unit fell, a game's own event):
## its [member type] and its own fields in [member params], each converted to the type the
## runtime's [code]schema[/code] gives that field of that event type ([code]events[/code],
## [code]field_types[/code]). So an event type a game's extension declares arrives typed with
## no GDScript of its own. What each event type means is the runtime's: the addon never
## branches on it.

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["event"]
## The class of each property that holds one typed object, for the reader
## ([code]transport/pybridge_shapes.gd[/code]): Godot's property list names only [RefCounted]
## for a class without a global name.
const CLASSES := {
	"unit_after": preload("res://addons/pybridge_targeting/typed/pybridge_unit.gd"),
}
## Its properties that are no field of those shapes, with what they hold.
const OWN := {"params": "the event type's own fields, typed by schema's field_types"}
const Shapes := preload("res://addons/pybridge_targeting/transport/pybridge_shapes.gd")

## The event type ([code]schema[/code]'s [code]events[/code] list them).
var type: String = ""
## Its own fields, by name, each converted to its type in [code]schema[/code]: an
## [code]int[/code] field holds an [int], a [code]list<string>[/code] a [PackedStringArray], a
## nullable field null when the runtime gave none; a field of a type the schema does not give
## keeps its JSON, with whole numbers as ints.
var params: Dictionary = {}
## What its unit looks like after it, when it changed one (null otherwise): only
## [member PyBridge.Unit.id] and the fields the runtime tells after an event are set.
var unit_after: PyBridge.Unit = null


## The event [param data] typed by [param field_types], its type's fields -> their types (see
## [method types_by_event]).
static func from(data: Dictionary, field_types: Dictionary = {}) -> PyBridge.Event:
	var event := PyBridge.Event.new()
	event.type = str(data.get("type", ""))
	for key: Variant in data:
		if key == "type":
			continue
		if key == "unit_after" and data[key] is Dictionary:
			event.unit_after = PyBridge.Unit.from(data[key])
			event.unit_after.id = str(data.get("unit", ""))
			continue
		event.params[key] = Shapes.typed_value(data[key], str(field_types.get(key, "any")))
	return event


## The events [param events] (as a request's answer lists them) typed by the runtime's
## [param schema] answer.
static func list_from(events: Array, schema: Dictionary) -> Array[PyBridge.Event]:
	var types := types_by_event(schema)
	var typed: Array[PyBridge.Event] = []
	for data: Variant in events:
		if data is Dictionary:
			typed.append(from(data, types.get(str(data.get("type", "")), {})))
	return typed


## Event type -> its fields' types, from the runtime's [param schema] answer.
static func types_by_event(schema: Dictionary) -> Dictionary:
	var types := {}
	for spec: Variant in schema.get("events", []):
		if spec is Dictionary:
			types[str(spec.get("type", ""))] = spec.get("field_types", {})
	return types


## Whether it has the field [param field] (a null field counts as none).
func has(field: String) -> bool:
	return params.get(field) != null


## The [int] field [param field] ([param default] when it has none).
func get_int(field: String, default: int = 0) -> int:
	var value: Variant = params.get(field)
	return value if value is int else default


## The [String] field [param field] ([param default] when it has none).
func get_text(field: String, default: String = "") -> String:
	var value: Variant = params.get(field)
	return value if value is String else default


## The [bool] field [param field] ([param default] when it has none).
func get_flag(field: String, default: bool = false) -> bool:
	var value: Variant = params.get(field)
	return value if value is bool else default


## The list of ids [param field] (empty when it has none).
func get_ids(field: String) -> PackedStringArray:
	var value: Variant = params.get(field)
	return value if value is PackedStringArray else PackedStringArray()
