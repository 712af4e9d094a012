@tool
class_name BattleLayout
extends RefCounted
## Where a [BattleView] puts things: units in a row centred in their area, the hand fanned
## along the bottom of its area, and the screen points scripts and tests read.


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


## Positions (local to [param area]) of [param count] cards of [param card_size] in the hand:
## side by side with a small gap, overlapping when the hand is wider than the area.
static func hand_row(area: Control, count: int, card_size: Vector2) -> Array[Vector2]:
	var points: Array[Vector2] = []
	if count == 0:
		return points
	var step := card_size.x + 10.0
	if count > 1:
		step = minf(step, (area.size.x - card_size.x) / (count - 1))
	var total := card_size.x + step * (count - 1)
	var x := (area.size.x - total) * 0.5
	var y := area.size.y - card_size.y - 12.0
	for i in count:
		points.append(Vector2(x, y))
		x += step
	return points


## The middle of the visible part of each card of [param cards] (left to right; a card is
## covered by the next one where they overlap), global coordinates rounded to pixels.
static func card_points(cards: Array[CardView]) -> Dictionary:
	var points := {}
	for i in cards.size():
		var rect := cards[i].base_rect()
		var visible_width := rect.size.x
		if i + 1 < cards.size():
			visible_width = minf(rect.size.x, cards[i + 1].base_rect().position.x
					- rect.position.x)
		points[cards[i].card_id] = xy(rect.position + Vector2(visible_width * 0.5,
				rect.size.y * 0.55))
	return points


## [param point] as [code][x, y][/code], rounded to whole pixels.
static func xy(point: Vector2) -> Array:
	return [roundi(point.x), roundi(point.y)]
