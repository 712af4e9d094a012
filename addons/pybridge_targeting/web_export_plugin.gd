@tool
extends EditorExportPlugin
## Puts Python beside a Web export: copies the contents of [constant RUNTIME_DIR] (Pyodide and
## the pybridge package, which [code]pybridge build --web[/code] writes there) next to the
## exported HTML page, where the addon's page shell ([code]web/pybridge_shell.html[/code])
## looks for them.

## What [code]pybridge build --web[/code] fills; its [code].gdignore[/code] keeps the editor
## from importing it.
const RUNTIME_DIR := "res://addons/pybridge_targeting/web/runtime"

var _export_dir := ""


func _get_name() -> String:
	return "PyBridgeWebRuntime"


func _export_begin(features: PackedStringArray, _is_debug: bool, path: String, _flags: int) -> void:
	_export_dir = ""
	if not features.has("web"):
		return
	var target := path
	if not path.is_absolute_path():
		target = ProjectSettings.globalize_path("res://").path_join(path)
	_export_dir = target.get_base_dir()


func _export_end() -> void:
	if _export_dir.is_empty():
		return
	var source := ProjectSettings.globalize_path(RUNTIME_DIR)
	if not DirAccess.dir_exists_absolute(source):
		push_error(
			(
				(
					"PyBridge: %s is missing, so the exported page cannot start Python: run "
					+ "`pybridge build --web --project <this project>`, then export again"
				)
				% RUNTIME_DIR
			)
		)
		return
	_copy_tree(source, _export_dir)


func _copy_tree(from: String, to: String) -> void:
	var error := DirAccess.make_dir_recursive_absolute(to)
	if error != OK:
		push_error("PyBridge: cannot create %s (%s)" % [to, error_string(error)])
		return
	for file in DirAccess.get_files_at(from):
		if file == ".gdignore":
			continue
		error = DirAccess.copy_absolute(from.path_join(file), to.path_join(file))
		if error != OK:
			push_error("PyBridge: cannot copy %s to %s (%s)" % [file, to, error_string(error)])
	for folder in DirAccess.get_directories_at(from):
		_copy_tree(from.path_join(folder), to.path_join(folder))
