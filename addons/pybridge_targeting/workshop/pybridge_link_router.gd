@tool
extends RefCounted
## Draws a graph's links around its nodes. A link whose usual curve crosses no node keeps that
## curve (a link between neighbours looks as it always did); any other link goes out of its
## port, along the gaps between the nodes and into its port, with rounded corners. The route is
## the shortest with the fewest turns on a grid of lines kept clear of every node, so it holds
## for nodes placed by hand as well as after Arrange.

const BehaviorNode := preload("res://addons/pybridge_targeting/workshop/pybridge_graph_node.gd")
## How far a routed line keeps from a node, in graph units (the gap between Arrange's nodes is
## 30 to 50, so a line fits between two of them).
const CLEARANCE := 14.0
## How far a routed line runs straight out of its port before it turns.
const STUB := 18.0
## What a turn costs, as graph units of length: a line with fewer turns reads more easily.
const TURN_COST := 60.0
## The radius of a routed line's corners.
const CORNER := 8.0
## How close the usual curve may pass by a node other than its ends.
const CURVE_CLEARANCE := 4.0


## The rectangles of [param graph]'s shown nodes, as [method route] takes them: in the
## graph's coordinates times its zoom, as GraphEdit gives a link's ends.
static func node_rects(graph: GraphEdit) -> Array[Rect2]:
	var rects: Array[Rect2] = []
	for child in graph.get_children():
		var node := child as GraphNode
		if node != null and node.visible:
			rects.append(Rect2(node.position_offset * graph.zoom, node.size * graph.zoom))
	return rects


## The line from [param from] to [param to] (an output port to an input port), in the same
## coordinates as [param rects], the nodes' rectangles, drawn at [param scale] (the zoom);
## [param curvature] is the graph's, for the usual curve.
static func route(
	from: Vector2, to: Vector2, rects: Array[Rect2], scale: float, curvature: float
) -> PackedVector2Array:
	var curve := bezier(from, to, curvature)
	if not _curve_crosses(curve, rects, from, to, CURVE_CLEARANCE * scale):
		return curve
	var path := _orthogonal(from, to, rects, scale)
	return curve if path.is_empty() else _rounded(path, CORNER * scale)


## GraphEdit's own curve: horizontal out of [param from] and into [param to].
static func bezier(from: Vector2, to: Vector2, curvature: float) -> PackedVector2Array:
	var reach := absf(to.x - from.x) * curvature
	var curve := Curve2D.new()
	curve.add_point(from, Vector2.ZERO, Vector2(reach, 0))
	curve.add_point(to, Vector2(-reach, 0), Vector2.ZERO)
	return curve.tessellate(5, 2.0) if curvature > 0 else PackedVector2Array([from, to])


## Each link of [param graph] as [method GraphEdit.get_connection_line] routes it now, in
## global coordinates, for tools and tests: [code]{from, to, line}[/code] (node ids; the start
## node's is [code]""[/code]).
static func link_lines(graph: GraphEdit) -> Array:
	var out: Array = []
	var to_global := graph.get_global_transform_with_canvas()
	for link: Dictionary in graph.get_connection_list():
		var from := graph.get_node_or_null(NodePath(link["from_node"])) as BehaviorNode
		var to := graph.get_node_or_null(NodePath(link["to_node"])) as BehaviorNode
		if from == null or to == null:
			continue
		var start := from.get_output_port_position(link["from_port"]) + from.position_offset
		var end := to.get_input_port_position(link["to_port"]) + to.position_offset
		var line: Array = []
		for point in graph.get_connection_line(start * graph.zoom, end * graph.zoom):
			line.append(_xy(to_global * (point - graph.scroll_offset)))
		out.append({"from": from.node_id, "to": to.node_id, "line": line})
	return out


## The lines [param graph] has drawn (its connection layer's Line2D nodes), in global
## coordinates: what the designer sees, which must be the lines [method link_lines] gives.
static func drawn_lines(graph: GraphEdit) -> Array:
	var out: Array = []
	var layer := graph.get_node_or_null("_connection_layer")
	if layer == null:
		return out
	for child in layer.get_children(true):
		var line := child as Line2D
		if line != null and line.points.size() >= 2:
			var to_global := line.get_global_transform_with_canvas()
			var points: Array = []
			for point in line.points:
				points.append(_xy(to_global * point))
			out.append(points)
	return out


