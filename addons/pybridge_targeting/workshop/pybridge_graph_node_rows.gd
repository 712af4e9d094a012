@tool
extends RefCounted
## The rows of a Workshop graph node: its id, its fields edited in place, the keys its type does
## not know, its exits, each with its name label. The rows tell an edit with their own signals;
## the node emits it as its own [code]field_changed[/code] or [code]id_changed[/code].

## The designer changed [param field] to [param value] (null: removed).
signal edited(field: String, value: Variant)
## The designer left the id box with [param text] in it.
signal id_submitted(text: String)

const FieldEditor := preload("res://addons/pybridge_targeting/workshop/pybridge_field_editor.gd")

## The row of each field, by field ([code]id[/code], [code]ports.<name>[/code],
## [code]exit.<name>[/code] too).
var rows: Dictionary = {}
## The name label of each field, by field.
var labels: Dictionary = {}


## The id row: the id in a box, told when the box loses the focus.
func id_row(node_id: String) -> Control:
	var row := HBoxContainer.new()
	var label := name_label("id")
	row.add_child(label)
	var line := LineEdit.new()
	line.text = node_id
	line.select_all_on_focus = true
	line.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	line.set_meta("field", "id")
	line.text_submitted.connect(func(_text: String) -> void: line.release_focus())
	line.focus_exited.connect(func() -> void: id_submitted.emit(line.text))
	row.add_child(line)
	rows["id"] = row
	labels["id"] = label
	return row


## The row that picks the type of a node whose [param type_name] the runtime does not know.
func type_row(node_types: Array, type_name: String) -> Control:
	var field := {
		"name": "type",
		"type": "choice",
		"choices": node_types,
		"doc": "the node type; the runtime knows the ones listed"
	}
	return field_row(field, type_name)


## The row of [param field] (a field of the schema, documented) holding [param value].
func field_row(field: Dictionary, value: Variant, filter_keys: Array = []) -> Control:
	var field_name := str(field.get("name"))
	# A where field's conditions need the whole width: its rows go under its name.
	var row: BoxContainer = (
		VBoxContainer.new() if str(field.get("type")) == "where" else HBoxContainer.new()
	)
	var label := name_label(field_name)
	label.tooltip_text = str(field.get("doc", ""))
	row.add_child(label)
	var on_change := func(new_value: Variant) -> void: edited.emit(field_name, new_value)
	row.add_child(FieldEditor.make(field, value, on_change, filter_keys))
	rows[field_name] = row
	labels[field_name] = label
	return row


## The row of [param key], which is not a field of [param type_name]: edited as it is, or
## removed.
func unknown_row(key: String, value: Variant, type_name: String) -> Control:
	var row := HBoxContainer.new()
	var label := name_label(key + " ?")
	label.tooltip_text = "not a field of %s: rename it or remove it" % type_name
	row.add_child(label)
	var on_change := func(new_value: Variant) -> void: edited.emit(key, new_value)
	row.add_child(FieldEditor.make({"name": key}, value, on_change))
	var remove := Button.new()
	remove.text = "×"
	remove.tooltip_text = "Remove this field"
	remove.set_meta("field", key + ".remove")
	remove.pressed.connect(func() -> void: edited.emit(key, null))
	row.add_child(remove)
	rows[key] = row
	labels[key] = label
	return row


## The label of flow exit [param exit], on the right.
func exit_row(exit: String) -> Control:
	var label := name_label(exit)
	label.horizontal_alignment = HORIZONTAL_ALIGNMENT_RIGHT
	label.set_meta("field", "exit." + exit)
	labels["exit." + exit] = label
	return label


## The control that edits [param field] ([code]ports.x[/code]: the port's row), or null.
func field_control(field: String) -> Control:
	var row: Control = rows.get(field, rows.get(field.get_slice(".", 0)))
	if row == null:
		return null
	for child in row.find_children("*", "Control", true, false):
		if child is LineEdit or child is OptionButton or child is MenuButton:
			return child
	return row


## A field's name label.
static func name_label(text: String) -> Label:
	var label := Label.new()
	label.text = text
	label.custom_minimum_size.x = 64
	label.mouse_filter = Control.MOUSE_FILTER_PASS
	return label
