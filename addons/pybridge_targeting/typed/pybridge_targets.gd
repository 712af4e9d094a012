@tool
extends RefCounted
## The runtime's [code]targets[/code] answer for a card: its mode, what it may be aimed at,
## what a play now affects, and whether it can be played now (and why not).

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["targets"]
## The class of each property that holds one typed object, for the reader
## ([code]transport/pybridge_shapes.gd[/code]): Godot's property list names only [RefCounted]
## for a class without a global name.
const CLASSES := {
	"late_choice": preload("res://addons/pybridge_targeting/typed/pybridge_late_choice.gd"),
}
const Shapes := preload("res://addons/pybridge_targeting/transport/pybridge_shapes.gd")

## The card instance.
var card: String = ""
## Its target mode.
var mode: String = ""
## Whether the player aims it at a unit (an arrow).
var requires_target: bool = false
## The unit that plays it.
var source: String = ""
## The units it may be aimed at.
var candidates: PackedStringArray = PackedStringArray()
## The units its mode reaches.
var range: PackedStringArray = PackedStringArray()
## The units a play now acts on: what a UI lights.
var affects: PackedStringArray = PackedStringArray()
## For a viewer: [code]affects[/code] stops where the RNG decides ([code]from[/code],
## [code]count[/code]; empty when it does not).
var random: Dictionary = {}
## For a viewer: [code]affects[/code] stops at a card it cannot see ([code]side[/code],
## [code]pile[/code]; empty when it does not).
var hidden: Dictionary = {}
## Whether it can be played now.
var playable: bool = false
## Why not, in the runtime's words ([code]""[/code] when it can).
var reason: String = ""
## The same as a message ([code]id[/code], [code]params[/code]; empty when it can).
var reason_message: Dictionary = {}
## Why not: [code]code[/code], [code]text[/code], [code]message[/code],
## [code]protected[/code] (empty when it can).
var refusal: Dictionary = {}
## How many units a play takes.
var count: int = 0
## Whether fewer (at least one) may be taken.
var up_to: bool = false
## The count worded for a card's band ([code]""[/code] for one unit).
var count_label: String = ""
## The same as a message (empty for one unit).
var count_label_message: Dictionary = {}
## Whether it chooses as it resolves.
var choose_on_resolve: bool = false
## Where that choice comes from and what it could choose now (null for every other card).
var late_choice: PyBridge.LateChoice = null
## The units a status keeps out of its reach: [code]unit[/code], [code]status[/code],
## [code]protection[/code] each.
var protected: Array[Dictionary] = []
## Its mode's facts, as [code]schema[/code]'s [code]modes[/code] give them.
var facts: Dictionary = {}


## The [code]targets[/code] answer [param data] typed.
static func from(data: Dictionary) -> PyBridge.Targets:
	var answer := PyBridge.Targets.new()
	Shapes.fill(answer, data)
	return answer
