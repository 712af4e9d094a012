@tool
@icon("res://addons/pybridge_targeting/icons/pybridge_aim_arrow.svg")
extends Node2D
## A curved aiming arrow from a card to the pointer, with an arrow head.
##
## The body is a quadratic Bezier curve sampled into a polyline that thickens towards the
## head; the curve bows upwards like a thrown arc. Its colour says what the arrow points at:
## a valid target, an invalid unit, or empty space. Points are in global (canvas) coordinates.
## [br][br]
## [PyBridgeBattleView] makes one and styles it with the theme items of the type
## [code]PyBridgeAimArrow[/code] ([method apply_theme]).

## What the arrow is pointing at.
enum Look {
	EMPTY,  ## Empty space: releasing cancels.
	VALID,  ## A valid target: releasing plays the card.
	INVALID,  ## A unit that is not a valid target.
}

## The theme type of the items [method apply_theme] reads.
const THEME_TYPE := &"PyBridgeAimArrow"

## Colour over a valid target.
var valid_color: Color = Color("ffd54a")
## Colour over a unit that is not a valid target.
var invalid_color: Color = Color("ff5a5a")
## Colour over empty space.
var empty_color: Color = Color("dfe6f5")
## The dark edge drawn under the arrow so it reads on any background.
var outline_color: Color = Color(0.05, 0.04, 0.1, 0.7)
## Width of the body at the head end, in pixels.
var width: float = 10.0
## Length of the head.
var head_length: float = 30.0
## Width of the head at its base.
var head_width: float = 34.0
## How high the curve arcs, as a fraction of the distance it spans.
var bend: float = 0.3
## Straight segments the curve is sampled into.
var segments: int = 32
## Where the arrow starts (the card), global coordinates.
var start_point: Vector2 = Vector2.ZERO
## Where the arrow head points (the pointer or the snapped target), global coordinates.
var end_point: Vector2 = Vector2.ZERO
## What the arrow points at; decides its colour.
var look: Look = Look.EMPTY


func _ready() -> void:
	top_level = true
	z_index = 100
	hide()


func _draw() -> void:
	var body := points()
	if body.size() < 2:
		return
	var color := current_color()
	var tip := to_local(end_point)
	var direction := (tip - body[body.size() - 1]).normalized()
	if direction == Vector2.ZERO:
		direction = Vector2.UP
	var base := tip - direction * head_length
	var side := direction.orthogonal() * head_width * 0.5
	var head := PackedVector2Array([tip, base + side, base - side])
	var stem := _trimmed(body, base)
	var widths := _widths(stem.size())
	# Outline first, then the body as a chain of segments that thicken towards the head.
	for i in stem.size() - 1:
		draw_line(stem[i], stem[i + 1], outline_color, widths[i] + 5.0, true)
	var outline_head := PackedVector2Array(
		[
			tip + direction * 4.0,
			base + side * 1.22 - direction * 3.0,
			base - side * 1.22 - direction * 3.0
		]
	)
	draw_colored_polygon(outline_head, outline_color)
	for i in stem.size() - 1:
		var shade := color.darkened(0.4 * (1.0 - float(i) / maxf(1.0, stem.size() - 2.0)))
		draw_line(stem[i], stem[i + 1], shade, widths[i], true)
		draw_circle(stem[i + 1], widths[i] * 0.5, shade)
	draw_colored_polygon(head, color)
	draw_polyline(
		PackedVector2Array([head[0], head[1], head[2], head[0]]), color.lightened(0.45), 1.5, true
	)
	var origin := to_local(start_point)
	draw_circle(origin, width * 0.9, outline_color)
	draw_circle(origin, width * 0.6, color)
	if look == Look.VALID:
		draw_arc(tip, head_length * 0.6, 0.0, TAU, 40, Color(color, 0.8), 3.0, true)


## Takes its colours and sizes from the theme items [param control] sees
## ([code]valid[/code], [code]invalid[/code], [code]empty[/code], [code]outline[/code];
## [code]width[/code], [code]head_length[/code], [code]head_width[/code]).
func apply_theme(control: Control) -> void:
	valid_color = PyBridge.ViewTheme.color(control, &"valid", THEME_TYPE)
	invalid_color = PyBridge.ViewTheme.color(control, &"invalid", THEME_TYPE)
	empty_color = PyBridge.ViewTheme.color(control, &"empty", THEME_TYPE)
	outline_color = PyBridge.ViewTheme.color(control, &"outline", THEME_TYPE)
	width = PyBridge.ViewTheme.constant(control, &"width", THEME_TYPE)
	head_length = PyBridge.ViewTheme.constant(control, &"head_length", THEME_TYPE)
	head_width = PyBridge.ViewTheme.constant(control, &"head_width", THEME_TYPE)
	queue_redraw()


## Shows the arrow from [param from_point] to [param to_point] with [param new_look].
func aim(from_point: Vector2, to_point: Vector2, new_look: Look) -> void:
	start_point = from_point
	end_point = to_point
	look = new_look
	show()
	queue_redraw()


## The colour for the current [member look].
func current_color() -> Color:
	match look:
		Look.VALID:
			return valid_color
		Look.INVALID:
			return invalid_color
	return empty_color


## The sampled curve, in local coordinates, from the start to the head's tip.
func points() -> PackedVector2Array:
	var p0 := to_local(start_point)
	var p2 := to_local(end_point)
	var span := p0.distance_to(p2)
	var middle := (p0 + p2) * 0.5
	# The control point lifts the middle of the curve upwards (screen up), by `bend` of the span.
	var p1 := middle + Vector2.UP * span * bend
	var curve := PackedVector2Array()
	for i in segments + 1:
		var t := float(i) / segments
		curve.append(p0.lerp(p1, t).lerp(p1.lerp(p2, t), t))
	return curve


func _trimmed(curve: PackedVector2Array, stop: Vector2) -> PackedVector2Array:
	# The curve up to the head's base: drop samples that lie inside the head.
	var kept := PackedVector2Array()
	var tip := curve[curve.size() - 1]
	var keep_until := tip.distance_to(stop)
	for point in curve:
		if point.distance_to(tip) > keep_until:
			kept.append(point)
	kept.append(stop)
	if kept.size() < 2:
		kept = PackedVector2Array([curve[0], stop])
	return kept


func _widths(count: int) -> PackedFloat32Array:
	var result := PackedFloat32Array()
	for i in count:
		result.append(lerpf(width * 0.35, width, float(i) / maxf(1.0, count - 1.0)))
	return result
