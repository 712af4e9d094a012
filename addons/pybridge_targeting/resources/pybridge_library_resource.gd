@tool
class_name PyBridgeLibraryResource
extends "res://addons/pybridge_targeting/resources/pybridge_document_resource.gd"
## A card library document ([code]{"format", "cards"}[/code], and [code]extensions[/code] in
## [member extra]): a game's card pool, which battles name by card id.

const CardResource := preload("res://addons/pybridge_targeting/resources/pybridge_card_resource.gd")

## The document's format and version, as the runtime names it.
@export var format: String = ""
## The library's cards.
@export var cards: Array[PyBridgeCardResource] = []


## A library read from the JSON [param text]; null when it is not a JSON object.
static func from_json(text: String) -> PyBridgeLibraryResource:
	var parsed: Variant = JSON.parse_string(text)
	if not parsed is Dictionary:
		return null
	return PyBridgeLibraryResource.new().read(parsed)


func _keys() -> Dictionary:
	return {"format": null, "cards": CardResource}
