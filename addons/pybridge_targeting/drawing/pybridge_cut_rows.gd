@tool
extends RefCounted
## The Cut view's entry rows: each waiting entry as a framed line in its side's colour (its
## number in the chain, its card's or move's name, its source and targets), the one resolving
## outlined. It is told only what it draws from: the view's theme lookup, the display names
## and the ranges collected again; the view owns the rows it is given.

## Display names by kind ([code]{"units", "cards", "moves"}[/code], see
## [method PyBridgeBattleView.names]).
var names: Dictionary = {}
## Entry id -> the units an "all ~" entry reached when it was collected again.
var ranges: Dictionary = {}

var _look: PyBridge.ViewTheme.Lookup = null


func _init(look: PyBridge.ViewTheme.Lookup) -> void:
	_look = look


## The row of [param entry] (a [code]cut[/code] entry with its [code]label[/code]);
## [param resolving]: it is the entry resolving now.
func row(entry: Dictionary, resolving: bool) -> Control:
	var color := side_color(str(entry.get("side", "")))
	var box := PanelContainer.new()
	box.mouse_filter = Control.MOUSE_FILTER_IGNORE
	var frame := box_of(Color(color.darkened(0.7), 0.95), color, 2)
	if resolving:
		frame = box_of(Color(color.darkened(0.5), 1.0), _look.color(&"resolving"), 4)
	box.add_theme_stylebox_override(&"panel", frame)
	var line := HBoxContainer.new()
	line.add_theme_constant_override(&"separation", 8)
	box.add_child(line)
	var badge := label(str(entry.get("label", "")), &"text", &"title_size")
	badge.custom_minimum_size = Vector2(22, 0)
	badge.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	badge.add_theme_color_override(&"font_color", color.lightened(0.45))
	line.add_child(badge)
	var words := VBoxContainer.new()
	words.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	words.add_theme_constant_override(&"separation", 0)
	words.add_child(label(title_of(entry), &"text", &"entry_size"))
	var detail := label(detail_of(entry), &"dim_text", &"detail_size")
	detail.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	words.add_child(detail)
	line.add_child(words)
	return box


## The name [param entry] is shown under: its card's, else its move's.
func title_of(entry: Dictionary) -> String:
	var card: Variant = entry.get("card")
	if card is Dictionary:
		return str(names.get("cards", {}).get(str(card.get("id")), card.get("card")))
	return str(names.get("moves", {}).get(str(entry.get("move")), entry.get("move")))


## The line under the title: the source and the locked targets, what an "all ~" entry
## reaches, or that it chooses as it resolves.
func detail_of(entry: Dictionary) -> String:
	var source := _unit_name(str(entry.get("source", "")))
	var id := str(entry.get("id", ""))
	var late: Variant = entry.get("late_choice")
	var reached: Array = ranges.get(id, entry.get("collected", []))
	var targets: Array = entry.get("targets", [])
	if late is Dictionary:
		return tr("%s · chooses as it resolves") % source
	if not targets.is_empty():
		return "%s » %s" % [source, _unit_names(targets)]
	if not reached.is_empty() or ranges.has(id):
		return tr("%s · reaches %s") % [source, _unit_names(reached)]
	return source


## A label in the theme's [param color] and [param font_size] items.
func label(text: String, color: StringName, font_size: StringName) -> Label:
	var made := Label.new()
	made.text = text
	made.mouse_filter = Control.MOUSE_FILTER_IGNORE
	made.add_theme_color_override(&"font_color", _look.color(color))
	made.add_theme_font_size_override(&"font_size", _look.font_size(font_size))
	return made


## The colour of [param side]'s entries.
func side_color(side: String) -> Color:
	return _look.color(&"enemy") if side == "enemy" else _look.color(&"player")


## A rounded frame.
static func box_of(fill: Color, border: Color, width: int) -> StyleBoxFlat:
	var box := StyleBoxFlat.new()
	box.bg_color = fill
	box.border_color = border
	box.set_border_width_all(width)
	box.set_corner_radius_all(8)
	box.set_content_margin_all(8)
	box.anti_aliasing = true
	return box


func _unit_name(id: String) -> String:
	return str(names.get("units", {}).get(id, id))


func _unit_names(ids: Array) -> String:
	var words := PackedStringArray()
	for id: Variant in ids:
		words.append(_unit_name(str(id)))
	return ", ".join(words) if not words.is_empty() else tr("no one")
