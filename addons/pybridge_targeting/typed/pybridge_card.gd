@tool
extends RefCounted
## A card instance in a pile or on the Cut, as the runtime lists it. In a view, a card the
## viewer may not see is a card back: only its [member id] is set.

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["card"]
const Shapes := preload("res://addons/pybridge_targeting/transport/pybridge_shapes.gd")

## The instance's id (in a view, the viewer's own id for it).
var id: String = ""
## Its card definition's id ([code]""[/code]: a card back).
var card: String = ""
## The unit that plays it ([code]""[/code]: its side's active player).
var owner: String = ""
## Whether it lies face down.
var face_down: bool = false


## The card instance [param data] typed.
static func from(data: Dictionary) -> PyBridge.Card:
	var instance := PyBridge.Card.new()
	Shapes.fill(instance, data)
	return instance


## Whether it is a card back: the viewer may not see its face.
func is_back() -> bool:
	return card.is_empty()
