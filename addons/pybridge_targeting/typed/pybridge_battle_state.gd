@tool
extends RefCounted
## A battle state (or a view of it) as the runtime sent it, typed: the turn, the units, each
## card-playing side with its energy and piles, what waits on the Cut, the battle counters.
## A one-sided battle has one side, the player's, made from the state's own fields; a battle
## between two card-playing sides has both and says whose turn it is.

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["state"]
## Fields of that shape it leaves out, with why.
const LEFT_OUT := {
	"active_player": "a one-sided state's: in its side",
	"energy": "a one-sided state's: in its side",
	"max_energy": "a one-sided state's: in its side",
	"draw_per_turn": "a one-sided state's: in its side",
	"piles": "a one-sided state's: in its side",
	"format": "the saved document's",
	"seed": "the authority's",
	"rng": "the authority's",
	"secret": "the authority's",
	"stints": "the authority's",
	"visibility": "the saved document's",
	"deck_lists": "the saved document's",
	"extensions": "the saved document's",
}
const Shapes := preload("res://addons/pybridge_targeting/transport/pybridge_shapes.gd")

## The turn, from 1.
var turn: int = 0
## Whose turn it is in a battle between two card-playing sides ([code]""[/code]: one side).
var turn_side: String = ""
## [code]victory[/code], [code]defeat[/code], or [code]""[/code] while it goes on.
var result: String = ""
## The rule profile: [code]soft[/code] or [code]strict[/code].
var rules: String = ""
## Whether an empty draw pile takes the discard pile.
var reshuffle: bool = false
## The number of the next Cut entry.
var next_entry: int = 0
## Every unit, in order.
var units: Array[PyBridge.Unit] = []
## The card-playing sides, the player's first.
var sides: Array[PyBridge.Side] = []
## What waits on the Cut, bottom first.
var cut: Array[PyBridge.CutEntry] = []
## The battle counters the game's extensions declare: name -> value (one left out is at its
## default, [code]schema[/code]'s [code]counters[/code]).
var counters: Dictionary[String, int] = {}
## The card definitions (docs/format.md).
var cards: Array[Dictionary] = []
## The status definitions.
var statuses: Array[Dictionary] = []
## The move definitions.
var moves: Array[Dictionary] = []
## In a view: whose it is ([code]viewer[/code]); empty in the authority's state.
var view: Dictionary = {}


## The battle state [param data] (a [code]state[/code] or [code]view[/code]) typed.
static func from(data: Dictionary) -> PyBridge.BattleState:
	var state := PyBridge.BattleState.new()
	Shapes.fill(state, data)
	if not data.has("sides") and data.has("active_player"):
		var side := PyBridge.Side.from(data)
		side.team = "player"
		state.sides.append(side)
	return state


## The unit [param unit_id], or null.
func unit(unit_id: String) -> PyBridge.Unit:
	for found: PyBridge.Unit in units:
		if found.id == unit_id:
			return found
	return null


## The side of [param team]; with [code]""[/code], the side whose turn it is (a one-sided
## battle's only side). Null when there is none.
func side(team: String = "") -> PyBridge.Side:
	var wanted := team if not team.is_empty() else turn_side
	for found: PyBridge.Side in sides:
		if wanted.is_empty() or found.team == wanted:
			return found
	return null


## The card definition [param definition_id] (empty when unknown).
func definition(definition_id: String) -> Dictionary:
	for found: Dictionary in cards:
		if str(found.get("id", "")) == definition_id:
			return found
	return {}


## Whether the battle has a result.
func is_over() -> bool:
	return not result.is_empty()
