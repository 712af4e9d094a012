@tool
extends VBoxContainer
## Edits a Filter's [code]where[/code]: one row per condition (a filter key and its value),
## and a menu to add one. The keys come from the runtime's schema ([code]filters[/code]) for
## the kind of elements the Filter is fed; a key it does not know stays shown, so it can be
## fixed or removed. A key whose values are drawn from a word list (its [code]suggests[/code])
## suggests the words in use while its value is typed (the Workshop's completer).

const FieldEditor := preload("res://addons/pybridge_targeting/workshop/pybridge_field_editor.gd")
## The label of the add menu.
const ADD_LABEL := "+ condition"

var _keys: Array = []
var _changed: Callable
var _conditions: Dictionary = {}
var _add: MenuButton = null


func _init(value: Variant, keys: Array, changed: Callable) -> void:
	_keys = keys
	_changed = changed
	_conditions = value.duplicate(true) if value is Dictionary else {}
	add_theme_constant_override("separation", 2)
	_rebuild()


## The key spec of [param key_name] from the schema, or a bare one for an unknown key.
func key_spec(key_name: String) -> Dictionary:
	for key: Variant in _keys:
		if str(key.get("name")) == key_name:
			return key
	return {"name": key_name, "type": "", "doc": "not a filter key the runtime knows here"}


func _rebuild() -> void:
	for child in get_children():
		remove_child(child)
		child.queue_free()
	for key_name: Variant in _conditions:
		var row := HBoxContainer.new()
		var name_label := Label.new()
		name_label.text = str(key_name)
		name_label.tooltip_text = str(key_spec(str(key_name)).get("doc", ""))
		name_label.mouse_filter = Control.MOUSE_FILTER_PASS
		row.add_child(name_label)
		var spec := key_spec(str(key_name))
		spec["required"] = true
		var on_value := func(value: Variant) -> void: _set_condition(str(key_name), value)
		var editor := FieldEditor.make(spec, _conditions[key_name], on_value)
		editor.set_meta("field", "where.%s" % key_name)
		row.add_child(editor)
		var remove := Button.new()
		remove.text = "×"
		remove.flat = true
		remove.tooltip_text = "Remove this condition"
		remove.pressed.connect(_remove_condition.bind(str(key_name)))
		row.add_child(remove)
		add_child(row)
	_add = MenuButton.new()
	_add.text = ADD_LABEL
	_add.flat = false
	_add.set_meta("field", "where.+")
	var popup := _add.get_popup()
	for key: Variant in _keys:
		popup.add_item(str(key.get("name")))
		popup.set_item_tooltip(popup.item_count - 1, str(key.get("doc", "")))
	popup.index_pressed.connect(_add_condition)
	add_child(_add)


func _set_condition(key_name: String, value: Variant) -> void:
	_conditions[key_name] = value
	_changed.call(_conditions.duplicate(true))


func _add_condition(index: int) -> void:
	var key: Dictionary = _keys[index]
	var key_name := str(key.get("name"))
	if _conditions.has(key_name):
		return
	var choices: Array = key.get("choices", [])
	match str(key.get("type", "")):
		"choice":
			_conditions[key_name] = choices[0] if not choices.is_empty() else ""
		"integer":
			_conditions[key_name] = 0
		"boolean":
			_conditions[key_name] = true
		_:
			_conditions[key_name] = ""
	_changed.call(_conditions.duplicate(true))
	_rebuild.call_deferred()


func _remove_condition(key_name: String) -> void:
	_conditions.erase(key_name)
	_changed.call(_conditions.duplicate(true) if not _conditions.is_empty() else null)
	_rebuild.call_deferred()
