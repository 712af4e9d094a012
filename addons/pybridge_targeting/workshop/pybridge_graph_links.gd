@tool
extends RefCounted
## A card's links as a [code]BehaviorGraph[/code]'s connections: each port fed by a node, each
## exit leading to a flow node, and the start node's link to the node the flow begins at.

const WorkshopSchema := preload(
	"res://addons/pybridge_targeting/workshop/pybridge_workshop_schema.gd"
)
const BehaviorNode := preload("res://addons/pybridge_targeting/workshop/pybridge_graph_node.gd")
const CardDocument := preload("res://addons/pybridge_targeting/workshop/pybridge_card_document.gd")
const BehaviorGraph := preload(
	"res://addons/pybridge_targeting/workshop/pybridge_behavior_graph.gd"
)


## Connects the nodes [param graph] shows for [param card] as the card links them.
static func connect_card(graph: BehaviorGraph, card: Dictionary) -> void:
	var nodes := graph.graph_nodes
	var first: BehaviorNode = nodes.get(CardDocument.start_of(card))
	if first != null and first.input_index("") >= 0 and graph.start_node != null:
		graph.connect_node(graph.start_node.name, 0, first.name, first.input_index(""))
	for child in graph.get_children():
		var view := child as BehaviorNode
		if view == null or view.is_start:
			continue
		var data := CardDocument.node_of(card, view.node_id)
		if data.get("ports") is Dictionary:
			for port: Variant in data["ports"]:
				var from: BehaviorNode = nodes.get(str(data["ports"][port]))
				var to_port := view.input_index(str(port))
				if from != null and from.output_index("") >= 0 and to_port >= 0:
					graph.connect_node(from.name, from.output_index(""), view.name, to_port)
		for exit in graph.schema.exits_of(view.type_name):
			var to: BehaviorNode = nodes.get(str(data.get(exit, "")))
			if to != null and to.input_index("") >= 0:
				graph.connect_node(view.name, view.output_index(exit), to.name, to.input_index(""))


## The kind fed into port [param index] of [param data], a node of [param card], as
## [param schema] names it ([code]""[/code] when unknown): the own output of the node that
## feeds it, or of the node feeding that one, and so on.
static func input_kind(
	schema: WorkshopSchema, card: Dictionary, data: Dictionary, index: int, depth: int = 0
) -> String:
	var ports: Array = schema.node_type(str(data.get("type", ""))).get("ports", [])
	if index >= ports.size() or depth > 64 or not data.get("ports") is Dictionary:
		return ""
	var from := CardDocument.node_of(
		card, str(data["ports"].get(str(ports[index].get("name")), ""))
	)
	if from.is_empty():
		return ""
	var own := schema.own_output(str(from.get("type", "")))
	return own if not own.is_empty() else input_kind(schema, card, from, 0, depth + 1)
