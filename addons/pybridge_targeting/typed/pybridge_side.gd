@tool
extends RefCounted
## A card-playing side: its energy, its draws and its piles. A battle between two card-playing
## sides has two ([member PyBridge.BattleState.sides]); a one-sided battle has one, the
## player's, made from the state's own fields.

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["side"]
## Fields whose own fields are properties here: the piles.
const INLINE := ["piles"]
const Shapes := preload("res://addons/pybridge_targeting/transport/pybridge_shapes.gd")

## Its team: [code]player[/code] or [code]enemy[/code].
var team: String = ""
## The unit that plays its cards.
var active_player: String = ""
## Energy left this turn.
var energy: int = 0
## The energy each turn starts with.
var max_energy: int = 0
## The cards drawn each turn.
var draw_per_turn: int = 0
## What happens to its hand at the end of its turn: [code]keep[/code] or [code]discard[/code]
## ([code]""[/code] in a one-sided battle, whose hand is discarded).
var hand_at_turn_end: String = ""
## Its hand, left to right.
var hand: Array[PyBridge.Card] = []
## Its draw pile, top first (in a view: card backs, in an order that tells nothing).
var draw: Array[PyBridge.Card] = []
## Its discard pile, top first.
var discard: Array[PyBridge.Card] = []
## Its exhaust pile, top first.
var exhaust: Array[PyBridge.Card] = []


## The side [param data] (a [code]sides[/code] entry, or a one-sided state) typed.
static func from(data: Dictionary) -> PyBridge.Side:
	var side := PyBridge.Side.new()
	Shapes.fill(side, data)
	return side


## The cards of the pile [param pile_name] ([code]hand[/code], [code]draw[/code],
## [code]discard[/code], [code]exhaust[/code]); empty for another name.
func pile(pile_name: String) -> Array[PyBridge.Card]:
	var cards: Variant = get(pile_name)
	if cards is Array and cards.get_typed_script() == PyBridge.Card:
		return cards
	return []


## The card of its piles with the id [param card_id], or null.
func find_card(card_id: String) -> PyBridge.Card:
	for cards: Array[PyBridge.Card] in [hand, draw, discard, exhaust]:
		for card: PyBridge.Card in cards:
			if card.id == card_id:
				return card
	return null
