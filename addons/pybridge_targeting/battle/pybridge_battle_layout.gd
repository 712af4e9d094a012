@tool
extends RefCounted
## Where a [PyBridgeBattleView] puts things: units in a row centred in their area, the hand
## along the bottom of its area on a fan, and where a card dragged along the hand goes.

const HandSlot := preload("res://addons/pybridge_targeting/battle/pybridge_hand_slot.gd")


## Positions (local to [param area]) for [param count] units of [param unit_size], centred in
## a row with [param gap] between them, the gap shrinking when the row does not fit.
static func unit_row(area: Control, count: int, unit_size: Vector2, gap: float) -> Array[Vector2]:
	var points: Array[Vector2] = []
	if count == 0:
		return points
	var total := count * unit_size.x + (count - 1) * gap
	if total > area.size.x and count > 1:
		gap = (area.size.x - count * unit_size.x) / (count - 1)
		total = area.size.x
	var x := (area.size.x - total) * 0.5
	var y := (area.size.y - unit_size.y) * 0.5
	for i in count:
		points.append(Vector2(x, y))
		x += unit_size.x + gap
	return points


## The hand of [param count] cards of [param card_size] in an area [param width] wide and
## [param height] high: [code]{"points", "scale", "visible"}[/code]. Cards sit side by side
## with [param gap] between them; a hand too wide for the area is first shrunk (down to
## [param min_scale]), so every card stays whole, and only then overlaps. [code]points[/code]
## are the cards' top-left corners (local, on the bottom edge less [param margin]);
## [code]visible[/code] how much of each card's width (in its own, unscaled pixels) the next
## card leaves uncovered.
static func hand_row(
	count: int,
	card_size: Vector2,
	width: float,
	height: float,
	gap: float,
	min_scale: float,
	margin: float
) -> Dictionary:
	var points: Array[Vector2] = []
	var visible: Array[float] = []
	if count == 0:
		return {"points": points, "scale": 1.0, "visible": visible}
	var scale := 1.0
	var whole := count * card_size.x + (count - 1) * gap
	if whole > width:
		scale = maxf(min_scale, width / whole)
	var shown := card_size * scale
	var step := shown.x + gap * scale
	if count > 1:
		step = minf(step, (width - shown.x) / (count - 1))
	var total := shown.x + step * (count - 1)
	var x := (width - total) * 0.5
	var y := height - shown.y - margin
	for i in count:
		points.append(Vector2(x, y))
		visible.append(card_size.x if i == count - 1 else minf(card_size.x, step / scale))
		x += step
	return {"points": points, "scale": scale, "visible": visible}


## The fan of a hand of [param count] cards: [code]{"angles", "drops"}[/code], each card's
## turn (radians; the left half turned left, the right half right, the middle straight) and
## how far it sits below the middle card, as if on an arc of [param radius] pixels. Cards turn
## [param step_degrees] apart, the ends at most [param max_degrees]; a single card stands
## straight.
static func hand_fan(
	count: int, step_degrees: float, max_degrees: float, radius: float
) -> Dictionary:
	var angles: Array[float] = []
	var drops: Array[float] = []
	var half := minf(max_degrees, step_degrees * (count - 1) * 0.5)
	for i in count:
		var t := 0.0 if count < 2 else (i - (count - 1) * 0.5) / ((count - 1) * 0.5)
		var angle := deg_to_rad(t * half)
		angles.append(angle)
		drops.append(radius * (1.0 - cos(angle)))
	return {"angles": angles, "drops": drops}


## Where [param from] goes when a card is dragged to [param x] in a hand whose cards are at
## [param lefts] (the left edges of their places, left to right) and [param width] wide: the
## index of the place whose middle is nearest, so a card dropped over a neighbour swaps with
## it.
static func drop_index(lefts: Array[float], width: float, x: float) -> int:
	var best := 0
	for i in lefts.size():
		if absf(lefts[i] + width * 0.5 - x) < absf(lefts[best] + width * 0.5 - x):
			best = i
	return best


## [param point] as [code][x, y][/code], rounded to whole pixels.
static func xy(point: Vector2) -> Array:
	return [roundi(point.x), roundi(point.y)]
