@tool
extends RefCounted
## A choice an action asks while it resolves (a Scry's "which cards go back on top"), as the
## runtime's [code]choice_needed[/code] error gives it: what is asked, of which options, how
## many. The battle view asks the player and sends the answer in the request's
## [code]choices[/code] under [member key]; [member PyBridge.Choice.asked_choice] holds it while
## the choice is made.

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["asked_choice"]
const Shapes := preload("res://addons/pybridge_targeting/transport/pybridge_shapes.gd")
const Sentences := preload("res://addons/pybridge_targeting/pybridge_sentences.gd")

## Where a request's [code]choices[/code] answers it.
var key: String = ""
## The choice kind ([code]schema[/code]'s [code]choices[/code]).
var kind: String = ""
## The node of the Behavior that asks it.
var node: String = ""
## The Cut entry that resolves ([code]""[/code]: a play).
var entry: String = ""
## The side that makes it ([code]player[/code] or [code]enemy[/code]): only it answers.
var side: String = ""
## The card whose Behavior asks it ([code]""[/code]: none).
var card: String = ""
## What is chosen: [code]units[/code] or [code]cards[/code].
var chooses: String = ""
## The piles its cards are in (a choice of cards only).
var zones: PackedStringArray = PackedStringArray()
## What the player is asked, as the schema words it ([code]english[/code], [code]id[/code]).
var prompt: Dictionary = {}
## The same as a message ([code]id[/code], [code]params[/code]).
var prompt_message: Dictionary = {}
## What may be chosen, in the runtime's order (none for a viewer the choice's visibility does
## not show them to).
var options: PackedStringArray = PackedStringArray()
## How many options there are.
var count: int = 0
## The card each option is, by option id, where the choice's visibility shows it.
var faces: Dictionary[String, String] = {}
## The fewest to choose.
var minimum: int = 0
## The most to choose.
var maximum: int = 0
## Whether the order of the answer matters.
var ordered: bool = false
## Who sees the options.
var visibility: String = ""


## The choice [param data] (the [code]choice[/code] of a [code]choice_needed[/code] error)
## typed.
static func from(data: Dictionary) -> PyBridge.AskedChoice:
	var choice := PyBridge.AskedChoice.new()
	Shapes.fill(choice, data)
	return choice


## What the player is asked, in the current locale ([PyBridge.Sentences]).
func prompt_text() -> String:
	return Sentences.say(prompt_message, str(prompt.get("english", "")))
