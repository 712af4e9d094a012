@tool
extends PopupMenu
## The Behavior graph's right-click menu: Copy, Paste and Duplicate, then every node type of
## the schema under its group, each with its description as its tooltip.

## The designer picked node type [param type_name].
signal type_chosen(type_name: String)
## The designer picked an editing entry ([param action]: copy, paste, duplicate).
signal edit_chosen(action: String)

const WorkshopSchema := preload(
	"res://addons/pybridge_targeting/workshop/pybridge_workshop_schema.gd"
)
## The editing entries: action -> label (with its key).
const EDIT_ITEMS := {
	"copy": "Copy selected nodes (Ctrl+C)",
	"paste": "Paste nodes (Ctrl+V)",
	"duplicate": "Duplicate selected nodes (Ctrl+D)",
}

## Asked as the menu opens: whether Copy and Duplicate have nodes to work on.
var has_selection: Callable = func() -> bool: return false
## Asked as the menu opens: whether Paste has nodes to paste.
var can_paste: Callable = func() -> bool: return false


func _init(schema: WorkshopSchema) -> void:
	for action: String in EDIT_ITEMS:
		add_item(str(EDIT_ITEMS[action]))
		set_item_metadata(item_count - 1, {"edit": action})
	for group in schema.groups():
		add_separator(group)
		for type_name in schema.types_in(group):
			add_item(type_name)
			set_item_metadata(item_count - 1, type_name)
			set_item_tooltip(item_count - 1, str(schema.node_type(type_name).get("doc")))
	about_to_popup.connect(_enable_edit_items)
	index_pressed.connect(_on_index_pressed)


func _on_index_pressed(index: int) -> void:
	var meta: Variant = get_item_metadata(index)
	if meta is Dictionary:
		edit_chosen.emit(str(meta["edit"]))
	else:
		type_chosen.emit(str(meta))


## Copy and Duplicate need selected nodes, Paste something copied.
func _enable_edit_items() -> void:
	var selection: bool = has_selection.call()
	var paste: bool = can_paste.call()
	for i in item_count:
		var meta: Variant = get_item_metadata(i)
		if meta is Dictionary:
			set_item_disabled(i, not (selection if str(meta["edit"]) != "paste" else paste))
