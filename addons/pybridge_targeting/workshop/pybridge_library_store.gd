@tool
extends RefCounted
## Where the Workshop finds, reads and writes card libraries: the files of a folder
## ([code]res://[/code] in the editor). A library is kept in either form a game loads: a JSON
## document ([code].json[/code]) or a [PyBridgeLibraryResource] ([code].tres[/code] or
## [code].res[/code]), chosen by the file's extension. The Workshop edits JSON text either
## way; the Resource form is converted on reading and writing, without loss. A host with
## other storage (the browser's local server, [code]WebLibraryStore[/code]) overrides the methods.

## The extensions of a library saved as a Resource.
const RESOURCE_EXTENSIONS: PackedStringArray = ["tres", "res"]

## The folder searched for library files.
var root: String = "res://"


func _init(folder: String = "res://") -> void:
	root = folder


## The library files under [member root] (JSON files whose [code]format[/code] is
## [param library_format], and library Resources of that format), sorted.
func list(library_format: String) -> PackedStringArray:
	var found := PackedStringArray()
	_walk(root, library_format, found, 0)
	found.sort()
	return found


## [code]{"text", "name"}[/code] of the library at [param path], or [code]{"error"}[/code].
func read(path: String) -> Dictionary:
	if not FileAccess.file_exists(path):
		return {"error": "%s does not exist" % path}
	if is_resource_path(path):
		return _read_resource(path)
	var text := FileAccess.get_file_as_string(path)
	if text.is_empty() and FileAccess.get_open_error() != OK:
		return {"error": "cannot read %s: %s" % [path, error_string(FileAccess.get_open_error())]}
	return {"text": text, "name": path.get_file()}


## Writes [param text] to [param path]; returns [code]""[/code] or why it could not.
func write(path: String, text: String) -> String:
	if is_resource_path(path):
		return _write_resource(path, text)
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
		var path := folder.path_join(file_name)
		if file_name.get_extension() == "json":
			var head: Variant = JSON.parse_string(FileAccess.get_file_as_string(path))
			if head is Dictionary and str(head.get("format", "")) == library_format:
				found.append(path)
		elif is_resource_path(path) and _may_be_library(path):
			var library := _load_library(path)
			if library != null and library.format == library_format:
				found.append(path)


## Whether [param path] names a library kept as a Resource.
static func is_resource_path(path: String) -> bool:
	return path.get_extension().to_lower() in RESOURCE_EXTENSIONS


func _read_resource(path: String) -> Dictionary:
	var library := _load_library(path)
	if library == null:
		return {"error": "%s is not a card library Resource" % path}
	return {"text": library.to_json("\t"), "name": path.get_file()}


func _write_resource(path: String, text: String) -> String:
	var library := PyBridgeLibraryResource.from_json(text)
	if library == null:
		return "cannot write %s: the library is not a JSON object" % path
	var error := ResourceSaver.save(library, path)
	if error != OK:
		return "cannot write %s: %s" % [path, error_string(error)]
	return ""


## Whether the Resource at [param path] may be a library: a text one says its script class in
## its first line, so other Resources of a project are not loaded to find out.
static func _may_be_library(path: String) -> bool:
	if path.get_extension().to_lower() != "tres":
		return true
	var file := FileAccess.open(path, FileAccess.READ)
	return file != null and file.get_line().contains('script_class="PyBridgeLibraryResource"')


static func _load_library(path: String) -> PyBridgeLibraryResource:
	# Always read from the file: another editor tab may have saved it since.
	var loaded := ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	return loaded as PyBridgeLibraryResource
