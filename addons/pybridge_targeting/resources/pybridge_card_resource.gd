@tool
class_name PyBridgeCardResource
extends "res://addons/pybridge_targeting/resources/pybridge_document_resource.gd"
## A card definition (docs/format.md, "Card definitions and libraries"). Its other keys
## ([code]target_count[/code], [code]card_targets[/code], [code]playable_if[/code]...) are in
## [member extra].

const BehaviorResource := preload(
	"res://addons/pybridge_targeting/resources/pybridge_behavior_resource.gd"
)

## The card's id, unique in its library or battle.
@export var id: String = ""
## The name a player reads.
@export var name: String = ""
## A free id card filters read.
@export var type: String = "skill"
## A free id card filters read.
@export var rarity: String = "common"
## Energy to play it.
@export_range(0, 99) var cost: int = 0
## The target mode, one of the runtime's.
@export var target: String = ""
## Player-facing text; empty: the runtime's own description.
@export_multiline var text: String = ""
## Ids card filters read.
@export var tags: PackedStringArray = PackedStringArray()
## Keywords, the runtime's or the game's.
@export var keywords: PackedStringArray = PackedStringArray()
## A [code]res://[/code] path to the card's art, for hosts to draw.
@export_file var art: String = ""
## The graph the card runs.
@export var behavior: PyBridgeBehaviorResource = null


func _keys() -> Dictionary:
	return {
		"id": null,
		"name": null,
		"type": null,
		"rarity": null,
		"cost": null,
		"target": null,
		"text": null,
		"tags": null,
		"keywords": null,
		"art": null,
		"behavior": BehaviorResource,
	}
