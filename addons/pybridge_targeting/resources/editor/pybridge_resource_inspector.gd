@tool
extends EditorInspectorPlugin
## Editor only (not run by the tests: no editor runs there; the GDScript parser checks it).
## Above the properties of a battle, library or card Resource in the Inspector: the runtime's
## lint of it ([code]resources/pybridge_resource_lint.gd[/code], tested in the engine), checked
## when the Resource is shown and again on the Check button.

const DocumentResource := preload(
	"res://addons/pybridge_targeting/resources/pybridge_document_resource.gd"
)
const ResourceLint := preload("res://addons/pybridge_targeting/resources/pybridge_resource_lint.gd")
## The client the checks ask; the plugin's.
var bridge: PyBridgeClient = null


func _can_handle(object: Object) -> bool:
	return (
		object is PyBridgeBattleResource
		or object is PyBridgeLibraryResource
		or object is PyBridgeCardResource
	)


func _parse_begin(object: Object) -> void:
	var box := VBoxContainer.new()
	var button := Button.new()
	button.text = "Check with the pybridge runtime"
	var found := RichTextLabel.new()
	found.fit_content = true
	found.selection_enabled = true
	box.add_child(button)
	box.add_child(found)
	var resource := object as DocumentResource
	button.pressed.connect(_show.bind(resource, found))
	add_custom_control(box)
	_show(resource, found)


func _show(resource: DocumentResource, found: RichTextLabel) -> void:
	if bridge == null:
		found.text = "No pybridge runtime to check with."
		return
	found.text = "Checking..."
	var diagnostics := await ResourceLint.check(bridge, resource)
	if not is_instance_valid(found):
		return
	var lines := ResourceLint.lines(diagnostics)
	found.text = "No problems found." if lines.is_empty() else "\n".join(lines)
