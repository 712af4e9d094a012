@tool
class_name PyBridgeUnitResource
extends "res://addons/pybridge_targeting/resources/pybridge_document_resource.gd"
## A unit of a battle (docs/format.md, "Battle fields"). [code]intent[/code] and other keys
## are in [member extra].

## The unit's id, unique in its battle.
@export var id: String = ""
## The name a player reads.
@export var name: String = ""
## [code]player[/code] or [code]enemy[/code].
@export var team: String = ""
## Health now.
@export var hp: int = 0
## Health at most.
@export var max_hp: int = 0
## Absorbs damage before health.
@export var armor: int = 0
## A free integer unit filters read.
@export var tier: int = 1
## Ids unit filters read.
@export var tags: PackedStringArray = PackedStringArray()
## Status name -> stacks.
@export var statuses: Dictionary = {}
## The ids of the moves an enemy makes.
@export var moves: PackedStringArray = PackedStringArray()
## [code]field[/code] or [code]reserve[/code].
@export var zone: String = "field"
## A [code]res://[/code] path to the unit's portrait, for hosts to draw.
@export_file var art: String = ""


func _keys() -> Dictionary:
	return {
		"id": null,
		"name": null,
		"team": null,
		"hp": null,
		"max_hp": null,
		"armor": null,
		"tier": null,
		"tags": null,
		"statuses": null,
		"moves": null,
		"zone": null,
		"art": null,
	}
