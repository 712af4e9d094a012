@tool
class_name PyBridgeGraphNode
extends GraphNode
## One Behavior node in the Workshop's graph, built from its node type in the runtime's
## schema: a flow entry on the left of flow nodes, the output on the right of nodes that yield
## something, a typed slot for each port, the fields edited in place, and an exit slot for
## each flow link ([code]next[/code], [code]then[/code], [code]else[/code]).
##
## When the port that overrides the action's [code]source[/code] field is connected, the field
## is shown as overridden (the guide: "A connected port overrides the node field"). Lint
## diagnostics show as a badge in the title bar and on the row of the field or port they name.

## The designer changed field [param field] to [param value] (null: removed).
signal field_changed(node_id: String, field: String, value: Variant)
## The designer gave the node a new id.
signal id_changed(node_id: String, new_id: String)

## Colours by diagnostic severity.
const SEVERITY_COLORS := {
	"error": Color("ff5c6c"),
	"warning": Color("ffb347"),
	"info": Color("7fb8ff"),
}
## Severity order, worst first.
const SEVERITIES: PackedStringArray = ["error", "warning", "info"]
## The field of an action that a port may override.
const SOURCE_FIELD := "source"
## Colour of the note on an overridden field.
const OVERRIDE_COLOR := Color("c792ff")
## Colour of an overridden field's name.
const OVERRIDDEN_LABEL_COLOR := Color(1, 1, 1, 0.35)
## Title bar colours of the palette groups, in the schema's order.
const GROUP_COLORS: Array[Color] = [
	Color("3d6fb0"),
	Color("b07a2e"),
	Color("7a4fb0"),
	Color("4f5a6e"),
	Color("a8463a"),
]
## The start node's title bar colour.
const START_COLOR := Color("3a8a5a")

## The node's id in the Behavior ([code]""[/code] for the start node).
var node_id: String = ""
## Its type name.
var type_name: String = ""
## Whether this is the Behavior's start node (not a node of the format).
var is_start: bool = false
## What each input port is, by port index: [code]{"role": "flow"}[/code] or
## [code]{"role": "port", "name"}[/code].
var inputs: Array[Dictionary] = []
## What each output port is, by port index: [code]{"role": "output"}[/code] or
## [code]{"role": "exit", "name"}[/code].
var outputs: Array[Dictionary] = []
## The diagnostic codes this node shows now (its badge).
var badge_codes: PackedStringArray = PackedStringArray()
## The fields (and [code]ports.<name>[/code]) flagged now.
var flagged: PackedStringArray = PackedStringArray()
## Whether the source field shows as overridden.
var source_overridden: bool = false

var _panel_color: Color = Color("403d56")
var _rows: Dictionary = {}
var _labels: Dictionary = {}
var _badge: Label = null
var _override_note: Label = null


## Builds the start node: the entry of the flow, one exit to the first node run.
func build_start(entry_label: String) -> void:
	is_start = true
	title = entry_label
	_style(START_COLOR)
	name = "start"
	tooltip_text = "When the card is played, the flow starts at the node this is linked to."
	var row := _exit_row("start")
	add_child(row)
	_rows["exit.start"] = row
	set_slot(
		0,
		false,
		0,
		Color.WHITE,
		true,
		PyBridgeWorkshopSchema.FLOW_SLOT,
		PyBridgeWorkshopSchema.FLOW_COLOR
	)
	outputs = [{"role": "exit", "name": "start"}]
	_add_badge()


