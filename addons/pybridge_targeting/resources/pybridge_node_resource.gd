@tool
class_name PyBridgeNodeResource
extends "res://addons/pybridge_targeting/resources/pybridge_document_resource.gd"
## One node of a Behavior graph: its id, its type's name and every other key of the node
## (its fields, [code]ports[/code], [code]next[/code], [code]at[/code]) in [member fields].
## Which fields a type takes is the runtime's vocabulary ([code]schema[/code]), checked by its
## [code]lint[/code], not here.

## The node's id, unique in its Behavior.
@export var id: String = ""
## The node's type, one of the runtime's node types.
@export var type: String = ""
## The node's fields, ports and links, as the document gives them.
@export var fields: Dictionary = {}


func _keys() -> Dictionary:
	return {"id": null, "type": null}


func _rest_name() -> String:
	return "fields"
