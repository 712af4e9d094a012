@tool
extends VBoxContainer
## The node palette, grouped as the targeting guide groups nodes (unit sources, card sources,
## selectors, flow and conditions, actions): the groups and the node types in them are the
## runtime schema's. Click a node type to add it to the graph, or drag it to where it goes;
## type in the search field to narrow the list.

## The designer clicked [param type_name].
signal type_chosen(type_name: String)

const BehaviorGraph := preload(
	"res://addons/pybridge_targeting/workshop/pybridge_behavior_graph.gd"
)
const WorkshopSchema := preload(
	"res://addons/pybridge_targeting/workshop/pybridge_workshop_schema.gd"
)
## Colour of the group headings.
const HEADING_COLOR := Color("ffd54a")

## Node type name -> its button.
var buttons: Dictionary = {}
## The search field.
var search: LineEdit = null

var _list: VBoxContainer = null
var _headings: Dictionary = {}


func _init() -> void:
	custom_minimum_size.x = 160
	search = LineEdit.new()
	search.placeholder_text = "Find a node"
	search.clear_button_enabled = true
	search.text_changed.connect(_narrow)
	add_child(search)
	var scroll := ScrollContainer.new()
	scroll.horizontal_scroll_mode = ScrollContainer.SCROLL_MODE_DISABLED
	scroll.size_flags_vertical = Control.SIZE_EXPAND_FILL
	add_child(scroll)
	_list = VBoxContainer.new()
	_list.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	_list.add_theme_constant_override("separation", 0)
	scroll.add_child(_list)


## Fills the palette from [param schema].
func build(schema: WorkshopSchema) -> void:
	for child in _list.get_children():
		child.queue_free()
	buttons.clear()
	_headings.clear()
	for group in schema.groups():
		var heading := Label.new()
		heading.text = group.to_upper()
		heading.add_theme_color_override("font_color", HEADING_COLOR)
		heading.add_theme_font_size_override("font_size", 11)
		_list.add_child(heading)
		_headings[heading] = schema.types_in(group)
		for type_name in schema.types_in(group):
			var button := Button.new()
			button.text = type_name
			button.flat = true
			button.alignment = HORIZONTAL_ALIGNMENT_LEFT
			button.add_theme_font_size_override("font_size", 14)
			button.set_meta("doc", str(schema.node_type(type_name).get("doc", "")))
			button.tooltip_text = str(schema.node_type(type_name).get("doc", ""))
			button.pressed.connect(type_chosen.emit.bind(type_name))
			button.set_drag_forwarding(_drag_data.bind(type_name), Callable(), Callable())
			_list.add_child(button)
			buttons[type_name] = button


## The middle of each node type's button, global coordinates.
func layout_points() -> Dictionary:
	var points := {}
	for type_name: String in buttons:
		var button: Button = buttons[type_name]
		if button.is_visible_in_tree():
			var at := button.get_global_transform_with_canvas() * (button.size * 0.5)
			points[type_name] = [roundi(at.x), roundi(at.y)]
	var field := search.get_global_transform_with_canvas() * (search.size * 0.5)
	points["search"] = [roundi(field.x), roundi(field.y)]
	return points


func _narrow(text: String) -> void:
	var needle := text.strip_edges().to_lower()
	for type_name: String in buttons:
		var button: Button = buttons[type_name]
		button.visible = (
			needle.is_empty()
			or type_name.to_lower().contains(needle)
			or str(button.get_meta("doc", "")).to_lower().contains(needle)
		)
	for heading: Label in _headings:
		var shown := false
		for type_name: String in _headings[heading]:
			shown = shown or (buttons[type_name] as Button).visible
		heading.visible = shown


func _drag_data(_at_position: Vector2, type_name: String) -> Variant:
	var preview := Label.new()
	preview.text = "+ " + type_name
	set_drag_preview(preview)
	return {BehaviorGraph.DRAG_KEY: type_name}
