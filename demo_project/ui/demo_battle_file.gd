class_name DemoBattleFile
extends RefCounted
## Reading a demo scene's battle document: the one the pack mounts under res://battle/, or,
## in the desktop editor on a checkout, the repository's example beside the project.


## The text of [param file] (a res:// path), else of [param checkout_file] (relative to the
## project's folder, desktop only); [code]""[/code] when neither can be read.
static func read(file: String, checkout_file: String) -> String:
	var paths: Array[String] = [file]
	if not OS.has_feature("web"):
		paths.append(ProjectSettings.globalize_path("res://").path_join(checkout_file))
	for path in paths:
		if FileAccess.file_exists(path):
			return FileAccess.get_file_as_string(path)
	return ""
