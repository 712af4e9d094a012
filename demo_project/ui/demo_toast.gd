class_name DemoToast
extends RefCounted
## The short message a battle screen shows over the battle (a refused card, a refused pick,
## the connection): shown at once, held, then faded out; a new one takes the place of the last.

var _label: Label = null
var _fade: Tween = null


## A toast shown on [param label].
func _init(label: Label) -> void:
	_label = label


## Shows [param text] for [param hold] seconds, then fades it; the message before it goes at
## once.
func flash(text: String, hold: float) -> void:
	clear()
	_label.text = text
	_label.modulate.a = 1.0
	_fade = _label.create_tween()
	_fade.tween_interval(hold)
	_fade.tween_property(_label, "modulate:a", 0.0, 0.6)


## Hides the message shown now, if any (a new battle).
func clear() -> void:
	if _fade != null:
		_fade.kill()
		_fade = null
	_label.modulate.a = 0.0
