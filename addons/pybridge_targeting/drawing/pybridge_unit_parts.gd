@tool
extends RefCounted
## The parts of a [PyBridgeUnitView] drawn on it: the intent bubble, the HP bar and armor, the
## status chips, the preview's marks, the invalid cross. Told only where to draw and what: the
## unit view (its canvas and its theme) and the numbers of the unit it shows.

const ViewDrawing := preload("res://addons/pybridge_targeting/drawing/pybridge_view_drawing.gd")
var _view: Control = null
var _look: PyBridge.ViewTheme.Lookup = null
var _type: StringName = &""


func _init(view: Control, look: PyBridge.ViewTheme.Lookup, theme_type: StringName) -> void:
	_view = view
	_look = look
	_type = theme_type


## A dark-edged cross in the invalid colour over [param portrait].
func invalid_mark(portrait: Rect2) -> void:
	# Over the portrait, so it shows.
	var c := portrait.get_center()
	var arm := minf(portrait.size.x, portrait.size.y) * 0.3
	var color := _look.color(&"invalid")
	round_rect(portrait, Color(color, 0.18), float(_look.constant(&"corner_radius")))
	for pass_width: float in [14.0, 8.0]:
		var ink := Color(0, 0, 0, 0.75) if pass_width > 10.0 else color
		_view.draw_line(c + Vector2(-arm, -arm), c + Vector2(arm, arm), ink, pass_width, true)
		_view.draw_line(c + Vector2(arm, -arm), c + Vector2(-arm, arm), ink, pass_width, true)


## The intent bubble in [param box], edged in its [param kind]'s colour, with its
## [param lines] ([method PyBridgeUnitView.intent_lines]) and a tail down to the unit.
func intent(box: Rect2, kind: String, lines: Array[Dictionary]) -> void:
	if box.has_area() == false:
		return
	var w := _view.size.x
	var bubble := _look.constant(&"bubble_height")
	var edge := PyBridge.ViewTheme.color_or(_view, "intent_" + kind, &"intent_other", _type)
	round_rect(
		Rect2(box.position, Vector2(box.size.x, bubble)), _look.color(&"bubble"), 8, edge, 2.0
	)
	# A small tail pointing down at the unit.
	_view.draw_colored_polygon(
		PackedVector2Array(
			[
				Vector2(w * 0.5 - 7, bubble),
				Vector2(w * 0.5 + 7, bubble),
				Vector2(w * 0.5, bubble + 7)
			]
		),
		edge
	)
	for i in lines.size():
		var color := edge.lightened(0.3) if i == 0 else Color(_look.color(&"text"), 0.85)
		centered(
			lines[i]["font"],
			lines[i]["text"],
			Vector2(w * 0.5, 17 + 15 * i),
			lines[i]["size"],
			color
		)


## The HP bar in [param bar] with [param unit]'s HP, and its armor on a shield beside it.
func hp(bar: Rect2, unit: Dictionary) -> void:
	var hp := int(unit.get("hp", 0))
	var max_hp := maxi(1, int(unit.get("max_hp", 1)))
	round_rect(bar, _look.color(&"hp_back"), 6, Color(0, 0, 0, 0.8), 1.5)
	var ratio := clampf(float(hp) / max_hp, 0.0, 1.0)
	if ratio > 0.0:
		var fill := _look.color(&"hp_low") if ratio < 0.35 else _look.color(&"hp_fill")
		round_rect(
			Rect2(bar.position + Vector2(2, 2), Vector2((bar.size.x - 4) * ratio, bar.size.y - 4)),
			fill,
			5
		)
	centered(
		_look.font(),
		"%d / %d" % [hp, max_hp],
		bar.get_center() + Vector2(0, 5),
		_look.font_size(&"hp_size"),
		_look.color(&"text")
	)
	var armor := int(unit.get("armor", 0))
	if armor > 0:
		var c := Vector2(bar.position.x - 2, bar.get_center().y)
		var shield := PackedVector2Array(
			[
				c + Vector2(-13, -13),
				c + Vector2(13, -13),
				c + Vector2(13, 2),
				c + Vector2(0, 15),
				c + Vector2(-13, 2)
			]
		)
		_view.draw_colored_polygon(shield, _look.color(&"armor"))
		_view.draw_polyline(
			shield + PackedVector2Array([shield[0]]), _look.color(&"armor_edge"), 2.0, true
		)
		centered(
			_look.bold_font(),
			str(armor),
			c + Vector2(0, 5),
			_look.font_size(&"hp_size") + 1,
			Color.WHITE
		)


## A status chip ([method PyBridgeUnitView.status_chips]).
func chip(shown: Dictionary) -> void:
	var rect: Rect2 = shown["rect"]
	round_rect(rect, _look.color(&"status_fill"), 9, _look.color(&"status_edge"), 1.0)
	_view.draw_string(
		_look.font(),
		Vector2(rect.position.x + 6, rect.position.y + 13.5),
		str(shown["label"]),
		HORIZONTAL_ALIGNMENT_LEFT,
		-1,
		_look.font_size(&"status_size"),
		_look.color(&"status_text")
	)


## The preview's [param lines] (the runtime's marks) on a plate over [param portrait].
func preview(portrait: Rect2, preview_lines: Array[Dictionary]) -> void:
	if preview_lines.is_empty():
		return
	var height := 8.0 + 26.0 * preview_lines.size()
	# Below the arrow's head, which points at the top of the portrait.
	var box := Rect2(
		portrait.position.x - 4, portrait.end.y - height + 6, portrait.size.x + 8, height
	)
	round_rect(box, _look.color(&"preview_back"), 10, Color(1, 1, 1, 0.35), 1.5)
	var y := box.position.y + 25.0
	for line in preview_lines:
		var text := str(line.get("text", ""))
		var color := PyBridge.ViewTheme.color_or(
			_view, "mark_" + str(line.get("kind", "info")), &"mark_info", _type
		)
		var big := text.length() <= 10
		var font_size := (
			_look.font_size(&"preview_size") if big else _look.font_size(&"preview_small_size")
		)
		centered(
			_look.bold_font(),
			text,
			Vector2(_view.size.x * 0.5, y - (2 if big else 5)),
			font_size,
			color
		)
		y += 26.0


## Text centred on [param at] with a dark outline.
func centered(font: Font, text: String, at: Vector2, font_size: int, color: Color) -> void:
	ViewDrawing.centered_text(
		_view, font, text, at, font_size, color, 4, Color(0, 0, 0, 0.75 * color.a)
	)


## A rounded box, optionally edged.
func round_rect(
	rect: Rect2,
	fill: Color,
	radius: float,
	border: Color = Color(0, 0, 0, 0),
	border_width: float = 0.0
) -> void:
	ViewDrawing.round_rect(_view, rect, fill, radius, border, border_width)
