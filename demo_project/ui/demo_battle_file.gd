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


## The text of [param file] as [method read] finds it; when neither can be read, says so on
## [param battle_log] and in an [code]error[/code] line ([code]missing_battle[/code]) and
## returns [code]""[/code].
static func read_or_say(
	file: String, checkout_file: String, battle_log: PyBridgeBattleLog
) -> String:
	var text := read(file, checkout_file)
	if text.is_empty():
		battle_log.add_line(battle_log.tr("The battle document %s is missing.") % file, "error")
		DemoLines.say("error", {"code": "missing_battle", "message": file})
	return text
