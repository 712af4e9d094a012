@tool
extends RefCounted
## Where the choice of a card that chooses as it resolves comes from: units or cards, from
## which piles, and what could be chosen now. A [code]targets[/code] answer gives it
## ([member PyBridge.Targets.late_choice]), and so does the [code]cut[/code] answer for an entry
## on the Cut ([member PyBridge.CutEntry.late_choice]); the choice itself is made when it
## resolves (the battle view asks the player, see [PyBridge.Choice]).

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["late_choice"]
const Shapes := preload("res://addons/pybridge_targeting/transport/pybridge_shapes.gd")

## When it is made: [code]resolution[/code].
var at: String = ""
## What is chosen: [code]units[/code] or [code]cards[/code].
var chooses: String = ""
## The piles its cards come from (a choice of cards only).
var zones: PackedStringArray = PackedStringArray()
## What could be chosen now (the cards its viewer sees; its owner's view: every card the
## search finds, in id order).
var candidates: PackedStringArray = PackedStringArray()
## Its owner's view: the card each candidate it could not see otherwise is, by id.
var faces: Dictionary[String, String] = {}


## The late choice [param data] (a [code]late_choice[/code] of an answer) typed.
static func from(data: Dictionary) -> PyBridge.LateChoice:
	var choice := PyBridge.LateChoice.new()
	Shapes.fill(choice, data)
	return choice
