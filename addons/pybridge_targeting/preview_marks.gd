@tool
class_name PreviewMarks
extends RefCounted
## What a play would do to each unit, as the runtime words it ([code]preview[/code]'s
## [code]marks[/code]), coloured by kind and asked once per card and target while the battle
## does not change.

## Colour of each mark kind the runtime uses (the protocol's [code]log_kinds[/code]).
var colors: Dictionary = {
	"damage": Color("ff6b5a"),
	"block": Color("aab8d6"),
	"heal": Color("7dff9a"),
	"buff": Color("d6b8ff"),
	"death": Color("ff8a80"),
	"info": Color("e6e1f0"),
}

var _asked: Dictionary = {}


## Forgets every answer (the battle changed).
func clear() -> void:
	_asked.clear()


## Unit id -> [code][{"text", "color"}][/code] for playing [param card_id] at
## [param target_id], asked of [param bridge] the first time.
func lines_for(bridge: PyBridgeClient, card_id: String, target_id: String) -> Dictionary:
	var key := card_id + ">" + target_id
	if not _asked.has(key):
		_asked[key] = bridge.preview(card_id, target_id).get("marks", {})
	var lines := {}
	var marks: Dictionary = _asked[key]
	for unit_id: Variant in marks:
		var unit_lines: Array[Dictionary] = []
		for mark: Variant in marks[unit_id]:
			var kind := str(mark.get("kind", "info"))
			unit_lines.append({"text": str(mark.get("text", "")),
					"color": colors.get(kind, Color.WHITE)})
		lines[str(unit_id)] = unit_lines
	return lines