## Whether the line through [param points] enters one of [param rects].
static func crosses(points: PackedVector2Array, rects: Array[Rect2]) -> bool:
	for i in points.size() - 1:
		for rect in rects:
			if _segment_enters(points[i], points[i + 1], rect):
				return true
	return false


## The usual curve may touch its two ends (at their ports) but no other node, nor come close.
static func _curve_crosses(
	curve: PackedVector2Array, rects: Array[Rect2], from: Vector2, to: Vector2, room: float
) -> bool:
	var kept: Array[Rect2] = []
	for rect in rects:
		var end := rect.grow(2.0).has_point(from) or rect.grow(2.0).has_point(to)
		kept.append(rect.grow(-1.0) if end else rect.grow(room))
	return crosses(curve, kept)


## The corners of the cheapest axis-aligned path from [param from] to [param to] around
## [param rects] (empty when there is none).
static func _orthogonal(
	from: Vector2, to: Vector2, rects: Array[Rect2], scale: float
) -> PackedVector2Array:
	var away := CLEARANCE * scale
	var start := from + Vector2(STUB * scale, 0)
	var goal := to - Vector2(STUB * scale, 0)
	var blocks: Array[Rect2] = []
	var xs := {start.x: true, goal.x: true}
	var ys := {start.y: true, goal.y: true}
	for rect in rects:
		xs[rect.position.x - away] = true
		xs[rect.end.x + away] = true
		ys[rect.position.y - away] = true
		ys[rect.end.y + away] = true
		# A node closer to a stub's end than the clearance is kept clear by less, so the line
		# can still leave between the two; one over it (nodes laid over each other) cannot
		# be gone around at all.
		var room := minf(_reach(rect, start), _reach(rect, goal)) - 1.0
		var block := rect.grow(minf(away - 2.0, room))
		if not _inside(block, start) and not _inside(block, goal):
			blocks.append(block)
	var columns: Array = xs.keys()
	var rows: Array = ys.keys()
	columns.sort()
	rows.sort()
	var path := _cheapest(columns, rows, start, goal, blocks, TURN_COST * scale)
	if path.is_empty():
		return path
	path.insert(0, from)
	path.append(to)
	return _corners(path)


## Dijkstra over the grid of [param columns] x [param rows], each state a point and the way
## the line runs there (0 across, 1 up or down), moving only along segments clear of
## [param blocks]; a turn costs [param turn].
@warning_ignore("integer_division")
static func _cheapest(
	columns: Array, rows: Array, start: Vector2, goal: Vector2, blocks: Array[Rect2], turn: float
) -> PackedVector2Array:
	var width := columns.size()
	var height := rows.size()
	var count := width * height
	var clear := _clear_segments(columns, rows, blocks)
	var first := rows.find(start.y) * width + columns.find(start.x)
	var last := rows.find(goal.y) * width + columns.find(goal.x)
	var cost := PackedFloat64Array()
	cost.resize(count * 2)
	cost.fill(INF)
	var back := PackedInt32Array()
	back.resize(count * 2)
	back.fill(-1)
	cost[first * 2] = 0.0  # it leaves its port across
	var open: Array[Vector2] = [Vector2(0.0, first * 2)]
	var by_cost := func(a: Vector2, b: Vector2) -> bool: return a.x > b.x
	while not open.is_empty():
		var item: Vector2 = open.pop_back()
		var state := int(item.y)
		if item.x > cost[state] + 0.01:  # a later, cheaper way was found (the queue is float32)
			continue
		var at := state >> 1
		var column := at % width
		var row := at / width
		var here := Vector2(columns[column], rows[row])
		for move in 4:
			var to := -1
			match move:
				0:
					to = at + 1 if column + 1 < width and clear[2 * at] == 1 else -1
				1:
					to = at - 1 if column > 0 and clear[2 * at - 2] == 1 else -1
				2:
					to = at + width if row + 1 < height and clear[2 * at + 1] == 1 else -1
				3:
					to = at - width if row > 0 and clear[2 * (at - width) + 1] == 1 else -1
			if to < 0:
				continue
			var way := move >> 1  # 0: across, 1: up or down
			var next := to * 2 + way
			var spent: float = (
				cost[state] + here.distance_to(Vector2(columns[to % width], rows[to / width]))
			)
			spent += turn if way != state & 1 else 0.0
			# Of two ways as short, the one that turns up or down nearer its end: the line
			# then runs level past the nodes between and meets the other links at their port.
			spent += absf(here.x - goal.x) * 0.002 if way == 1 else 0.0
			if spent < cost[next]:
				cost[next] = spent
				back[next] = state
				var entry := Vector2(spent, next)
				open.insert(open.bsearch_custom(entry, by_cost), entry)
	# It enters its port across: arriving up or down costs one more turn.
	var state := last * 2 if cost[last * 2] <= cost[last * 2 + 1] + turn else last * 2 + 1
	if cost[state] == INF:
		return PackedVector2Array()
	var path := PackedVector2Array()
	while state >= 0:
		path.insert(0, Vector2(columns[(state >> 1) % width], rows[(state >> 1) / width]))
		state = back[state]
	return path


