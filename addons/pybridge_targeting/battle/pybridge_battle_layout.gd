@tool
extends RefCounted
## Where a [PyBridgeBattleView] puts things: units in a row centred in their area, the hand
## along the bottom of its area, and the screen points scripts and tests read.

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


## The middle of the visible part of each card of [param slots] (left to right; a card is
## covered by the next one where they overlap), global coordinates rounded to pixels.
static func card_points(slots: Array[HandSlot]) -> Dictionary:
	var points := {}
	for i in slots.size():
		var rect := slots[i].base_rect()
		var visible_width := rect.size.x
		if i + 1 < slots.size():
			visible_width = minf(rect.size.x, slots[i + 1].base_rect().position.x - rect.position.x)
		points[slots[i].card_id] = xy(
			rect.position + Vector2(visible_width * 0.5, rect.size.y * 0.55)
		)
	return points


## [param point] as [code][x, y][/code], rounded to whole pixels.
static func xy(point: Vector2) -> Array:
	return [roundi(point.x), roundi(point.y)]
