@tool
extends VBoxContainer
## The list of what the runtime's contract checker says: the edited card's diagnostics first,
## then the other cards' and the library's. Each row names its code, where it is (node, field
## or port) and the message; its tooltip gives the fix. Clicking a row focuses what it names.

## The designer clicked [param diagnostic] (with its [code]card_index[/code] and
## [code]place[/code]).
signal diagnostic_chosen(diagnostic: Dictionary)

## Colours by severity.
const SEVERITY_COLORS := {
	"error": Color("ff5c6c"),
	"warning": Color("ffb347"),
	"info": Color("7fb8ff"),
}

## The summary line.
var summary: Label = null
## One button per diagnostic shown, in order.
var rows: Array[Button] = []
## The diagnostics shown, in row order.
var shown: Array = []

var _list: VBoxContainer = null


func _init() -> void:
	summary = Label.new()
	summary.text = "Checks"
	add_child(summary)
	var scroll := ScrollContainer.new()
	scroll.size_flags_vertical = Control.SIZE_EXPAND_FILL
	scroll.horizontal_scroll_mode = ScrollContainer.SCROLL_MODE_DISABLED
	add_child(scroll)
	_list = VBoxContainer.new()
	_list.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	scroll.add_child(_list)


## Shows [param current] (the edited card's diagnostics), then [param others] (other cards'
## and the library's); [param names] gives a card index's label.
func show_diagnostics(current: Array, others: Array, names: Callable) -> void:
	for child in _list.get_children():
		_list.remove_child(child)
		child.queue_free()
	rows.clear()
	shown = []
	var counts := {"error": 0, "warning": 0, "info": 0}
	for diagnostic: Variant in current:
		counts[str(diagnostic.get("severity"))] = (
			int(counts.get(str(diagnostic.get("severity")), 0)) + 1
		)
		_add_row(diagnostic, "")
	if not others.is_empty():
		var heading := Label.new()
		heading.text = "Other cards"
		heading.add_theme_color_override("font_color", Color("b8b3c9"))
		_list.add_child(heading)
		for diagnostic: Variant in others:
			var index := int(diagnostic.get("card_index", -1))
			_add_row(diagnostic, "library" if index < 0 else str(names.call(index)))
	var parts := PackedStringArray()
	for severity: String in counts:
		if counts[severity] > 0:
			parts.append(
				"%d %s" % [counts[severity], severity if counts[severity] == 1 else severity + "s"]
			)
	summary.text = (
		"This card: " + (", ".join(parts) if not parts.is_empty() else "no problems found")
	)


## The middle of each row, global coordinates.
func layout_points() -> Array:
	var points: Array = []
	for row in rows:
		var at := row.get_global_transform_with_canvas() * (row.size * 0.5)
		points.append([roundi(at.x), roundi(at.y)])
	return points


## Where a diagnostic is, in words: "node hit, field source".
static func where_text(diagnostic: Dictionary) -> String:
	var place: Dictionary = diagnostic.get("place", {})
	var parts := PackedStringArray()
	if not str(place.get("node", "")).is_empty():
		parts.append("node %s" % place["node"])
	var field := str(place.get("field", ""))
	if field.begins_with("ports."):
		parts.append("port %s" % field.substr(6))
	elif not field.is_empty():
		parts.append("field %s" % field)
	if parts.is_empty():
		parts.append(str(diagnostic.get("path", "")))
	return ", ".join(parts)


func _add_row(diagnostic: Dictionary, card_label: String) -> void:
	var button := Button.new()
	button.flat = true
	button.alignment = HORIZONTAL_ALIGNMENT_LEFT
	button.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	button.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	var head := "%s %s" % [diagnostic.get("code", ""), diagnostic.get("severity", "")]
	if not card_label.is_empty():
		head += " in " + card_label
	button.text = "%s, %s:\n%s" % [head, where_text(diagnostic), diagnostic.get("message", "")]
	var fix := str(diagnostic.get("fix", ""))
	button.tooltip_text = "Fix: " + fix if not fix.is_empty() else ""
	var color: Color = SEVERITY_COLORS.get(str(diagnostic.get("severity")), Color.WHITE)
	for state: String in ["font_color", "font_hover_color", "font_focus_color"]:
		button.add_theme_color_override(state, color)
	button.add_theme_font_size_override("font_size", 13)
	button.pressed.connect(diagnostic_chosen.emit.bind(diagnostic))
	_list.add_child(button)
	rows.append(button)
	shown.append(diagnostic)