## Builds the node from [param data] (the node as written) and its type in [param schema];
## [param fed]: the kind fed into each port, in order ([code]""[/code] when unknown).
func build(data: Dictionary, schema: PyBridgeWorkshopSchema, fed: PackedStringArray) -> void:
	var input_kind := fed[0] if not fed.is_empty() else ""
	node_id = str(data.get("id", ""))
	type_name = str(data.get("type", ""))
	var spec := schema.node_type(type_name)
	title = type_name if not spec.is_empty() else "unknown type %s" % JSON.stringify(type_name)
	var group := schema.groups().find(str(spec.get("group", "")))
	_style(GROUP_COLORS[group % GROUP_COLORS.size()] if group >= 0 else Color("8a3a4a"))
	tooltip_text = str(spec.get("doc", "The runtime has no node type of this name."))
	custom_minimum_size.x = PyBridgeBehaviorGraph.NODE_WIDTH
	_add_badge()
	var slot := 0
	# The head: the id, the flow entry on the left, the output on the right.
	var head := _id_row()
	add_child(head)
	var flow := schema.is_flow(type_name)
	var out_kind := schema.own_output(type_name)
	if out_kind.is_empty():
		out_kind = input_kind
	var out_slot := _output_slot(schema, spec, out_kind)
	set_slot(
		slot,
		flow,
		PyBridgeWorkshopSchema.FLOW_SLOT,
		PyBridgeWorkshopSchema.FLOW_COLOR,
		schema.has_output(type_name),
		out_slot,
		schema.slot_color(out_slot)
	)
	if flow:
		inputs.append({"role": "flow"})
	if schema.has_output(type_name):
		outputs.append({"role": "output", "kind": out_kind})
	slot += 1
	if spec.is_empty():
		add_child(_type_row(schema))
		slot += 1
	var ports: Dictionary = data.get("ports") if data.get("ports") is Dictionary else {}
	for port: Variant in spec.get("ports", []):
		var port_name := str(port.get("name"))
		var accepts := PackedStringArray(port.get("accepts", []))
		var index := inputs.filter(func(entry: Dictionary) -> bool: return entry["role"] == "port")
		var kind := fed[index.size()] if index.size() < fed.size() else ""
		# What it is fed, once connected; what it takes, until then.
		var shown := kind if not kind.is_empty() else " or ".join(accepts)
		var row := _name_label("%s  ·  %s" % [port_name, shown])
		row.tooltip_text = str(port.get("doc"))
		row.set_meta("field", "ports." + port_name)
		add_child(row)
		_rows["ports." + port_name] = row
		_labels["ports." + port_name] = row
		var port_slot := schema.slot_for(accepts)
		set_slot(slot, true, port_slot, schema.slot_color(port_slot), false, 0, Color.WHITE)
		inputs.append({"role": "port", "name": port_name})
		slot += 1
	var known := PackedStringArray(PyBridgeCardDocument.NODE_KEYS)
	var source: Dictionary = spec.get("source", {})
	if not source.is_empty():
		known.append(SOURCE_FIELD)
		var field := {
			"name": SOURCE_FIELD,
			"type": "choice",
			"choices": source.get("choices", []),
			"doc":
			(
				"where the units or cards come from when the %s port is not connected"
				% source.get("overridden_by", "")
			)
		}
		var port := str(source.get("overridden_by", ""))
		source_overridden = ports.has(port)
		add_child(_source_row(schema.documented(field), data.get(SOURCE_FIELD), port))
		slot += 1
	for field: Variant in spec.get("fields", []):
		known.append(str(field.get("name")))
		var keys := schema.filter_keys(input_kind) if not input_kind.is_empty() else []
		if keys.is_empty() and str(field.get("type")) == "where":
			for kind in schema.kinds:
				keys.append_array(schema.filter_keys(kind))
		add_child(_field_row(schema.documented(field), data.get(str(field.get("name"))), keys))
		slot += 1
	var exits := schema.exits_of(type_name)
	known.append_array(exits)
	for key: Variant in data:
		if not str(key) in known:
			add_child(_unknown_row(str(key), data[key]))
			slot += 1
	for exit in exits:
		var row := _exit_row(exit)
		add_child(row)
		_rows["exit." + exit] = row
		set_slot(
			slot,
			false,
			0,
			Color.WHITE,
			true,
			PyBridgeWorkshopSchema.FLOW_SLOT,
			PyBridgeWorkshopSchema.FLOW_COLOR
		)
		outputs.append({"role": "exit", "name": exit})
		slot += 1


## The input port index of flow entry or port [param port_name] ([code]""[/code]: the flow
## entry), or -1.
func input_index(port_name: String) -> int:
	for i in inputs.size():
		var entry := inputs[i]
		if (port_name.is_empty() and entry["role"] == "flow") or entry.get("name") == port_name:
			return i
	return -1


## The output port index of exit [param exit] ([code]""[/code]: the node's output), or -1.
func output_index(exit: String) -> int:
	for i in outputs.size():
		var entry := outputs[i]
		if (exit.is_empty() and entry["role"] == "output") or entry.get("name") == exit:
			return i
	return -1


## Shows [param diagnostics] (each with [code]place[/code]) on this node: the badge, and
## the rows of the fields and ports they name.
func show_diagnostics(diagnostics: Array) -> void:
	badge_codes = PackedStringArray()
	flagged = PackedStringArray()
	var worst := ""
	var lines := PackedStringArray()
	var field_worst := {}
	for diagnostic: Variant in diagnostics:
		var severity := str(diagnostic.get("severity", "info"))
		badge_codes.append(str(diagnostic.get("code", "")))
		lines.append("%s %s: %s" % [diagnostic.get("code"), severity, diagnostic.get("message")])
		worst = _worse(worst, severity)
		var field := str(diagnostic.get("place", {}).get("field", ""))
		if not _labels.has(field):
			field = field.get_slice(".", 0)
		if _labels.has(field):
			if not field in flagged:
				flagged.append(field)
			field_worst[field] = _worse(str(field_worst.get(field, "")), severity)
	for field: String in _labels:
		var label: Label = _labels[field]
		if field_worst.has(field):
			label.add_theme_color_override("font_color", SEVERITY_COLORS[field_worst[field]])
		elif field == SOURCE_FIELD and source_overridden:
			label.add_theme_color_override("font_color", OVERRIDDEN_LABEL_COLOR)
		else:
			label.remove_theme_color_override("font_color")
	_badge.visible = not badge_codes.is_empty()
	_badge.text = " ".join(badge_codes)
	_badge.tooltip_text = "\n".join(lines)
	var color: Color = SEVERITY_COLORS.get(worst, Color(0, 0, 0, 0))
	_badge.add_theme_color_override("font_color", color)
	_frame(color if not worst.is_empty() else Color(0, 0, 0, 0))