## Which segments of the grid are clear of [param blocks]: at [code]2 * i[/code] the one from
## point [code]i[/code] to the next on its right, at [code]2 * i + 1[/code] to the next below.
static func _clear_segments(columns: Array, rows: Array, blocks: Array[Rect2]) -> PackedByteArray:
	var width := columns.size()
	var clear := PackedByteArray()
	clear.resize(width * rows.size() * 2)
	for row in rows.size():
		for column in width:
			var here := Vector2(columns[column], rows[row])
			var i := row * width + column
			if column + 1 < width:
				var right := Vector2(columns[column + 1], here.y)
				clear[2 * i] = 1 if _clear(here, right, blocks) else 0
			if row + 1 < rows.size():
				var below := Vector2(here.x, rows[row + 1])
				clear[2 * i + 1] = 1 if _clear(here, below, blocks) else 0
	return clear


## [param path] without the points that lie on a straight run.
static func _corners(path: PackedVector2Array) -> PackedVector2Array:
	var kept := PackedVector2Array([path[0]])
	for i in range(1, path.size() - 1):
		var before := kept[kept.size() - 1]
		var after := path[i + 1]
		var straight := (
			(is_equal_approx(before.x, path[i].x) and is_equal_approx(path[i].x, after.x))
			or (is_equal_approx(before.y, path[i].y) and is_equal_approx(path[i].y, after.y))
		)
		if not straight and not path[i].is_equal_approx(before):
			kept.append(path[i])
	kept.append(path[path.size() - 1])
	return kept


## [param path] with each corner cut by a curve of radius [param radius] (at most half of
## either side), which stays inside the corner's clearance.
static func _rounded(path: PackedVector2Array, radius: float) -> PackedVector2Array:
	var out := PackedVector2Array([path[0]])
	for i in range(1, path.size() - 1):
		var corner := path[i]
		var into := corner - path[i - 1]
		var away := path[i + 1] - corner
		var r := minf(radius, minf(into.length(), away.length()) * 0.5)
		var enter := corner - into.normalized() * r
		var leave := corner + away.normalized() * r
		for k in 5:
			var t := k / 4.0
			out.append(enter.lerp(corner, t).lerp(corner.lerp(leave, t), t))
	out.append(path[path.size() - 1])
	return out


static func _clear(a: Vector2, b: Vector2, blocks: Array[Rect2]) -> bool:
	for block in blocks:
		if _segment_enters(a, b, block):
			return false
	return true


## How far [param point] is outside [param rect], along the axis where it is furthest (0
## inside): the most [param rect] can grow without covering it.
static func _reach(rect: Rect2, point: Vector2) -> float:
	var across := maxf(rect.position.x - point.x, point.x - rect.end.x)
	var down := maxf(rect.position.y - point.y, point.y - rect.end.y)
	return maxf(maxf(across, down), 0.0)


static func _inside(rect: Rect2, point: Vector2) -> bool:
	return (
		point.x > rect.position.x
		and point.x < rect.end.x
		and point.y > rect.position.y
		and point.y < rect.end.y
	)


## Whether the segment [param a]-[param b] passes through the inside of [param rect] (touching
## its border is not entering it): the segment clipped to the rectangle (Liang-Barsky).
static func _segment_enters(a: Vector2, b: Vector2, rect: Rect2) -> bool:
	var low := 0.0
	var high := 1.0
	var d := b - a
	for axis in 2:
		var lo := rect.position[axis]
		var hi := rect.end[axis]
		if is_zero_approx(d[axis]):
			if a[axis] <= lo or a[axis] >= hi:
				return false
			continue
		var t0 := (lo - a[axis]) / d[axis]
		var t1 := (hi - a[axis]) / d[axis]
		low = maxf(low, minf(t0, t1))
		high = minf(high, maxf(t0, t1))
		if low >= high:
			return false
	return true


static func _xy(point: Vector2) -> Array:
	return [roundi(point.x), roundi(point.y)]
