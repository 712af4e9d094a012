@tool
extends RefCounted
## Lays a graph out left to right along its links: each node one column right of the
## furthest node that links into it, the nodes of a column stacked in the order of what feeds
## them, so that a Behavior reads the way it runs (sources, then selectors, then actions).

## Space between columns and between the nodes of a column, in graph units.
const GAP := Vector2(50, 30)


## New positions (node -> [Vector2]) for [param nodes] (each with its drawn size), linked by
## [param links] ([code][from, to][/code] pairs of those nodes), starting at [param origin];
## [param first] goes on top of its column (the start of the flow).
static func arrange(
	nodes: Array[GraphNode], links: Array, origin: Vector2, first: GraphNode = null
) -> Dictionary:
	var column := {}
	for node in nodes:
		column[node] = 0
	# Longest path from the nodes nothing links into; a cycle stops after as many rounds as
	# there are nodes.
	for _pass in nodes.size():
		var moved := false
		for link: Array in links:
			if (
				column.has(link[0])
				and column.has(link[1])
				and link[0] != link[1]
				and column[link[1]] < column[link[0]] + 1
			):
				column[link[1]] = column[link[0]] + 1
				moved = true
		if not moved:
			break
	# The start node goes just left of the node it starts, not in a column of its own at the
	# far left: its link would run straight through every node between.
	if first != null and column.has(first):
		var before := -1
		for link: Array in links:
			if link[0] == first and column.has(link[1]) and link[1] != first:
				before = column[link[1]] - 1 if before < 0 else mini(before, column[link[1]] - 1)
		column[first] = maxi(before, 0)
	var columns: Array[Array] = []
	for node in nodes:
		while columns.size() <= column[node]:
			columns.append([])
		columns[column[node]].append(node)
	var placed := {}
	var x := origin.x
	for i in columns.size():
		var stack: Array = columns[i]
		# Each node near the nodes that feed it: sorted by their average row.
		var row := {}
		for node: GraphNode in stack:
			row[node] = -INF if node == first else _feeding_row(node, links, placed)
		stack.sort_custom(func(a: GraphNode, b: GraphNode) -> bool: return row[a] < row[b])
		var y := origin.y
		var width := 0.0
		for node: GraphNode in stack:
			placed[node] = Vector2(x, y)
			y += node.size.y + GAP.y
			width = maxf(width, node.size.x)
		x += width + GAP.x
	return placed


## New positions for every node of [param graph] (see [method arrange]), from where
## [param first] is.
static func arrange_graph(graph: GraphEdit, first: GraphNode) -> Dictionary:
	var nodes: Array[GraphNode] = []
	for child in graph.get_children():
		if child is GraphNode:
			nodes.append(child)
	var links: Array = []
	for link: Dictionary in graph.get_connection_list():
		var from := graph.get_node_or_null(NodePath(link["from_node"]))
		links.append([from, graph.get_node_or_null(NodePath(link["to_node"]))])
	var origin := first.position_offset if first != null else Vector2.ZERO
	return arrange(nodes, links, origin, first)


static func _feeding_row(node: GraphNode, links: Array, placed: Dictionary) -> float:
	var total := 0.0
	var count := 0
	for link: Array in links:
		if link[1] == node and placed.has(link[0]):
			total += (placed[link[0]] as Vector2).y
			count += 1
	return total / count if count > 0 else node.position_offset.y + 100000.0
