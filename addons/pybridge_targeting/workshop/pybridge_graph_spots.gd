@tool
extends RefCounted
## Where things go in a [code]BehaviorGraph[/code]: a free spot in view for a new node or a pasted
## group, the box a copied group takes, and the start node's place on a card's first showing.

const BehaviorNode := preload("res://addons/pybridge_targeting/workshop/pybridge_graph_node.gd")
const CardDocument := preload("res://addons/pybridge_targeting/workshop/pybridge_card_document.gd")
const BehaviorGraph := preload(
	"res://addons/pybridge_targeting/workshop/pybridge_behavior_graph.gd"
)


## A free spot in [param graph]'s view for something of size [param room]: the first place,
## left to right and top to bottom, where it covers no node, neither those drawn nor those of
## [param card] added since it was last drawn.
static func free_spot(graph: BehaviorGraph, room: Vector2, card: Dictionary) -> Vector2:
	var taken: Array[Rect2] = []
	for child in graph.get_children():
		if child is GraphNode:
			var node := child as GraphNode
			taken.append(Rect2(node.position_offset, node.size).grow(12))
	# Nodes added since the graph was last drawn (several clicks in one frame).
	for node: Variant in CardDocument.nodes_of(card):
		if node is Dictionary and node.has("at"):
			var at := CardDocument.node_at(node, Vector2.ZERO)
			taken.append(Rect2(at, graph.estimated_size(str(node.get("type", "")))).grow(12))
	var view := Rect2(graph.scroll_offset / graph.zoom, graph.size / graph.zoom)
	var top_left := view.position + Vector2(24, 64)
	var start := graph.start_node
	if start != null and view.has_point(start.position_offset):
		# Right of the start node, in columns, so that the flow reads left to right.
		top_left = start.position_offset + Vector2(start.size.x + 30, 0)
	var step := Vector2(room.x + 30, 20)
	var snap := Vector2(graph.snapping_distance, graph.snapping_distance)
	for row in 60:
		for column in 8:
			var spot := (top_left + Vector2(column * step.x, row * step.y)).snapped(snap)
			if column > 0 and spot.x + room.x > view.end.x:
				break
			var rect := Rect2(spot, room)
			if not taken.any(func(other: Rect2) -> bool: return other.intersects(rect)):
				return spot
	return top_left + Vector2(0, view.size.y)


## The box the nodes of [param clip] (a copied group) take where they are.
static func clip_box(graph: BehaviorGraph, clip: Dictionary) -> Rect2:
	var box := Rect2()
	var first := true
	for node: Variant in clip.get("nodes", []):
		if node is Dictionary:
			var rect := Rect2(
				CardDocument.node_at(node, Vector2.ZERO),
				graph.estimated_size(str(node.get("type", "")))
			)
			box = rect if first else box.merge(rect)
			first = false
	return box


## Where the start node goes on a card's first showing: above the leftmost column, level with
## the first node run ([param first_id]), if that place is free; else just left of that node;
## else left of all ([param leftmost] is the leftmost node's corner).
static func start_place(graph: BehaviorGraph, first_id: String, leftmost: Vector2) -> Vector2:
	if leftmost.x == INF:
		return Vector2.ZERO
	var first: BehaviorNode = graph.graph_nodes.get(first_id)
	var level := first.position_offset.y if first != null else leftmost.y
	var room := Vector2(160, 80)
	var places: Array[Vector2] = [Vector2(leftmost.x, level)]
	if first != null:
		places.append(first.position_offset - Vector2(room.x + 20, 0))
	for place in places:
		var rect := Rect2(place, room)
		var free := true
		for view: BehaviorNode in graph.graph_nodes.values():
			var drawn := view.size.max(graph.estimated_size(view.type_name))
			free = free and not Rect2(view.position_offset, drawn).intersects(rect)
		if free:
			return place
	return Vector2(leftmost.x - room.x - 40, level)


## Frames every node of [param graph], the start node first: scrolls to their top left corner
## and zooms out (not below [code]BehaviorGraph.MIN_FIT_ZOOM[/code]) when they do not
## fit. False when the graph has no size yet, to be framed again once it has.
static func frame(graph: BehaviorGraph) -> bool:
	var box := Rect2()
	var first := true
	for child in graph.get_children():
		var node := child as BehaviorNode
		if node != null:
			var least := (
				graph.estimated_size(node.type_name) if not node.is_start else Vector2(120, 70)
			)
			var rect := Rect2(node.position_offset, node.size.max(least))
			box = rect if first else box.merge(rect)
			first = false
	if first:
		return true
	if graph.size.x < 200 or graph.size.y < 150:
		return false
	var room := graph.size - Vector2(60, 100)
	var fit := minf(room.x / box.size.x, room.y / box.size.y)
	graph.zoom = clampf(fit, BehaviorGraph.MIN_FIT_ZOOM, 1.0)
	graph.scroll_offset = box.position * graph.zoom - Vector2(30, 70)
	return true


## Scrolls [param graph] just enough to show [param view] whole (below the graph's menu).
static func reveal(graph: BehaviorGraph, view: BehaviorNode) -> void:
	var zoom := graph.zoom
	var drawn := view.size.max(graph.estimated_size(view.type_name))
	var rect := Rect2(view.position_offset * zoom - graph.scroll_offset, drawn * zoom)
	var shift := Vector2.ZERO
	var menu := 60.0
	if rect.end.x > graph.size.x:
		shift.x = rect.end.x - graph.size.x + 20
	if rect.position.x + shift.x < 0:
		shift.x = rect.position.x - 20
	if rect.end.y > graph.size.y:
		shift.y = rect.end.y - graph.size.y + 20
	if rect.position.y + shift.y < menu:
		shift.y = rect.position.y - menu
	graph.scroll_offset += shift
