extends Control
## The energy left this turn, as a glowing orb: "2 / 3".

const ViewDrawing := preload("res://addons/pybridge_targeting/drawing/pybridge_view_drawing.gd")
## Energy left.
@export var energy: int = 3:
	set(value):
		energy = value
		queue_redraw()
## Energy per turn.
@export var max_energy: int = 3:
	set(value):
		max_energy = value
		queue_redraw()
## The orb's colour.
@export var orb_color: Color = Color("f0a030")


func _draw() -> void:
	var font := get_theme_default_font()
	var radius := size.y * 0.5 - 4.0
	var center := Vector2(radius + 4.0, size.y * 0.5)
	var lit := orb_color if energy > 0 else Color("5a4a3a")
	draw_circle(center, radius + 4.0, Color(lit, 0.2))
	draw_circle(center, radius, Color(0.05, 0.04, 0.08))
	draw_circle(center, radius - 3.0, lit.darkened(0.35))
	draw_circle(center + Vector2(0, -3), radius - 8.0, lit)
	draw_circle(center + Vector2(-radius * 0.3, -radius * 0.4), radius * 0.22, Color(1, 1, 1, 0.3))
	_centered(font, "%d/%d" % [energy, max_energy], center + Vector2(0, 9), 26)
	var label_at := Vector2(center.x + radius + 12.0, center.y + 6.0)
	var label := tr("ENERGY")
	draw_string_outline(
		font, label_at, label, HORIZONTAL_ALIGNMENT_LEFT, -1, 15, 4, Color(0, 0, 0, 0.8)
	)
	draw_string(font, label_at, label, HORIZONTAL_ALIGNMENT_LEFT, -1, 15, Color("ffe0a8"))


func _centered(font: Font, text: String, at: Vector2, font_size: int) -> void:
	ViewDrawing.centered_text(self, font, text, at, font_size, Color.WHITE, 5, Color(0, 0, 0, 0.8))
