@tool
class_name PyBridgeLogLine
extends RefCounted
## A line of the runtime's battle log: its English [member text], what it tells
## ([member kind]) and the same as a sentence ([member message]), which [method sentence]
## says in the player's language. A playback step shows one ([member PyBridgeStep.line]).

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["log_line"]
const Shapes := preload("res://addons/pybridge_targeting/transport/pybridge_shapes.gd")
const Sentences := preload("res://addons/pybridge_targeting/pybridge_sentences.gd")

## The line in English.
var text: String = ""
## What it tells ([code]schema[/code]'s [code]log_kinds[/code]: [code]damage[/code],
## [code]turn[/code]...).
var kind: String = ""
## How far it is indented under the line it belongs to.
var indent: int = 0
## The line as a message: [code]id[/code] and typed [code]params[/code] (empty: none).
var message: Dictionary = {}
## The index of the first event it tells, in its answer's [code]events[/code].
var event: int = 0


## The log line [param data] typed.
static func from(data: Dictionary) -> PyBridgeLogLine:
	var line := PyBridgeLogLine.new()
	Shapes.fill(line, data)
	return line


## The line as a sentence in the current locale (its English where there is no translation).
func sentence() -> String:
	return Sentences.say(message if not message.is_empty() else null, text)