## The control that edits [param field] ([code]ports.x[/code]: the port's row), or null.
func field_control(field: String) -> Control:
	var row: Control = _rows.get(field, _rows.get(field.get_slice(".", 0)))
	if row == null:
		return null
	for child in row.find_children("*", "Control", true, false):
		if child is LineEdit or child is OptionButton or child is MenuButton:
			return child
	return row


## Points for tools and tests, global coordinates: the title, each input and output port
## (by name; [code]""[/code] is the flow entry or the output) and each field's control.
func layout_points() -> Dictionary:
	var ins := {}
	for i in mini(inputs.size(), get_input_port_count()):
		ins[str(inputs[i].get("name", ""))] = _xy(
			get_global_transform_with_canvas() * get_input_port_position(i)
		)
	var outs := {}
	for i in mini(outputs.size(), get_output_port_count()):
		outs[str(outputs[i].get("name", ""))] = _xy(
			get_global_transform_with_canvas() * get_output_port_position(i)
		)
	var fields := {}
	for field: String in _rows:
		var control := field_control(field)
		if control != null and control.is_visible_in_tree():
			fields[field] = _xy(control.get_global_transform_with_canvas() * (control.size * 0.5))
	# Every control that edits something says what (a filter condition, a remove button).
	for control: Control in find_children("*", "Control", true, false):
		if control.has_meta("field") and control.is_visible_in_tree():
			fields[str(control.get_meta("field"))] = _xy(
				control.get_global_transform_with_canvas() * (control.size * 0.5)
			)
	var head := get_global_transform_with_canvas() * Vector2(size.x * 0.5, 12)
	var corner := get_global_transform_with_canvas() * Vector2.ZERO
	var drawn := size * get_global_transform_with_canvas().get_scale()
	return {
		"title": _xy(head),
		"in": ins,
		"out": outs,
		"fields": fields,
		"rect": _xy(corner) + _xy(drawn)
	}


func _add_badge() -> void:
	_badge = Label.new()
	_badge.visible = false
	_badge.mouse_filter = Control.MOUSE_FILTER_PASS
	get_titlebar_hbox().add_child(_badge)


## Gives the node its look: a dark body and a title bar in [param accent].
func _style(accent: Color) -> void:
	var body := _box(Color(0.11, 0.105, 0.15, 0.96), _panel_color, 1, [0, 0, 6, 6])
	body.content_margin_left = 10
	body.content_margin_right = 10
	body.content_margin_top = 6
	body.content_margin_bottom = 8
	add_theme_stylebox_override("panel", body)
	var chosen := body.duplicate() as StyleBoxFlat
	chosen.border_color = Color("ffd54a")
	add_theme_stylebox_override("panel_selected", chosen)
	var bar := _box(accent.darkened(0.25), accent, 1, [6, 6, 0, 0])
	bar.content_margin_left = 10
	bar.content_margin_right = 8
	bar.content_margin_top = 4
	bar.content_margin_bottom = 4
	add_theme_stylebox_override("titlebar", bar)
	var bar_chosen := bar.duplicate() as StyleBoxFlat
	bar_chosen.bg_color = accent
	bar_chosen.border_color = Color("ffd54a")
	add_theme_stylebox_override("titlebar_selected", bar_chosen)


## Outlines the body in [param color] (transparent: the plain outline).
func _frame(color: Color) -> void:
	var plain := color.a == 0.0
	for style_name: String in ["panel", "panel_selected"]:
		var box := get_theme_stylebox(style_name) as StyleBoxFlat
		if box == null:
			continue
		if style_name == "panel":
			box.border_color = _panel_color if plain else color
		box.set_border_width_all(1 if plain else 2)


static func _box(fill: Color, border: Color, width: int, corners: Array) -> StyleBoxFlat:
	var box := StyleBoxFlat.new()
	box.bg_color = fill
	box.border_color = border
	box.set_border_width_all(width)
	box.corner_radius_top_left = corners[0]
	box.corner_radius_top_right = corners[1]
	box.corner_radius_bottom_right = corners[2]
	box.corner_radius_bottom_left = corners[3]
	box.anti_aliasing = true
	return box


