@tool
class_name PyBridgeLibraryStore
extends RefCounted
## Where the Workshop finds, reads and writes card libraries: the files of a folder
## ([code]res://[/code] in the editor). A host with other storage (the browser's local server,
## [PyBridgeWebLibraryStore]) overrides the methods.

## The folder searched for library files.
var root: String = "res://"


func _init(folder: String = "res://") -> void:
	root = folder


## The library files under [member root] (JSON files whose [code]format[/code] is
## [param library_format]), sorted.
func list(library_format: String) -> PackedStringArray:
	var found := PackedStringArray()
	_walk(root, library_format, found, 0)
	found.sort()
	return found


## [code]{"text", "name"}[/code] of the library at [param path], or [code]{"error"}[/code].
func read(path: String) -> Dictionary:
	if not FileAccess.file_exists(path):
		return {"error": "%s does not exist" % path}
	var text := FileAccess.get_file_as_string(path)
	if text.is_empty() and FileAccess.get_open_error() != OK:
		return {"error": "cannot read %s: %s" % [path, error_string(FileAccess.get_open_error())]}
	return {"text": text, "name": path.get_file()}


## Writes [param text] to [param path]; returns [code]""[/code] or why it could not.
func write(path: String, text: String) -> String:
	var file := FileAccess.open(path, FileAccess.WRITE)
	if file == null:
		return "cannot write %s: %s" % [path, error_string(FileAccess.get_open_error())]
	file.store_string(text)
	file.close()
	return ""


## Told whether the open library has unsaved changes (a browser page asks before closing).
func set_unsaved(_unsaved: bool) -> void:
	pass


func _walk(folder: String, library_format: String, found: PackedStringArray, depth: int) -> void:
	var dir := DirAccess.open(folder)
	if dir == null or depth > 16:
		return
	for sub in dir.get_directories():
		if not sub.begins_with("."):
			_walk(folder.path_join(sub), library_format, found, depth + 1)
	for file_name in dir.get_files():
		if file_name.get_extension() == "json":
			var path := folder.path_join(file_name)
			var head: Variant = JSON.parse_string(FileAccess.get_file_as_string(path))
			if head is Dictionary and str(head.get("format", "")) == library_format:
				found.append(path)
