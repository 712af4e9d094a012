@tool
extends EditorPlugin
## Registers the addon while it is enabled: the [code]Bridge[/code] autoload (a
## [PyBridgeClient]), the Web export plugin that puts Python beside an exported page, the
## battle view's input actions with their default events (see BattleInput), written
## into the project so they show in Project Settings > Input Map to be rebound (an action the
## project already has is left as it is), the card Workshop ([code]Workshop[/code]) as a
## main-screen tab beside 2D, 3D and Script, and the Card Libraries dock
## ([code]LibraryDock[/code]) listing what the runtime's checks say about every library of the
## project. The Inspector shows the runtime's lint above a battle, library or card Resource;
## with the project setting [code]pybridge/import_json_as_resources[/code] on, [code].json[/code]
## documents are imported as those Resources (see the import plugin for why it is opt-in).
##
## The Workshop opens and saves the project's library files in [code]res://[/code]; closing
## the editor with unsaved cards asks first. The nodes themselves ([PyBridgeClient],
## [PyBridgeBattleView], [PyBridgeUnitView], [PyBridgeCardView]) are
## global classes and need no registration.

const LibraryStore := preload("res://addons/pybridge_targeting/workshop/pybridge_library_store.gd")
const LibraryDock := preload("res://addons/pybridge_targeting/workshop/pybridge_library_dock.gd")
const Workshop := preload("res://addons/pybridge_targeting/workshop/pybridge_workshop.gd")
const BattleInput := preload("res://addons/pybridge_targeting/battle/pybridge_battle_input.gd")
const AUTOLOAD_NAME := "Bridge"
const AUTOLOAD_PATH := "res://addons/pybridge_targeting/pybridge_client.gd"
const WebExportPlugin := preload("res://addons/pybridge_targeting/web_export_plugin.gd")
const WORKSHOP_SCENE := preload("res://addons/pybridge_targeting/workshop/pybridge_workshop.tscn")
const WORKSHOP_ICON := preload("res://addons/pybridge_targeting/icons/workshop.svg")
const ResourceInspector := preload(
	"res://addons/pybridge_targeting/resources/editor/pybridge_resource_inspector.gd"
)
const JsonImportPlugin := preload(
	"res://addons/pybridge_targeting/resources/editor/pybridge_json_import_plugin.gd"
)
const IMPORT_SETTING := "pybridge/import_json_as_resources"

var _web_export: EditorExportPlugin = null
var _workshop: Workshop = null
var _dock: LibraryDock = null
var _inspector: EditorInspectorPlugin = null
var _importer: EditorImportPlugin = null


func _enter_tree() -> void:
	_web_export = WebExportPlugin.new()
	add_export_plugin(_web_export)
	_workshop = WORKSHOP_SCENE.instantiate()
	_workshop.store = LibraryStore.new("res://")
	_workshop.can_create_libraries = true
	_workshop.size_flags_vertical = Control.SIZE_EXPAND_FILL
	_workshop.saved.connect(_on_saved)
	EditorInterface.get_editor_main_screen().add_child(_workshop)
	_make_visible(false)
	_dock = LibraryDock.new()
	_dock.store = _workshop.store
	_dock.bridge = _workshop.bridge
	_dock.diagnostic_chosen.connect(_on_dock_choice)
	add_control_to_dock(DOCK_SLOT_RIGHT_UL, _dock)
	_inspector = ResourceInspector.new()
	_inspector.bridge = _workshop.bridge
	add_inspector_plugin(_inspector)
	if ProjectSettings.get_setting(IMPORT_SETTING, false):
		_importer = JsonImportPlugin.new()
		add_import_plugin(_importer)


func _exit_tree() -> void:
	if _web_export != null:
		remove_export_plugin(_web_export)
		_web_export = null
	if _inspector != null:
		remove_inspector_plugin(_inspector)
		_inspector = null
	if _importer != null:
		remove_import_plugin(_importer)
		_importer = null
	if _dock != null:
		remove_control_from_docks(_dock)
		_dock.queue_free()
	if _workshop != null:
		_workshop.queue_free()


func _enable_plugin() -> void:
	if not ProjectSettings.has_setting("autoload/" + AUTOLOAD_NAME):
		add_autoload_singleton(AUTOLOAD_NAME, AUTOLOAD_PATH)
	var bindings := BattleInput.default_bindings()
	var added := false
	for action: StringName in bindings:
		var setting := "input/" + action
		if not ProjectSettings.has_setting(setting):
			ProjectSettings.set_setting(setting, {"deadzone": 0.5, "events": bindings[action]})
			added = true
	if added:
		ProjectSettings.save()


func _disable_plugin() -> void:
	if ProjectSettings.has_setting("autoload/" + AUTOLOAD_NAME):
		remove_autoload_singleton(AUTOLOAD_NAME)


func _has_main_screen() -> bool:
	return true


func _make_visible(visible: bool) -> void:
	if _workshop == null:
		return
	_workshop.visible = visible
	if visible and _workshop.library_path.is_empty():
		_open_first_library()


func _get_plugin_name() -> String:
	return "Workshop"


func _get_plugin_icon() -> Texture2D:
	return WORKSHOP_ICON


func _get_unsaved_status(for_scene: String) -> String:
	if for_scene.is_empty() and _workshop != null and _workshop.is_dirty():
		return "Save the changes to the card library %s before closing?" % _workshop.library_name
	return ""


func _save_external_data() -> void:
	if _workshop != null and _workshop.is_dirty():
		_workshop.save()


func _open_first_library() -> void:
	_workshop.rescan_libraries()
	var found := _workshop.store.list(_workshop.schema.library_format())
	if not found.is_empty():
		_workshop.open_library(found[0])
	_dock.refresh()


func _on_saved(path: String, _text: String) -> void:
	EditorInterface.get_resource_filesystem().update_file(path)
	_dock.refresh()


func _on_dock_choice(path: String, diagnostic: Dictionary) -> void:
	EditorInterface.set_main_screen_editor(_get_plugin_name())
	if path != _workshop.library_path:
		_workshop.open_library(path)
	if not diagnostic.is_empty() and path == _workshop.library_path:
		_workshop.focus_diagnostic(diagnostic)
