class_name DemoToast
extends RefCounted
## The short message both demo scenes show over the battle (a refused card, a refused pick):
## shown at once, held, then faded out.


## Shows [param text] on [param label] for [param hold] seconds, then fades it; stops the fade
## still [param running] from the last message. Returns the new fade, to pass next time.
static func flash(label: Label, text: String, hold: float, running: Tween) -> Tween:
	label.text = text
	if running != null:
		running.kill()
	label.modulate.a = 1.0
	var fade := label.create_tween()
	fade.tween_interval(hold)
	fade.tween_property(label, "modulate:a", 0.0, 0.6)
	return fade