func _id_row() -> Control:
	var row := HBoxContainer.new()
	var label := _name_label("id")
	row.add_child(label)
	var line := LineEdit.new()
	line.text = node_id
	line.select_all_on_focus = true
	line.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	line.set_meta("field", "id")
	line.text_submitted.connect(func(_text: String) -> void: line.release_focus())
	line.focus_exited.connect(func() -> void: _submit_id(line.text))
	row.add_child(line)
	_rows["id"] = row
	_labels["id"] = label
	return row


func _submit_id(text: String) -> void:
	if text.strip_edges() != node_id:
		id_changed.emit(node_id, text.strip_edges())


func _type_row(schema: PyBridgeWorkshopSchema) -> Control:
	var field := {
		"name": "type",
		"type": "choice",
		"choices": schema.node_types.keys(),
		"doc": "the node type; the runtime knows the ones listed"
	}
	return _field_row(field, type_name)


func _field_row(field: Dictionary, value: Variant, filter_keys: Array = []) -> Control:
	var field_name := str(field.get("name"))
	# A where field's conditions need the whole width: its rows go under its name.
	var row: BoxContainer = (
		VBoxContainer.new() if str(field.get("type")) == "where" else HBoxContainer.new()
	)
	var label := _name_label(field_name)
	label.tooltip_text = str(field.get("doc", ""))
	row.add_child(label)
	var on_change := func(new_value: Variant) -> void: _field_edited(field_name, new_value)
	row.add_child(PyBridgeFieldEditor.make(field, value, on_change, filter_keys))
	_rows[field_name] = row
	_labels[field_name] = label
	return row


func _unknown_row(key: String, value: Variant) -> Control:
	var row := HBoxContainer.new()
	var label := _name_label(key + " ?")
	label.tooltip_text = "not a field of %s: rename it or remove it" % type_name
	row.add_child(label)
	var on_change := func(new_value: Variant) -> void: _field_edited(key, new_value)
	row.add_child(PyBridgeFieldEditor.make({"name": key}, value, on_change))
	var remove := Button.new()
	remove.text = "×"
	remove.tooltip_text = "Remove this field"
	remove.set_meta("field", key + ".remove")
	remove.pressed.connect(func() -> void: _field_edited(key, null))
	row.add_child(remove)
	_rows[key] = row
	_labels[key] = label
	return row


func _exit_row(exit: String) -> Control:
	var label := _name_label(exit)
	label.horizontal_alignment = HORIZONTAL_ALIGNMENT_RIGHT
	label.set_meta("field", "exit." + exit)
	_labels["exit." + exit] = label
	return label


func _name_label(text: String) -> Label:
	var label := Label.new()
	label.text = text
	label.custom_minimum_size.x = 64
	label.mouse_filter = Control.MOUSE_FILTER_PASS
	return label


func _field_edited(field: String, value: Variant) -> void:
	field_changed.emit(node_id, field, value)


## The source field's row; when [param port] is connected the field is disabled and a note
## says the port overrides it.
func _source_row(field: Dictionary, value: Variant, port: String) -> Control:
	var row := _field_row(field, value)
	if not source_overridden:
		return row
	var editor := field_control(SOURCE_FIELD)
	if editor is OptionButton:
		(editor as OptionButton).disabled = true
	_labels[SOURCE_FIELD].add_theme_color_override("font_color", OVERRIDDEN_LABEL_COLOR)
	_override_note = Label.new()
	_override_note.text = "overridden: the %s port is connected" % port
	_override_note.add_theme_color_override("font_color", OVERRIDE_COLOR)
	_override_note.add_theme_font_size_override("font_size", 12)
	var box := VBoxContainer.new()
	box.add_theme_constant_override("separation", 0)
	box.add_child(row)
	box.add_child(_override_note)
	box.set_meta("overridden", true)
	return box


static func _worse(worst: String, severity: String) -> String:
	if worst.is_empty() or SEVERITIES.find(severity) < SEVERITIES.find(worst):
		return severity
	return worst


func _output_slot(schema: PyBridgeWorkshopSchema, spec: Dictionary, out_kind: String) -> int:
	if not out_kind.is_empty():
		return schema.slot_for(PackedStringArray([out_kind]))
	var ports: Array = spec.get("ports", [])
	if not ports.is_empty():
		return schema.slot_for(PackedStringArray(ports[0].get("accepts", [])))
	return PyBridgeWorkshopSchema.FLOW_SLOT


func _xy(point: Vector2) -> Array:
	return [roundi(point.x), roundi(point.y)]
