@tool
extends RefCounted
## Drawing the views share: text centred on a point over an outline, and rounded boxes.
## Each function draws on [param canvas] during its [method CanvasItem._draw].


## Draws [param text] centred horizontally on [param at] (baseline at [code]at.y[/code]) over
## an outline [param outline_size] pixels wide in [param outline_color].
static func centered_text(
	canvas: CanvasItem,
	font: Font,
	text: String,
	at: Vector2,
	font_size: int,
	color: Color,
	outline_size: int,
	outline_color: Color
) -> void:
	var width := font.get_string_size(text, HORIZONTAL_ALIGNMENT_LEFT, -1, font_size).x
	var origin := Vector2(at.x - width * 0.5, at.y)
	canvas.draw_string_outline(
		font, origin, text, HORIZONTAL_ALIGNMENT_LEFT, -1, font_size, outline_size, outline_color
	)
	canvas.draw_string(font, origin, text, HORIZONTAL_ALIGNMENT_LEFT, -1, font_size, color)


## The largest font size from [param font_size] down to [param smallest] at which
## [param text] is at most [param width] pixels wide ([param smallest] when none is).
static func fitting_size(
	font: Font, text: String, width: float, font_size: int, smallest: int
) -> int:
	var fitted := font_size
	while (
		fitted > smallest
		and font.get_string_size(text, HORIZONTAL_ALIGNMENT_LEFT, -1, fitted).x > width
	):
		fitted -= 1
	return fitted


## Draws [param rect] filled with [param fill], its corners rounded by [param radius], with a
## [param border] line [param border_width] pixels wide when that is above zero.
static func round_rect(
	canvas: CanvasItem,
	rect: Rect2,
	fill: Color,
	radius: float,
	border: Color = Color(0, 0, 0, 0),
	border_width: float = 0.0
) -> void:
	var box := StyleBoxFlat.new()
	box.bg_color = fill
	box.set_corner_radius_all(int(radius))
	box.anti_aliasing = true
	if border_width > 0.0:
		box.border_color = border
		box.set_border_width_all(int(ceilf(border_width)))
	canvas.draw_style_box(box, rect)


## Draws [param art] to fill [param rect], cropped to the rectangle's aspect and centred.
static func fill_texture(canvas: CanvasItem, art: Texture2D, rect: Rect2) -> void:
	var size := art.get_size()
	if size.x <= 0.0 or size.y <= 0.0:
		return
	var scale := maxf(rect.size.x / size.x, rect.size.y / size.y)
	var shown := rect.size / scale
	canvas.draw_texture_rect_region(art, rect, Rect2((size - shown) * 0.5, shown))
