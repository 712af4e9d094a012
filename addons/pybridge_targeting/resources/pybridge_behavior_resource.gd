@tool
class_name PyBridgeBehaviorResource
extends "res://addons/pybridge_targeting/resources/pybridge_document_resource.gd"
## A Behavior graph: the node its flow starts at and its nodes.

const NodeResource := preload("res://addons/pybridge_targeting/resources/pybridge_node_resource.gd")

## The id of the flow node run first.
@export var start: String = ""
## The graph's nodes.
@export var nodes: Array[PyBridgeNodeResource] = []


func _keys() -> Dictionary:
	return {"start": null, "nodes": NodeResource}
