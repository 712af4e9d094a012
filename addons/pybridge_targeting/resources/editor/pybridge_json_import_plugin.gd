@tool
extends EditorImportPlugin
## Editor only (not run by the tests: no editor runs there; the GDScript parser checks it).
## Imports a [code].json[/code] card library as a [PyBridgeLibraryResource] and a battle
## document as a [PyBridgeBattleResource] (the conversion is the Resources' own, tested in
## the engine), so the FileSystem dock and the Inspector show them as Resources and a
## [PyBridgeBattleView]'s [member PyBridgeBattleView.battle_libraries] takes them. The JSON
## text stays the document: the Workshop and the runtime read it.
##
## The plugin registers it only when the project setting
## [code]pybridge/import_json_as_resources[/code] is on: Godot exports an imported file's
## Resource, not its text, so a game that reads its [code].json[/code] documents as text
## needs them exported as files (the Import dock's "Keep File" for each).

const DocumentResource := preload(
	"res://addons/pybridge_targeting/resources/pybridge_document_resource.gd"
)


func _get_importer_name() -> String:
	return "pybridge.document"


func _get_visible_name() -> String:
	return "pybridge document"


func _get_recognized_extensions() -> PackedStringArray:
	return PackedStringArray(["json"])


func _get_save_extension() -> String:
	return "tres"


func _get_resource_type() -> String:
	return "Resource"


func _get_priority() -> float:
	return 1.0


func _get_import_order() -> int:
	return 0


func _get_preset_count() -> int:
	return 1


func _get_preset_name(_preset_index: int) -> String:
	return "Default"


func _get_import_options(_path: String, _preset_index: int) -> Array[Dictionary]:
	return []


func _get_option_visibility(_path: String, _option_name: StringName, _options: Dictionary) -> bool:
	return true


func _import(
	source_file: String,
	save_path: String,
	_options: Dictionary,
	_platform_variants: Array[String],
	_gen_files: Array[String]
) -> Error:
	var parsed: Variant = JSON.parse_string(FileAccess.get_file_as_string(source_file))
	if not parsed is Dictionary:
		push_error("pybridge: %s is not a JSON object" % source_file)
		return ERR_PARSE_ERROR
	# A battle has units; a library only cards. Whether either is valid is lint's to say.
	var resource: DocumentResource = (
		PyBridgeBattleResource.new() if parsed.has("units") else PyBridgeLibraryResource.new()
	)
	resource.read(parsed)
	return ResourceSaver.save(resource, "%s.%s" % [save_path, _get_save_extension()])
