extends "res://suite.gd"
## The Workshop's link router: a link between neighbours keeps GraphEdit's curve, any other link
## goes around every node but touches its own two only at its ports, at any zoom.

const LinkRouter := preload("res://addons/pybridge_targeting/workshop/pybridge_link_router.gd")
const NODE := Vector2(230, 160)
const CURVATURE := 0.5


## A node's rectangle with its corner at [param x], [param y].
func node_at(x: float, y: float) -> Rect2:
	return Rect2(Vector2(x, y), NODE)


## The output port [param down] below the top of [param rect], and an input port likewise.
func out_of(rect: Rect2, down: float = 40.0) -> Vector2:
	return Vector2(rect.end.x, rect.position.y + down)


func into(rect: Rect2, down: float = 40.0) -> Vector2:
	return Vector2(rect.position.x, rect.position.y + down)


func inner(rects: Array[Rect2]) -> Array[Rect2]:
	var out: Array[Rect2] = []
	for rect in rects:
		out.append(rect.grow(-1.0))
	return out


func test_a_link_between_neighbours_keeps_the_usual_curve() -> void:
	var a := node_at(0, 0)
	var b := node_at(280, 60)
	var rects: Array[Rect2] = [a, b, node_at(280, 300)]
	var line := LinkRouter.route(out_of(a), into(b), rects, 1.0, CURVATURE)
	check_eq(line, LinkRouter.bezier(out_of(a), into(b), CURVATURE), "the curve")


func test_a_link_over_a_column_goes_around_the_node_between() -> void:
	var a := node_at(0, 0)
	var middle := node_at(280, 0)
	var b := node_at(560, 0)
	var rects: Array[Rect2] = [a, middle, b]
	var straight := PackedVector2Array([out_of(a), into(b)])
	check(LinkRouter.crosses(straight, [middle]), "drawn straight it crosses")
	var line := LinkRouter.route(out_of(a), into(b), rects, 1.0, CURVATURE)
	check_eq(line[0], out_of(a), "it starts at its port")
	check_eq(line[line.size() - 1], into(b), "it ends at its port")
	check(not LinkRouter.crosses(line, inner(rects)), "it crosses no node: %s" % line)
	var clear := true
	for point in line:
		clear = clear and not middle.grow(LinkRouter.CLEARANCE - 3.0).has_point(point)
	check(clear, "it keeps its distance from the node it goes around")


func test_a_link_back_to_a_node_below_goes_around_both_ends() -> void:
	# Placed by hand: the node fed sits under the one that feeds it, so the link runs back.
	var a := node_at(200, 0)
	var b := node_at(200, 200)
	var rects: Array[Rect2] = [a, b]
	var line := LinkRouter.route(out_of(a), into(b), rects, 1.0, CURVATURE)
	check(
		LinkRouter.crosses(LinkRouter.bezier(out_of(a), into(b), CURVATURE), rects),
		"the usual curve runs through its own nodes"
	)
	check(not LinkRouter.crosses(line, inner(rects)), "the route does not: %s" % line)


func test_the_route_scales_with_the_zoom() -> void:
	var rects: Array[Rect2] = [node_at(0, 0), node_at(280, 0), node_at(560, 30)]
	var whole := LinkRouter.route(out_of(rects[0]), into(rects[2]), rects, 1.0, 0.5)
	var scaled: Array[Rect2] = []
	for rect in rects:
		scaled.append(Rect2(rect.position * 0.8, rect.size * 0.8))
	var zoomed := LinkRouter.route(out_of(rects[0]) * 0.8, into(rects[2]) * 0.8, scaled, 0.8, 0.5)
	var same := whole.size() == zoomed.size()
	for i in mini(whole.size(), zoomed.size()):
		same = same and (whole[i] * 0.8).distance_to(zoomed[i]) < 0.01
	check(same, "at 80 %% the same route, scaled: %s and %s" % [whole, zoomed])


func test_a_node_laid_over_a_port_still_gives_a_line_between_the_ports() -> void:
	var a := node_at(0, 0)
	var b := node_at(560, 0)
	var rects: Array[Rect2] = [a, b, node_at(220, -20), node_at(280, 0)]
	var line := LinkRouter.route(out_of(a), into(b), rects, 1.0, CURVATURE)
	check(line.size() >= 2, "a line")
	check_eq([line[0], line[line.size() - 1]], [out_of(a), into(b)], "from port to port")


func test_a_node_close_in_front_of_a_port_is_gone_around_too() -> void:
	# Placed by hand: 21 units right of the start's port, nearer than the clearance.
	var start := Rect2(Vector2(0, 0), Vector2(120, 60))
	var close := Rect2(Vector2(141, -10), NODE)
	var b := node_at(660, 0)
	var rects: Array[Rect2] = [start, close, b]
	var from := Vector2(start.end.x, 48)
	var line := LinkRouter.route(from, into(b), rects, 1.0, CURVATURE)
	check(LinkRouter.crosses(PackedVector2Array([from, into(b)]), [close]), "straight")
	check(not LinkRouter.crosses(line, inner(rects)), "around it: %s" % line)
