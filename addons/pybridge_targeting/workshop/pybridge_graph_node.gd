@tool
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

const CardDocument := preload("res://addons/pybridge_targeting/workshop/pybridge_card_document.gd")
const BehaviorGraph := preload(
	"res://addons/pybridge_targeting/workshop/pybridge_behavior_graph.gd"
)
const WorkshopSchema := preload(
	"res://addons/pybridge_targeting/workshop/pybridge_workshop_schema.gd"
)
const Look := preload("res://addons/pybridge_targeting/workshop/pybridge_graph_node_look.gd")
const Rows := preload("res://addons/pybridge_targeting/workshop/pybridge_graph_node_rows.gd")
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
var _parts: Rows = Rows.new()
var _badge: Label = null
var _override_note: Label = null


func _init() -> void:
	_parts.edited.connect(
		func(field: String, value: Variant) -> void: field_changed.emit(node_id, field, value)
	)
	_parts.id_submitted.connect(_submit_id)


## Builds the start node: the entry of the flow, one exit to the first node run.
func build_start(entry_label: String) -> void:
	is_start = true
	title = entry_label
	Look.style(self, START_COLOR, _panel_color)
	name = "start"
	tooltip_text = "When the card is played, the flow starts at the node this is linked to."
	var row := _parts.exit_row("start")
	add_child(row)
	_parts.rows["exit.start"] = row
	set_slot(0, false, 0, Color.WHITE, true, WorkshopSchema.FLOW_SLOT, WorkshopSchema.FLOW_COLOR)
	outputs = [{"role": "exit", "name": "start"}]
	_add_badge()


## Builds the node from [param data] (the node as written) and its type in [param schema];
## [param fed]: the kind fed into each port, in order ([code]""[/code] when unknown).
func build(data: Dictionary, schema: WorkshopSchema, fed: PackedStringArray) -> void:
	var input_kind := fed[0] if not fed.is_empty() else ""
	node_id = str(data.get("id", ""))
	type_name = str(data.get("type", ""))
	var spec := schema.node_type(type_name)
	title = type_name if not spec.is_empty() else "unknown type %s" % JSON.stringify(type_name)
	var group := schema.groups().find(str(spec.get("group", "")))
	var accent := GROUP_COLORS[group % GROUP_COLORS.size()] if group >= 0 else Color("8a3a4a")
	Look.style(self, accent, _panel_color)
	tooltip_text = str(spec.get("doc", "The runtime has no node type of this name."))
	custom_minimum_size.x = BehaviorGraph.NODE_WIDTH
	_add_badge()
	var slot := 0
	# The head: the id, the flow entry on the left, the output on the right.
	var head := _parts.id_row(node_id)
	add_child(head)
	var flow := schema.is_flow(type_name)
	var out_kind := schema.own_output(type_name)
	if out_kind.is_empty():
		out_kind = input_kind
	var out_slot := _output_slot(schema, spec, out_kind)
	set_slot(
		slot,
		flow,
		WorkshopSchema.FLOW_SLOT,
		WorkshopSchema.FLOW_COLOR,
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
		add_child(_parts.type_row(schema.node_types.keys(), type_name))
		slot += 1
	var ports: Dictionary = data.get("ports") if data.get("ports") is Dictionary else {}
	for port: Variant in spec.get("ports", []):
		var port_name := str(port.get("name"))
		var accepts := PackedStringArray(port.get("accepts", []))
		var index := inputs.filter(func(entry: Dictionary) -> bool: return entry["role"] == "port")
		var kind := fed[index.size()] if index.size() < fed.size() else ""
		# What it is fed, once connected; what it takes, until then.
		var shown := kind if not kind.is_empty() else " or ".join(accepts)
		var row := Rows.name_label("%s  ·  %s" % [port_name, shown])
		row.tooltip_text = str(port.get("doc"))
		row.set_meta("field", "ports." + port_name)
		add_child(row)
		_parts.rows["ports." + port_name] = row
		_parts.labels["ports." + port_name] = row
		var port_slot := schema.slot_for(accepts)
		set_slot(slot, true, port_slot, schema.slot_color(port_slot), false, 0, Color.WHITE)
		inputs.append({"role": "port", "name": port_name})
		slot += 1
	var known := PackedStringArray(CardDocument.NODE_KEYS)
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
		add_child(
			_parts.field_row(schema.documented(field), data.get(str(field.get("name"))), keys)
		)
		slot += 1
	var exits := schema.exits_of(type_name)
	known.append_array(exits)
	for key: Variant in data:
		if not str(key) in known:
			add_child(_parts.unknown_row(str(key), data[key], type_name))
			slot += 1
	for exit in exits:
		var row := _parts.exit_row(exit)
		add_child(row)
		_parts.rows["exit." + exit] = row
		set_slot(
			slot, false, 0, Color.WHITE, true, WorkshopSchema.FLOW_SLOT, WorkshopSchema.FLOW_COLOR
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
		if not _parts.labels.has(field):
			field = field.get_slice(".", 0)
		if _parts.labels.has(field):
			if not field in flagged:
				flagged.append(field)
			field_worst[field] = _worse(str(field_worst.get(field, "")), severity)
	for field: String in _parts.labels:
		var label: Label = _parts.labels[field]
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
	Look.frame(self, color if not worst.is_empty() else Color(0, 0, 0, 0), _panel_color)


## The control that edits [param field] ([code]ports.x[/code]: the port's row), or null.
func field_control(field: String) -> Control:
	return _parts.field_control(field)


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
	for field: String in _parts.rows:
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


## The source field's row; when [param port] is connected the field is disabled and a note
## says the port overrides it.
func _source_row(field: Dictionary, value: Variant, port: String) -> Control:
	var row := _parts.field_row(field, value)
	if not source_overridden:
		return row
	var editor := field_control(SOURCE_FIELD)
	if editor is OptionButton:
		(editor as OptionButton).disabled = true
	_parts.labels[SOURCE_FIELD].add_theme_color_override("font_color", OVERRIDDEN_LABEL_COLOR)
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


func _output_slot(schema: WorkshopSchema, spec: Dictionary, out_kind: String) -> int:
	if not out_kind.is_empty():
		return schema.slot_for(PackedStringArray([out_kind]))
	var ports: Array = spec.get("ports", [])
	if not ports.is_empty():
		return schema.slot_for(PackedStringArray(ports[0].get("accepts", [])))
	return WorkshopSchema.FLOW_SLOT


func _xy(point: Vector2) -> Array:
	return [roundi(point.x), roundi(point.y)]


func _submit_id(text: String) -> void:
	if text.strip_edges() != node_id:
		id_changed.emit(node_id, text.strip_edges())
