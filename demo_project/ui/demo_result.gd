class_name DemoResult
extends RefCounted
## The overlay a battle screen shows when its battle ends: a title in its colour, a line
## that says why, and the buttons to go on with (Play again, Menu).

var _overlay: CanvasLayer = null
var _title: Label = null
var _detail: Label = null


## The overlay [param overlay], its title label [param title] and its detail label
## [param detail].
func _init(overlay: CanvasLayer, title: Label, detail: Label) -> void:
	_overlay = overlay
	_title = title
	_detail = detail


## Whether the overlay shows now.
func is_shown() -> bool:
	return _overlay.visible


## Hides the overlay (a new battle).
func hide() -> void:
	_overlay.hide()


## Shows [param title] in [param color] above [param detail], with [param focus] focused
## (none: no button); a coroutine that returns once the overlay is laid out, so the
## screen may print where its buttons are.
func show(title: String, color: Color, detail: String, focus: Button = null) -> void:
	_title.text = title
	_title.add_theme_color_override("font_color", color)
	_detail.text = detail
	_overlay.show()
	if focus != null:
		focus.grab_focus()
	await _overlay.get_tree().process_frame
