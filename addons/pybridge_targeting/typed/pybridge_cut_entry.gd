@tool
extends RefCounted
## An effect waiting on the Cut: a card played or an enemy's response move, with the targets
## it locked. The battle state lists them ([member PyBridge.BattleState.cut]), bottom first.

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["cut_entry"]
## The class of each property that holds one typed object, for the reader
## ([code]transport/pybridge_shapes.gd[/code]): Godot's property list names only [RefCounted]
## for a class without a global name.
const CLASSES := {
	"card": preload("res://addons/pybridge_targeting/typed/pybridge_card.gd"),
	"late_choice": preload("res://addons/pybridge_targeting/typed/pybridge_late_choice.gd"),
}
const Shapes := preload("res://addons/pybridge_targeting/transport/pybridge_shapes.gd")

## Its id: [code]e[/code] and a number.
var id: String = ""
## The side that put it on the Cut: [code]player[/code] or [code]enemy[/code].
var side: String = ""
## The unit that plays it.
var source: String = ""
## Its locked targets.
var targets: PackedStringArray = PackedStringArray()
## The range an "all ~" effect collected.
var collected: PackedStringArray = PackedStringArray()
## Whether the enemies had their chance to respond to it (two sides: the other side passed
## and it waits for its owner's choice).
var answered: bool = false
## Its card (null for a move).
var card: PyBridge.Card = null
## Its move ([code]""[/code] for a card).
var move: String = ""
## In the [code]cut[/code] answer: what a card that chooses on resolve may choose now; null
## otherwise.
var late_choice: PyBridge.LateChoice = null


## The Cut entry [param data] (of a state, or of the [code]cut[/code] answer) typed.
static func from(data: Dictionary) -> PyBridge.CutEntry:
	var entry := PyBridge.CutEntry.new()
	Shapes.fill(entry, data)
	return entry
