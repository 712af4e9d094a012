@tool
extends Resource
## What every document Resource of the addon shares: a part of a runtime JSON document
## (a battle, a card library, a card, a unit, a Behavior and its nodes) held as typed
## properties, converted to and from the document's Dictionary without loss. The Resources
## hold data only: whether a document is valid is the runtime's [code]lint[/code] to say.
##
## A subclass lists its typed keys in [method _keys] (the property has the key's name and the
## format's default as its default value). On import a key the document gives goes to its
## property when the value has the property's type, and otherwise, like every key the
## subclass does not list, to [member extra] exactly as given; so an unknown or malformed key
## reaches the runtime, which names it. On export a property is written when it differs from
## its default or the document gave it, then [member extra]. JSON numbers arrive as floats:
## integral ones become ints, so a round trip gives the same JSON back.
##
## Internal: the document Resources extend it by its path; the Inspector never offers it
## as a type of its own.

const DocumentResource := preload(
	"res://addons/pybridge_targeting/resources/pybridge_document_resource.gd"
)

static var _defaults: Dictionary = {}

## The document's keys this Resource has no property for, exactly as given (a key here wins
## over a property of the same name).
@export var extra: Dictionary = {}
## The keys the document gave whose value was the default: written back although they could
## be left out, so a round trip gives the document as it was.
@export_storage var given: PackedStringArray = PackedStringArray()


## This Resource read from [param document]; a value that is not a Dictionary gives an empty
## one.
func read(document: Variant) -> DocumentResource:
	if not document is Dictionary:
		return self
	var keys := _keys()
	var rest := _rest_name()
	var kept: Dictionary = get(rest)
	for key: Variant in document:
		var value: Variant = PyBridgeClient.integral(document[key])
		var name := str(key)
		if key is String and name in keys and _take(name, value, keys[name]):
			if get(name) == _default(name) and not name in given:
				given.append(name)
		else:
			kept[key] = value
	set(rest, kept)
	return self


## The document this Resource holds, as the runtime reads it.
func write() -> Dictionary:
	var out := {}
	var keys := _keys()
	for name: String in keys:
		var value: Variant = get(name)
		if name in given or not _same(value, _default(name)):
			out[name] = _export(value)
	var rest: Dictionary = get(_rest_name())
	for key: Variant in rest:
		out[key] = PyBridgeClient.integral(rest[key])
	return out


## The document as JSON text (numbers written at full precision).
func to_json(indent: String = "") -> String:
	return JSON.stringify(write(), indent, false, true)


## The typed keys: key (the property's name) -> the Resource script of its values for a
## Resource or an array of them, else null.
func _keys() -> Dictionary:
	return {}


## The property holding the keys without a property of their own.
func _rest_name() -> String:
	return "extra"


func _default(name: String) -> Variant:
	# A fresh instance's value: exported games have no script default values to ask for.
	var script := get_script() as Script
	if not _defaults.has(script):
		_defaults[script] = script.new()
	return (_defaults[script] as Object).get(name)


func _take(name: String, value: Variant, script: Variant) -> bool:
	var current: Variant = get(name)
	if not _fits(current, value, script):
		return false
	if current is Array:
		var items: Array = current.duplicate()
		items.clear()
		for item: Variant in value:
			items.append(script.new().read(item) if script is Script else item)
		set(name, items)
	elif script is Script:
		set(name, script.new().read(value))
	elif current is PackedStringArray:
		set(name, PackedStringArray(value))
	else:
		set(name, value)
	return true


## Whether [param value] (from JSON) has the type of the property now holding [param current].
static func _fits(current: Variant, value: Variant, script: Variant) -> bool:
	if script is Script and not current is Array:
		return value is Dictionary
	match typeof(current):
		TYPE_PACKED_STRING_ARRAY:
			return value is Array and value.all(func(v: Variant) -> bool: return v is String)
		TYPE_ARRAY:
			return value is Array and value.all(func(v: Variant) -> bool: return v is Dictionary)
		TYPE_INT, TYPE_STRING, TYPE_BOOL, TYPE_DICTIONARY:
			return typeof(value) == typeof(current)
	return false


func _same(value: Variant, default: Variant) -> bool:
	if value is DocumentResource or default is DocumentResource:
		return value == default
	return typeof(value) == typeof(default) and value == default


func _export(value: Variant) -> Variant:
	if value is DocumentResource:
		return value.write()
	if value is PackedStringArray:
		return Array(value)
	if value is Array:
		return value.map(_export)
	if value is Dictionary:
		return PyBridgeClient.integral(value)
	return value
