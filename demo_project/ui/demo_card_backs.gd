class_name DemoCardBacks
extends Control
## The other seat's hand in a hot-seat duel: one card back per card it holds, face down, so
## the player at the device sees how many cards the other side keeps but none of them.

## How many card backs to draw.
var count: int = 0:
	set(value):
		count = maxi(0, value)
		queue_redraw()
## The colour of the backs (the side's).
var tint: Color = Color("d0583a"):
	set(value):
		tint = value
		queue_redraw()


## Shows [param team]'s hand in [param view] as backs of its colour [param color] (the view
## of this seat holds no faces of it), and says on [param label] how many cards it holds and
## the side's energy.
func show_hand_of(view: PyBridgeBattleView, team: String, color: Color, label: Label) -> void:
	var side := DemoSides.of(view, team)
	count = side.hand.size()
	tint = color
	label.text = (
		tr("%s's hand: %d cards · energy %d / %d")
		% [DemoSides.name_of(view, team), count, side.energy, side.max_energy]
	)


func _draw() -> void:
	var card := Vector2(30, 42)
	# Overlap the backs when there are too many to sit side by side.
	var step := minf(card.x + 6.0, (size.x - card.x) / maxf(1.0, float(count - 1)))
	for i in count:
		var back := StyleBoxFlat.new()
		back.bg_color = tint.darkened(0.45)
		back.border_color = tint.lightened(0.3)
		back.set_border_width_all(2)
		back.set_corner_radius_all(5)
		var rect := Rect2(Vector2(i * step, (size.y - card.y) / 2.0), card)
		draw_style_box(back, rect)
		draw_rect(rect.grow(-7), Color(1, 1, 1, 0.18), false, 1.5)
