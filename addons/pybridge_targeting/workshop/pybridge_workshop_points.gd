@tool
extends RefCounted
## Where the parts of the Workshop's screen are, for tools and tests: each panel's own points,
## the tool bar buttons, the tabs, the sandbox and an open question, in global coordinates.


## The points of [param layout] (the Workshop's screen).
static func of(layout: VBoxContainer) -> Dictionary:
	var points := {
		"library": layout.library.layout_points(),
		"form": layout.form.layout_points(),
		"palette": layout.palette.layout_points(),
		"graph": layout.graph.layout_points(),
		"diagnostics": layout.diagnostics.layout_points(),
		"text": layout.text.layout_points(),
		"tabs": _tabs(layout.tabs),
	}
	for action: String in layout.buttons:
		points[action] = _middle(layout.buttons[action])
	if layout.sandbox.visible:
		points["sandbox"] = layout.sandbox.layout_points()
	if layout.question.visible:
		# A dialog is a window of its own: its controls' points are inside it.
		var origin := Vector2(layout.question.position)
		points["question"] = {
			"ok": _xy(origin + layout.question.get_ok_button().get_global_rect().get_center()),
			"cancel":
			_xy(origin + layout.question.get_cancel_button().get_global_rect().get_center()),
		}
	return points


static func _tabs(tabs: TabContainer) -> Dictionary:
	var bar := tabs.get_tab_bar()
	var points := {}
	for i in bar.tab_count:
		var rect := bar.get_tab_rect(i)
		var at := bar.get_global_transform_with_canvas() * rect.get_center()
		points[bar.get_tab_title(i)] = [roundi(at.x), roundi(at.y)]
	return points


static func _middle(control: Control) -> Array:
	return _xy(control.get_global_transform_with_canvas() * (control.size * 0.5))


static func _xy(point: Vector2) -> Array:
	return [roundi(point.x), roundi(point.y)]
