extends Node
## The round trip of tests/test_resources.py (its own boot, not a suite of runner.tscn: it has
## no test methods). Every document of res://documents/ ([code]library_*.json[/code] or
## [code]battle_*.json[/code]) is read into the addon's Resources, saved as a .tres with
## ResourceSaver, loaded back with ResourceLoader (not from the cache) and written as JSON
## again. One line per document: [code]PYBRIDGE_ROUNDTRIP {"file", "saved", "class",
## "document", "tres"}[/code], then [code]PYBRIDGE_ROUNDTRIP_DONE {"count"}[/code].

const DocumentResource := preload(
	"res://addons/pybridge_targeting/resources/pybridge_document_resource.gd"
)
const LINE := "PYBRIDGE_ROUNDTRIP "
const DONE := "PYBRIDGE_ROUNDTRIP_DONE "
const DOCUMENTS := "res://documents/"
const SAVED := "user://roundtrip/"


func _ready() -> void:
	DirAccess.make_dir_recursive_absolute(SAVED)
	var files := Array(DirAccess.get_files_at(DOCUMENTS))
	files.sort()
	for file: String in files:
		print(LINE + JSON.stringify(_round_trip(file), "", false, true))
	print(DONE + JSON.stringify({"count": files.size()}))


func _round_trip(file: String) -> Dictionary:
	var text := FileAccess.get_file_as_string(DOCUMENTS + file)
	var read: DocumentResource = (
		PyBridgeLibraryResource.from_json(text)
		if file.begins_with("library_")
		else PyBridgeBattleResource.from_json(text)
	)
	var path := SAVED + file.get_basename() + ".tres"
	var saved := ResourceSaver.save(read, path)
	var loaded := ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	var back := loaded as DocumentResource
	return {
		"file": file,
		"saved": error_string(saved),
		"class": (loaded.get_script() as Script).get_global_name() if loaded != null else "",
		"document": back.write() if back != null else {},
		"tres": FileAccess.get_file_as_string(path),
	}
