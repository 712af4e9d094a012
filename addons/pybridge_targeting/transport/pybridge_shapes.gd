@tool
extends RefCounted
## Reads the runtime's JSON into the addon's typed objects ([PyBridge.BattleState],
## [PyBridge.Unit], [PyBridge.Event]...). No state: static only.
##
## A typed object's properties are named as the fields of the runtime's shape it mirrors
## ([code]schema[/code]'s [code]shapes[/code]; its [code]SHAPES[/code] constant names them),
## and each value is converted to the property's declared type: whole numbers to [int], lists
## of ids to [PackedStringArray], an object of a shape to its class, a list of them to a typed
## [Array]. A typed object's class is read from the typed array that holds it, or, for a
## property holding one, from the class's [code]CLASSES[/code] constant (Godot's property list
## names only [RefCounted] for a class without a global name). A value that is null or left
## out keeps the property's default. An event's own fields are converted by the types the
## schema gives them ([method typed_value]).

const Wire := preload("res://addons/pybridge_targeting/transport/pybridge_wire.gd")


## Fills the script properties of [param object] from [param data], each converted to its
## declared type. The fields of a shape the class inlines (its [code]INLINE[/code] constant,
## e.g. a side's [code]piles[/code]) fill its properties too; keys of no property are left.
static func fill(object: Object, data: Dictionary) -> void:
	var constants: Dictionary = object.get_script().get_script_constant_map()
	var inline: Array = constants.get("INLINE", [])
	var properties := {}
	for property: Dictionary in object.get_property_list():
		if property["usage"] & PROPERTY_USAGE_SCRIPT_VARIABLE:
			properties[property["name"]] = property
	for key: Variant in data:
		if key in inline and data[key] is Dictionary:
			fill(object, data[key])
		elif properties.has(key) and data[key] != null:
			_set_typed(object, properties[key], data[key])


## [param value] (as the runtime sent it) converted to the schema type [param type_text]
## ([code]int[/code], [code]list<string>[/code], [code]string?[/code]...: docs/protocol.md):
## null stays null; an [code]object[/code], [code]any[/code], a shape or a type this addon
## does not know yet keeps its JSON, whole numbers as ints.
static func typed_value(value: Variant, type_text: String) -> Variant:
	var kind := type_text.trim_suffix("?")
	if value == null:
		return null
	match kind:
		"int":
			return int(value) if value is float or value is int else value
		"float":
			return float(value) if value is float or value is int else value
		"bool", "string":
			return value
	if kind.begins_with("list<") and value is Array:
		var inner := kind.substr(5, kind.length() - 6)
		if inner == "string":
			return PackedStringArray(value)
		var items := []
		for item: Variant in value:
			items.append(typed_value(item, inner))
		return items
	if kind.begins_with("map<") and value is Dictionary:
		var inner := kind.substr(4, kind.length() - 5)
		var entries := {}
		for key: Variant in value:
			entries[key] = typed_value(value[key], inner)
		return entries
	return Wire.integral(value)


## A typed object of the class [param script] filled from [param data].
static func build(script: Script, data: Dictionary) -> Object:
	if script == null:
		return null
	var object: Object = script.new()
	fill(object, data)
	return object


static func _set_typed(object: Object, property: Dictionary, value: Variant) -> void:
	var name: String = property["name"]
	match property["type"]:
		TYPE_INT:
			if value is float or value is int:
				object.set(name, int(value))
		TYPE_FLOAT:
			if value is float or value is int:
				object.set(name, float(value))
		TYPE_BOOL:
			if value is bool:
				object.set(name, value)
		TYPE_STRING:
			object.set(name, str(value))
		TYPE_PACKED_STRING_ARRAY:
			if value is Array:
				object.set(name, PackedStringArray(value))
		TYPE_OBJECT:
			if value is Dictionary:
				var classes: Dictionary = object.get_script().get_script_constant_map().get(
					"CLASSES", {}
				)
				object.set(name, build(classes.get(name), value))
		TYPE_ARRAY:
			if value is Array:
				_fill_array(object.get(name), property, value)
		TYPE_DICTIONARY:
			if value is Dictionary:
				_fill_dictionary(object.get(name), property, value)


static func _fill_array(target: Array, property: Dictionary, items: Array) -> void:
	var of := String(property["hint_string"])
	var script := target.get_typed_script() as Script
	for item: Variant in items:
		if of == "Dictionary" and item is Dictionary:
			target.append(Wire.integral(item))
		elif of == "int" and (item is float or item is int):
			target.append(int(item))
		elif of == "String":
			target.append(str(item))
		elif item is Dictionary and script != null:
			target.append(build(script, item))
		else:
			target.append(Wire.integral(item))


static func _fill_dictionary(target: Dictionary, property: Dictionary, entries: Dictionary) -> void:
	var value_type := String(property["hint_string"]).get_slice(";", 1)
	for key: Variant in entries:
		var value: Variant = entries[key]
		if value_type == "int" and (value is float or value is int):
			target[str(key)] = int(value)
		else:
			target[key] = Wire.integral(value)
