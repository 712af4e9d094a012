@tool
extends RefCounted
## A line of the runtime's battle log: its English, what it tells, its indent, and the same as a
## sentence for translation. An answer that changes the battle gives its lines
## ([member PyBridge.Outcome.log_lines]), and a playback step its own
## ([member PyBridge.Step.line]). The host shows them; it never words events itself.

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["log_line"]
const Shapes := preload("res://addons/pybridge_targeting/transport/pybridge_shapes.gd")
const Sentences := preload("res://addons/pybridge_targeting/pybridge_sentences.gd")

## The line in English.
var text: String = ""
## What it tells ([code]schema[/code]'s [code]log_kinds[/code]: a play, damage...), for its
## colour.
var kind: String = ""
## How far it is indented under the line it belongs to.
var indent: int = 0
## The line as a sentence ([code]{"id", "params"}[/code], docs/translation.md); empty: none.
var message: Dictionary = {}
## The index of the first event it tells in its answer's events ([code]-1[/code]: none).
var event: int = -1


## The log line [param data] (a line of an answer's [code]log[/code]) typed.
static func from(data: Dictionary) -> PyBridge.LogLine:
	var line := PyBridge.LogLine.new()
	Shapes.fill(line, data)
	return line


## The lines [param lines] (an answer's [code]log[/code]) typed.
static func list_from(lines: Array) -> Array[PyBridge.LogLine]:
	var typed: Array[PyBridge.LogLine] = []
	for data: Variant in lines:
		if data is Dictionary:
			typed.append(from(data))
	return typed


## The line in the current locale, its English where there is no translation.
func sentence() -> String:
	return Sentences.say(message if not message.is_empty() else null, text)
