@tool
extends RefCounted
## One card of the hand as the battle view places it: the card's id, its view (the built-in
## [PyBridgeCardView] or the game's own card scene) and where the hand layout puts it.
##
## The slot moves the view (position, rotation, scale, z-index); the view only draws. A card
## of a fanned hand turns about the middle of its bottom edge; a raised card stands straight.
## While the card flies (drawn into the hand, see [method fly_from]) the view is on its way
## from where it came to its place; the place itself, which [method base_rect],
## [method contains] and the layout read, is set at once. Coordinates of [method base_rect],
## [method contains] and [method arrow_origin] are global.

## The card instance id.
var card_id: String = ""
## The card's view: any [Control] that has [code]show_card(data)[/code].
var view: Control = null
## Its size before any scaling.
var card_size: Vector2 = Vector2.ZERO
## Where the hand layout puts it (the top-left corner of its unturned card), in the hand
## area's coordinates.
var base_position: Vector2 = Vector2.ZERO
## The scale of the card in the hand (below 1 when a long hand is shrunk to fit).
var base_scale: float = 1.0
## How far the card is turned in the fan (radians; 0 when it stands straight).
var base_angle: float = 0.0
## Whether it is raised (hovered or aimed).
var raised: bool = false
## How far a flight has come, 0 to 1 (1: the card is at its place).
var flight: float = 1.0
## How far above its place's top a raised card reaches, in its own unscaled pixels (0 when it
## is not raised): where the layout raises it, wherever a flight has it now.
var raised_above: float = 0.0

var _target := {}
var _from := {}


func _init(id: String, card_view: Control, size: Vector2) -> void:
	card_id = id
	view = card_view
	card_size = size


## Puts the card at [param at] with [param hand_scale], turned by [param angle], raised or
## not. A raised card stands straight, rises [param rise] pixels and grows to
## [param raised_scale], kept within [param room] (the width of the hand area); a view with
## [code]raised_height()[/code] grows taller too when its text needs the room.
func place(
	at: Vector2,
	hand_scale: float,
	is_raised: bool,
	rise: float,
	raised_scale: float,
	room: float,
	angle: float = 0.0
) -> void:
	base_position = at
	base_scale = hand_scale
	base_angle = angle
	raised = is_raised
	var shown_scale := maxf(raised_scale, hand_scale) if raised else hand_scale
	var height := card_size.y
	if raised and view.has_method(&"raised_height"):
		height = maxf(card_size.y, float(view.call(&"raised_height")))
	var shown_size := Vector2(card_size.x, height) * shown_scale
	var base_size := card_size * hand_scale
	var spot := at
	if raised:
		# Grow from the bottom centre of its place in the hand, then rise.
		spot = at + Vector2((base_size.x - shown_size.x) * 0.5, base_size.y - shown_size.y - rise)
		spot.x = clampf(spot.x, 0.0, maxf(0.0, room - shown_size.x))
	raised_above = maxf(0.0, at.y - spot.y) / maxf(hand_scale, 0.01)
	_target = {
		"spot": spot,
		"size": Vector2(card_size.x, height),
		"scale": shown_scale,
		"angle": 0.0 if raised else angle,
		"z": 20 if raised else 0,
	}
	_apply()


## Starts a flight from [param global_point] (where a drawn card comes from, at
## [param start_scale]); [method fly] moves it on.
func fly_from(global_point: Vector2, start_scale: float) -> void:
	var parent := view.get_parent() as CanvasItem
	var local := global_point
	if parent != null:
		local = parent.get_global_transform().affine_inverse() * global_point
	_from = {"spot": local - card_size * start_scale * 0.5, "scale": start_scale}
	flight = 0.0
	_apply()


## Moves the flight to [param progress] (0 to 1; eased), toward the card's place now.
func fly(progress: float) -> void:
	flight = clampf(progress, 0.0, 1.0)
	_apply()


## Whether the view stands where the layout put it (no flight under way).
func at_rest() -> bool:
	return flight >= 1.0


## Moves the card so that its centre is at [param global_point] (dragging a card without a
## target), a little larger than in the hand.
func follow(global_point: Vector2) -> void:
	flight = 1.0
	view.size = card_size
	view.pivot_offset = Vector2.ZERO
	view.rotation = 0.0
	view.scale = Vector2.ONE * maxf(1.0, base_scale) * 1.1
	view.z_index = 40
	var parent := view.get_parent() as CanvasItem
	var local := global_point
	if parent != null:
		local = parent.get_global_transform().affine_inverse() * global_point
	view.position = local - card_size * view.scale * 0.5


## The card's place in the hand (not raised, not turned), global coordinates.
func base_rect() -> Rect2:
	var parent := view.get_parent() as CanvasItem
	var origin := base_position
	if parent != null:
		origin = parent.get_global_transform() * base_position
	return Rect2(origin, card_size * base_scale)


## From the card's own coordinates (unscaled, at its place in the hand, turned as the fan
## turns it) to global coordinates.
func base_transform() -> Transform2D:
	var pivot := Vector2(card_size.x * 0.5, card_size.y)
	var local := (
		Transform2D(0.0, base_position + pivot * base_scale)
		* Transform2D(base_angle, Vector2.ONE * base_scale, 0.0, Vector2.ZERO)
		* Transform2D(0.0, -pivot)
	)
	var parent := view.get_parent() as CanvasItem
	return local if parent == null else parent.get_global_transform() * local


## Whether [param point] (global) is on the card at its place in the hand; [param above]
## pixels (of the card's own) above its top edge count too (a raised card owns its column).
func contains(point: Vector2, above: float = 0.0) -> bool:
	var local := base_transform().affine_inverse() * point
	return Rect2(0.0, -above, card_size.x, card_size.y + above).has_point(local)


## The card as drawn now, global coordinates (the box around it when it is turned).
func shown_rect() -> Rect2:
	var xform := view.get_global_transform()
	var rect := Rect2(xform * Vector2.ZERO, Vector2.ZERO)
	for corner: Vector2 in [Vector2(view.size.x, 0), view.size, Vector2(0, view.size.y)]:
		rect = rect.expand(xform * corner)
	return rect


## Where the aiming arrow starts: the top centre of the card as drawn now, global.
func arrow_origin() -> Vector2:
	return view.get_global_transform() * Vector2(card_size.x * 0.5, 8)


## Marks the card as the one being aimed (if its view can show that).
func set_selected(on: bool) -> void:
	if view.has_method(&"set_selected"):
		view.call(&"set_selected", on)


func _apply() -> void:
	if _target.is_empty():
		return
	var size: Vector2 = _target["size"]
	var shown: float = _target["scale"]
	var spot: Vector2 = _target["spot"]
	var angle: float = _target["angle"]
	if flight < 1.0 and not _from.is_empty():
		var eased := ease(flight, 0.4)
		shown = lerpf(float(_from["scale"]), shown, eased)
		spot = (_from["spot"] as Vector2).lerp(spot, eased)
		angle = lerpf(0.0, angle, eased)
	view.size = size
	# Turn about the middle of the bottom edge; the scaled, unturned card's corner is spot.
	var pivot := Vector2(size.x * 0.5, size.y)
	view.pivot_offset = pivot
	view.scale = Vector2.ONE * shown
	view.rotation = angle
	view.position = spot + pivot * shown - pivot
	view.z_index = 30 if flight < 1.0 else int(_target["z"])
