@tool
extends RefCounted
## The glyph a [PyBridgeCardView] without art draws in its art box: it follows what the card's
## target mode asks of the player (its [code]facts[/code]): aim, a whole side, the card's
## player, a random pick, or nothing.

const ViewDrawing := preload("res://addons/pybridge_targeting/drawing/pybridge_view_drawing.gd")


## Draws the glyph of [param facts] on [param canvas], centred in [param area], in [param ink].
static func draw(canvas: CanvasItem, area: Rect2, facts: Dictionary, ink: Color) -> void:
	var c := area.get_center()
	if bool(facts.get("requires_target", false)):
		canvas.draw_arc(c, 13, 0, TAU, 32, ink, 2.5, true)
		canvas.draw_arc(c, 5, 0, TAU, 20, ink, 2.5, true)
		for d: Vector2 in [Vector2.UP, Vector2.DOWN, Vector2.LEFT, Vector2.RIGHT]:
			canvas.draw_line(c + d * 9, c + d * 18, ink, 2.5, true)
	elif bool(facts.get("area", false)):
		for dx: float in [-22.0, 0.0, 22.0]:
			canvas.draw_circle(c + Vector2(dx, 0), 7, ink)
	elif bool(facts.get("random", false)):
		ViewDrawing.round_rect(
			canvas, Rect2(c - Vector2(15, 15), Vector2(30, 30)), Color(1, 1, 1, 0), 6, ink, 2.5
		)
		for d: Vector2 in [Vector2(-7, -7), Vector2(7, 7), Vector2.ZERO]:
			canvas.draw_circle(c + d, 3, ink)
	elif str(facts.get("reach", "")) == PyBridgeCardView.SELF_REACH:
		var shield := PackedVector2Array(
			[
				c + Vector2(-13, -14),
				c + Vector2(13, -14),
				c + Vector2(13, 3),
				c + Vector2(0, 16),
				c + Vector2(-13, 3)
			]
		)
		canvas.draw_colored_polygon(shield, ink)
	else:
		canvas.draw_circle(c, 10, Color(ink, 0.5))
