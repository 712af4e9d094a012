class_name DemoLog
extends PyBridgeBattleLog
## The demo's battle log: the addon's, which also prints the lines it shows for what it was
## given, as a player reads them in the current locale:
## [code]PYBRIDGE logged {"lines": [...]}[/code].


func add_lines(lines: Array) -> void:
	super(lines)
	var shown := Array(get_parsed_text().strip_edges().split("\n")).map(
		func(line: String) -> String: return line.strip_edges()
	)
	DemoLines.say("logged", {"lines": shown.slice(maxi(0, shown.size() - lines.size()))})
