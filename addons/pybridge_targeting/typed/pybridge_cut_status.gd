@tool
extends RefCounted
## The runtime's [code]cut[/code] answer, typed: what waits on the Cut, bottom first, whose
## answer the top entry waits for, and what the player may do now by the same checks the
## operations make (a UI enables its controls by it). The battle view hands it out with
## [signal PyBridgeBattleView.cut_status_changed].

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["cut_status"]
## Fields of that shape held under another name.
const RENAMED := {"cut": "entries"}
const Shapes := preload("res://addons/pybridge_targeting/transport/pybridge_shapes.gd")
const Sentences := preload("res://addons/pybridge_targeting/pybridge_sentences.gd")

## The entries, bottom first, each with its late choice.
var entries: Array[PyBridge.CutEntry] = []
## The side the answer is for (two card-playing sides only; [code]""[/code] otherwise).
var side: String = ""
## Whose answer the top entry waits for: [code]player[/code] or [code]enemy[/code]
## ([code]""[/code]: the Cut is empty).
var awaiting: String = ""
## The entry that waits for a choice before it resolves ([code]""[/code]: none).
var awaiting_choice: String = ""
## Whether a card may be activated now.
var can_activate: bool = false
## Why not, in the runtime's words ([code]""[/code] when it may).
var activate_reason: String = ""
## The same as a sentence.
var activate_reason_message: Dictionary = {}
## Whether a card may respond to what waits.
var can_respond: bool = false
## Whether something waits to be passed on.
var can_pass: bool = false
## Whether the turn may end now.
var can_end_turn: bool = false
## Why not: the message [code]end_turn[/code] would be refused with ([code]""[/code] when it may).
var end_turn_reason: String = ""
## The same as a sentence.
var end_turn_reason_message: Dictionary = {}
## The line to ask the player with.
var prompt: String = ""
## The same as a sentence.
var prompt_message: Dictionary = {}


## The [code]cut[/code] answer [param data] typed.
static func from(data: Dictionary) -> PyBridge.CutStatus:
	var status := PyBridge.CutStatus.new()
	var rest := data.duplicate()
	rest.erase("cut")
	Shapes.fill(status, rest)
	for entry: Variant in data.get("cut", []):
		if entry is Dictionary:
			status.entries.append(PyBridge.CutEntry.from(entry))
	return status


## [member prompt] in the current locale.
func said_prompt() -> String:
	return Sentences.say(prompt_message if not prompt_message.is_empty() else null, prompt)
