@tool
extends RefCounted
## One card of the hand as the battle view places it: the card's id, its view (the built-in
## [PyBridgeCardView] or the game's own card scene) and where the hand layout puts it.
##
## The slot moves the view (position, scale, z-index); the view only draws. Coordinates of
## [method base_rect] and [method arrow_origin] are global.

## The card instance id.
var card_id: String = ""
## The card's view: any [Control] that has [code]show_card(data)[/code].
var view: Control = null
## Its size before any scaling.
var card_size: Vector2 = Vector2.ZERO
## Where the hand layout puts it, in the hand area's coordinates.
var base_position: Vector2 = Vector2.ZERO
## The scale of the card in the hand (below 1 when a long hand is shrunk to fit).
var base_scale: float = 1.0
## Whether it is raised (hovered or aimed).
var raised: bool = false


func _init(id: String, card_view: Control, size: Vector2) -> void:
	card_id = id
	view = card_view
	card_size = size


## Puts the card at [param at] with [param hand_scale], raised or not. A raised card rises
## [param rise] pixels and grows to [param raised_scale], kept within [param room] (the width
## of the hand area).
func place(
	at: Vector2, hand_scale: float, is_raised: bool, rise: float, raised_scale: float, room: float
) -> void:
	base_position = at
	base_scale = hand_scale
	raised = is_raised
	var shown_scale := maxf(raised_scale, hand_scale) if raised else hand_scale
	view.pivot_offset = Vector2.ZERO
	view.scale = Vector2.ONE * shown_scale
	var shown_size := card_size * shown_scale
	var base_size := card_size * hand_scale
	var spot := at
	if raised:
		# Grow from the bottom centre of its place in the hand, then rise.
		spot = at + Vector2((base_size.x - shown_size.x) * 0.5, base_size.y - shown_size.y - rise)
		spot.x = clampf(spot.x, 0.0, maxf(0.0, room - shown_size.x))
	view.position = spot
	view.z_index = 20 if raised else 0


## Moves the card so that its centre is at [param global_point] (dragging a card without a
## target), a little larger than in the hand.
func follow(global_point: Vector2) -> void:
	view.scale = Vector2.ONE * maxf(1.0, base_scale) * 1.1
	view.z_index = 40
	var parent := view.get_parent() as CanvasItem
	var local := global_point
	if parent != null:
		local = parent.get_global_transform().affine_inverse() * global_point
	view.position = local - card_size * view.scale * 0.5


## The card's place in the hand (not raised), global coordinates.
func base_rect() -> Rect2:
	var parent := view.get_parent() as CanvasItem
	var origin := base_position
	if parent != null:
		origin = parent.get_global_transform() * base_position
	return Rect2(origin, card_size * base_scale)


## The card as drawn now, global coordinates.
func shown_rect() -> Rect2:
	return view.get_global_rect()


## Where the aiming arrow starts: the top centre of the card as drawn now, global.
func arrow_origin() -> Vector2:
	return view.get_global_transform() * Vector2(card_size.x * 0.5, 8)


## Marks the card as the one being aimed (if its view can show that).
func set_selected(on: bool) -> void:
	if view.has_method(&"set_selected"):
		view.call(&"set_selected", on)
