class_name DemoTheme
extends RefCounted
## The demo's look: readable sizes, dark panels, warm accents.


## A [Theme] for the demo screen.
static func build() -> Theme:
	var theme := Theme.new()
	theme.default_font_size = 16
	theme.set_color("font_color", "Label", Color("f4f1ea"))
	_variation(theme, "TitleLabel", "Label", 22, Color("ffd54a"))
	_variation(theme, "HeaderLabel", "Label", 17, Color("ffd54a"))
	_variation(theme, "DimLabel", "Label", 15, Color("b8b3c9"))
	_variation(theme, "ToastLabel", "Label", 20, Color("ffe9a8"))
	theme.set_color("font_outline_color", "ToastLabel", Color(0, 0, 0, 0.9))
	theme.set_constant("outline_size", "ToastLabel", 6)
	_variation(theme, "ResultLabel", "Label", 48, Color("ffd54a"))
	theme.set_color("font_outline_color", "ResultLabel", Color(0, 0, 0, 0.9))
	theme.set_constant("outline_size", "ResultLabel", 8)

	theme.set_stylebox(
		"panel", "PanelContainer", _box(Color(0.08, 0.07, 0.13, 0.92), Color("3b3560"), 12, 12)
	)
	theme.set_type_variation("ResultPanel", "PanelContainer")
	theme.set_stylebox(
		"panel", "ResultPanel", _box(Color(0.1, 0.08, 0.16, 0.97), Color("ffd54a"), 18, 28)
	)
	theme.set_font_size("normal_font_size", "RichTextLabel", 14)
	theme.set_color("default_color", "RichTextLabel", Color("e6e1f0"))
	theme.set_constant("line_separation", "RichTextLabel", 3)

	_buttons(theme, "Button", Color("2c2740"), Color("6a5fa0"), 16)
	theme.set_type_variation("EndTurnButton", "Button")
	_buttons(theme, "EndTurnButton", Color("b8652b"), Color("ffd08a"), 19)
	theme.set_type_variation("ChoiceButton", "Button")
	_buttons(theme, "ChoiceButton", Color("2c2740"), Color("ffd54a"), 19)
	theme.set_stylebox("focus", "ChoiceButton", _box(Color(0, 0, 0, 0), Color("fff6e6"), 14, 8))
	return theme


## A [Theme] for a duel screen: two rows of units above the hand, so slightly shorter unit
## views than the party battle's.
static func build_duel() -> Theme:
	var theme := build()
	theme.set_constant(&"height", &"PyBridgeUnitView", 206)
	theme.set_constant(&"portrait_height", &"PyBridgeUnitView", 80)
	return theme


## Gives [param screen] [param theme], and [param layers] too (the roots of its overlays: a
## CanvasLayer does not pass the theme on).
static func use(screen: Control, theme: Theme, layers: Array[Control] = []) -> void:
	screen.theme = theme
	for root in layers:
		root.theme = theme


## Draws a duel screen's backdrop on [param canvas]: its whole rect shaded from
## [param corners] (top left, top right, bottom right, bottom left) and the table's felt of
## colour [param felt] under the units' rows.
static func draw_table(canvas: Control, corners: PackedColorArray, felt: Color) -> void:
	var w := canvas.size.x
	var h := canvas.size.y
	canvas.draw_polygon(
		PackedVector2Array([Vector2(0, 0), Vector2(w, 0), Vector2(w, h), Vector2(0, h)]), corners
	)
	var cloth := StyleBoxFlat.new()
	cloth.bg_color = felt
	cloth.border_color = Color(1, 1, 1, 0.07)
	cloth.set_border_width_all(2)
	cloth.set_corner_radius_all(18)
	canvas.draw_style_box(cloth, Rect2(4, 50, 896, 426))


## Draws [param text], a side's name, on [param canvas] at the top left of its row
## [param area], in (a lighter) [param color].
static func draw_side_name(canvas: Control, area: Control, text: String, color: Color) -> void:
	var rect := area.get_global_rect()
	canvas.draw_string(
		canvas.get_theme_default_font(),
		Vector2(rect.position.x + 12, rect.position.y + 22),
		text,
		HORIZONTAL_ALIGNMENT_LEFT,
		-1,
		14,
		color.lightened(0.25)
	)


static func _variation(
	theme: Theme, name: String, base: String, font_size: int, color: Color
) -> void:
	theme.set_type_variation(name, base)
	theme.set_font_size("font_size", name, font_size)
	theme.set_color("font_color", name, color)


static func _buttons(
	theme: Theme, type: String, fill: Color, border: Color, font_size: int
) -> void:
	theme.set_stylebox("normal", type, _box(fill, border, 10, 8))
	theme.set_stylebox("hover", type, _box(fill.lightened(0.15), border.lightened(0.2), 10, 8))
	theme.set_stylebox("pressed", type, _box(fill.darkened(0.2), border, 10, 8))
	theme.set_stylebox("disabled", type, _box(Color(0.2, 0.2, 0.24), Color(0.35, 0.35, 0.4), 10, 8))
	theme.set_stylebox("focus", type, StyleBoxEmpty.new())
	theme.set_font_size("font_size", type, font_size)
	theme.set_color("font_color", type, Color("fff6e6"))
	theme.set_color("font_hover_color", type, Color.WHITE)
	theme.set_color("font_pressed_color", type, Color("ffe0a8"))
	theme.set_color("font_disabled_color", type, Color(0.6, 0.6, 0.65))


static func _box(fill: Color, border: Color, radius: int, margin: int) -> StyleBoxFlat:
	var box := StyleBoxFlat.new()
	box.bg_color = fill
	box.border_color = border
	box.set_border_width_all(2)
	box.set_corner_radius_all(radius)
	box.set_content_margin_all(margin)
	box.anti_aliasing = true
	return box
