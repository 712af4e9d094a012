@tool
extends Control
## The battle view's tooltip: a title over wrapped text (and a note under it), beside what it
## explains (a card's whole text and keywords, a status, an intent), kept inside the screen.
##
## Styled by the theme items of the type [code]PyBridgeTooltip[/code]: the
## [code]panel[/code] style box, [code]title_color[/code], [code]text_color[/code],
## [code]note_color[/code], [code]title_size[/code], [code]text_size[/code],
## [code]max_width[/code] and [code]separation[/code]; [code]font[/code] and
## [code]bold_font[/code] when a theme gives them.

## The theme type of every item it reads.
const THEME_TYPE := &"PyBridgeTooltip"

## The title shown now ([code]""[/code] when hidden).
var title: String = ""
## The text shown now.
var text: String = ""
## The note under the text (why a card cannot be played), or [code]""[/code].
var note: String = ""

var _blocks: Array[Dictionary] = []


func _init() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	top_level = true
	z_index = 200
	visible = false


func _draw() -> void:
	var panel := PyBridge.ViewTheme.stylebox(self, &"panel", THEME_TYPE)
	if panel != null:
		draw_style_box(panel, Rect2(Vector2.ZERO, size))
	for block in _blocks:
		var font: Font = block["font"]
		var font_size: int = block["size"]
		draw_multiline_string(
			font,
			block["at"] + Vector2(0, font.get_ascent(font_size)),
			block["text"],
			HORIZONTAL_ALIGNMENT_LEFT,
			block["width"],
			font_size,
			-1,
			block["color"]
		)


## Shows [param new_title] over [param new_text] (and [param new_note] under it) beside
## [param anchor] (a global rectangle): to its right, else to its left, else above it, inside
## [param bounds].
func show_beside(
	new_title: String, new_text: String, new_note: String, anchor: Rect2, bounds: Rect2
) -> void:
	title = new_title
	text = new_text
	note = new_note
	size = _lay_out()
	var gap := 10.0
	var spot := Vector2(anchor.end.x + gap, anchor.position.y)
	if spot.x + size.x > bounds.end.x:
		spot.x = anchor.position.x - gap - size.x
	if spot.x < bounds.position.x:
		spot = Vector2(anchor.get_center().x - size.x * 0.5, anchor.position.y - gap - size.y)
	spot.x = clampf(spot.x, bounds.position.x, maxf(bounds.position.x, bounds.end.x - size.x))
	spot.y = clampf(spot.y, bounds.position.y, maxf(bounds.position.y, bounds.end.y - size.y))
	global_position = spot
	show()
	queue_redraw()


## Hides the tooltip.
func hide_tip() -> void:
	title = ""
	text = ""
	note = ""
	hide()


## The tooltip's size for what it shows, its text blocks placed inside it.
func _lay_out() -> Vector2:
	var panel := PyBridge.ViewTheme.stylebox(self, &"panel", THEME_TYPE)
	var offset := Vector2.ZERO
	var margins := Vector2.ZERO
	if panel != null:
		offset = Vector2(panel.get_margin(SIDE_LEFT), panel.get_margin(SIDE_TOP))
		margins = panel.get_minimum_size()
	var parts := [
		[title, &"bold_font", &"title_color", &"title_size"],
		[text, &"font", &"text_color", &"text_size"],
		[note, &"font", &"note_color", &"text_size"]
	]
	_blocks.clear()
	var room := float(PyBridge.ViewTheme.constant(self, &"max_width", THEME_TYPE)) - margins.x
	var width := 0.0
	for part: Array in parts:
		if str(part[0]).is_empty():
			continue
		var font := PyBridge.ViewTheme.font(self, part[1], THEME_TYPE)
		var font_size := PyBridge.ViewTheme.font_size(self, part[3], THEME_TYPE)
		for line in str(part[0]).split("\n"):
			width = maxf(
				width, font.get_string_size(line, HORIZONTAL_ALIGNMENT_LEFT, -1, font_size).x + 1.0
			)
		_blocks.append(
			{
				"text": part[0],
				"font": font,
				"size": font_size,
				"color": PyBridge.ViewTheme.color(self, part[2], THEME_TYPE)
			}
		)
	width = minf(width, room)
	var y := 0.0
	var separation := float(PyBridge.ViewTheme.constant(self, &"separation", THEME_TYPE))
	for block in _blocks:
		var font: Font = block["font"]
		block["width"] = width
		block["at"] = offset + Vector2(0, y)
		y += (
			(
				font
				. get_multiline_string_size(
					block["text"], HORIZONTAL_ALIGNMENT_LEFT, width, block["size"]
				)
				. y
			)
			+ separation
		)
	return Vector2(width, maxf(0.0, y - separation)) + margins
