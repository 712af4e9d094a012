@tool
extends RefCounted
## How a Workshop graph node looks: a dark body, a title bar in its group's colour, and an
## outline in the colour of its worst diagnostic.


## Gives [param node] its look: a dark body outlined in [param outline] and a title bar in
## [param accent].
static func style(node: GraphNode, accent: Color, outline: Color) -> void:
	var body := _box(Color(0.11, 0.105, 0.15, 0.96), outline, 1, [0, 0, 6, 6])
	body.content_margin_left = 10
	body.content_margin_right = 10
	body.content_margin_top = 6
	body.content_margin_bottom = 8
	node.add_theme_stylebox_override("panel", body)
	var chosen := body.duplicate() as StyleBoxFlat
	chosen.border_color = Color("ffd54a")
	node.add_theme_stylebox_override("panel_selected", chosen)
	var bar := _box(accent.darkened(0.25), accent, 1, [6, 6, 0, 0])
	bar.content_margin_left = 10
	bar.content_margin_right = 8
	bar.content_margin_top = 4
	bar.content_margin_bottom = 4
	node.add_theme_stylebox_override("titlebar", bar)
	var bar_chosen := bar.duplicate() as StyleBoxFlat
	bar_chosen.bg_color = accent
	bar_chosen.border_color = Color("ffd54a")
	node.add_theme_stylebox_override("titlebar_selected", bar_chosen)


## Outlines [param node]'s body in [param color] (transparent: the plain [param outline]).
static func frame(node: GraphNode, color: Color, outline: Color) -> void:
	var plain := color.a == 0.0
	for style_name: String in ["panel", "panel_selected"]:
		var box := node.get_theme_stylebox(style_name) as StyleBoxFlat
		if box == null:
			continue
		if style_name == "panel":
			box.border_color = outline if plain else color
		box.set_border_width_all(1 if plain else 2)


static func _box(fill: Color, border: Color, width: int, corners: Array) -> StyleBoxFlat:
	var box := StyleBoxFlat.new()
	box.bg_color = fill
	box.border_color = border
	box.set_border_width_all(width)
	box.corner_radius_top_left = corners[0]
	box.corner_radius_top_right = corners[1]
	box.corner_radius_bottom_right = corners[2]
	box.corner_radius_bottom_left = corners[3]
	box.anti_aliasing = true
	return box
