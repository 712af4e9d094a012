@tool
class_name PyBridgeBattleResource
extends "res://addons/pybridge_targeting/resources/pybridge_document_resource.gd"
## A battle document, an encounter (docs/format.md, "Battle fields"): its units, its own
## cards, statuses, moves and piles. Keys without a property here ([code]reshuffle[/code],
## [code]result[/code], [code]cut[/code], [code]visibility[/code], [code]extensions[/code]...)
## are in [member extra]. Its cards may come from card libraries
## ([PyBridgeLibraryResource]) opened beside it, and its draw piles from a [member deck].

const CardResource := preload("res://addons/pybridge_targeting/resources/pybridge_card_resource.gd")
const UnitResource := preload("res://addons/pybridge_targeting/resources/pybridge_unit_resource.gd")

## The document's format and version, as the runtime names it.
@export var format: String = ""
## Seeds the battle's random numbers.
@export var seed: int = 0
## The turn it is.
@export var turn: int = 1
## Energy left this turn; -1: not given (the runtime starts at [member max_energy]).
@export var energy: int = -1
## Energy per turn.
@export var max_energy: int = 3
## Cards drawn when a turn starts.
@export var draw_per_turn: int = 5
## The rule profile's name.
@export var rules: String = "soft"
## The unit that plays cards without an owner (a one-sided battle).
@export var active_player: String = ""
## The battle's units.
@export var units: Array[PyBridgeUnitResource] = []
## Cards of the battle's own, beside its libraries'.
@export var cards: Array[PyBridgeCardResource] = []
## Status definitions, as the document gives them.
@export var statuses: Array[Dictionary] = []
## Enemy moves, as the document gives them.
@export var moves: Array[Dictionary] = []
## Pile name -> card instances ([code]{"id", "card", "owner"}[/code]), top first.
@export var piles: Dictionary = {}
## The two card-playing sides, as the document gives them; empty: a one-sided battle.
@export var sides: Array[Dictionary] = []
## Whose turn it is in a battle with [member sides].
@export var turn_side: String = "player"
## The deck lists each side's draw pile is dealt from, below the cards the piles hold; null:
## the piles as they are. Not a key of the document: [method write] deals it.
@export var deck: PyBridgeDeckResource = null


## A battle read from the JSON [param text]; null when it is not a JSON object.
static func from_json(text: String) -> PyBridgeBattleResource:
	var parsed: Variant = JSON.parse_string(text)
	if not parsed is Dictionary:
		return null
	return PyBridgeBattleResource.new().read(parsed)


## The battle document, its [member deck] dealt into the draw piles.
func write() -> Dictionary:
	var out := super.write()
	if deck != null:
		deck.deal_into(out)
	return out


func _keys() -> Dictionary:
	return {
		"format": null,
		"seed": null,
		"turn": null,
		"energy": null,
		"max_energy": null,
		"draw_per_turn": null,
		"rules": null,
		"active_player": null,
		"units": UnitResource,
		"cards": CardResource,
		"statuses": null,
		"moves": null,
		"piles": null,
		"sides": null,
		"turn_side": null,
	}
