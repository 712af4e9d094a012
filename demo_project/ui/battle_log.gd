class_name DemoBattleLog
extends RefCounted
## The demo's battle log: the runtime's own log lines, coloured by the kind the runtime gives
## each line (its narrator words every event; the demo only shows them).

## Log colours by the kinds of line the runtime's narrator writes.
const COLORS := {
	"play": "ffe08a",
	"damage": "ff9c8a",
	"heal": "8af0a8",
	"buff": "b9c8ff",
	"death": "ff6b6b",
	"enemy": "ffb07a",
	"turn": "9fd8ff",
	"result": "ffd54a",
	"cut": "f0c8ff",
	"fail": "ff8fb0",
	"info": "b8b3c9",
	"error": "ff6b8a",
}


## Adds the runtime's log [param lines] (each [code]{"text", "kind", "indent"}[/code]).
static func add_lines(log: RichTextLabel, lines: Array) -> void:
	for line: Variant in lines:
		if line is Dictionary and not str(line.get("text", "")).is_empty():
			add_line(
				log,
				str(line.get("text", "")),
				str(line.get("kind", "info")),
				int(line.get("indent", 0))
			)


## Adds one line of [param kind], indented when [param indent] is above zero.
static func add_line(log: RichTextLabel, text: String, kind: String, indent: int = 0) -> void:
	var color: String = COLORS.get(kind, "e6e1f0")
	var line := "[color=#%s]%s[/color]" % [color, text.replace("[", "[lb]")]
	if indent > 0:
		line = "[indent]%s[/indent]" % line
	log.append_text(line + "\n")
