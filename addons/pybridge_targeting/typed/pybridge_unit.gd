@tool
extends RefCounted
## A unit as the runtime describes it: a unit of a battle state ([PyBridge.BattleState]), or
## what an event's unit looks like after it ([member PyBridge.Event.unit_after]: then only
## [member id] and the fields the runtime tells after an event are set, the others keep their
## defaults). Its properties mirror the runtime's [code]unit[/code] shape ([code]schema[/code]).

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["unit", "unit_after"]
## Fields of those shapes it leaves out, with why.
const LEFT_OUT := {"alive": "unit_after's alive is hp above 0"}
const Shapes := preload("res://addons/pybridge_targeting/transport/pybridge_shapes.gd")

## Its id.
var id: String = ""
## Its name.
var name: String = ""
## Its team: [code]player[/code] or [code]enemy[/code].
var team: String = ""
## Its health.
var hp: int = 0
## The most health it can have.
var max_hp: int = 0
## Its armor, spent before health.
var armor: int = 0
## Status id -> stacks.
var statuses: Dictionary[String, int] = {}
## Where it stands: [code]field[/code] or [code]reserve[/code].
var zone: String = ""
## The move an enemy telegraphs: [code]move[/code], [code]target[/code] and, in a state, its
## [code]forecast[/code] (the runtime's words and numbers for the intent); empty: none.
var intent: Dictionary = {}
## Its tags.
var tags: PackedStringArray = PackedStringArray()
## Its tier (1: a regular unit).
var tier: int = 0
## The ids of an enemy's moves.
var moves: PackedStringArray = PackedStringArray()
## The path of its portrait ([code]""[/code]: none).
var art: String = ""


## The unit [param data] (a unit of a state, or an event's [code]unit_after[/code]) typed.
static func from(data: Dictionary) -> PyBridge.Unit:
	var unit := PyBridge.Unit.new()
	Shapes.fill(unit, data)
	return unit


## The stacks of [param status] it has (0: none).
func stacks(status: String) -> int:
	return statuses.get(status, 0)
