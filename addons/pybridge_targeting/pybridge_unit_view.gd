@tool
@icon("res://addons/pybridge_targeting/icons/pybridge_unit_view.svg")
class_name PyBridgeUnitView
extends Control
## The built-in battle unit: intent, portrait, name, HP bar, armor and statuses.
##
## This is the default of [member PyBridgeBattleView.unit_scene]; a game's own unit scene
## takes its place by offering the same small interface (see the addon guide):
## [br]- [method show_unit] (required): the unit to show, as a [Dictionary].
## [br]- [method set_highlighted], [method set_target_look], [method set_preview] (optional):
## lit as a target, looked at by the aiming arrow, what a play would do to it.
## [br]- [method target_point], [method tooltip_at] (optional): where the arrow's head snaps
## to, and what a tooltip says about the point under the pointer.
## [br]Colours, sizes and fonts are the theme items of the type [code]PyBridgeUnitView[/code]
## (see [PyBridge.ViewTheme]).

## How the unit looks under the aiming arrow.
enum TargetLook {
	NONE,  ## Not under the arrow.
	VALID,  ## Under the arrow and a valid target.
	INVALID,  ## Under the arrow and not a valid target.
}

const ViewDrawing := preload("res://addons/pybridge_targeting/drawing/pybridge_view_drawing.gd")
const UnitParts := preload("res://addons/pybridge_targeting/drawing/pybridge_unit_parts.gd")
## The theme type of every item this view reads.
const THEME_TYPE := &"PyBridgeUnitView"
## How long a floating number shows, in seconds.
const FLOATER_SECONDS := 1.1
## How far a floating number rises while it shows, in pixels.
const FLOATER_RISE := 30.0
## At most this many numbers float at once (a new one pushes out the oldest).
const MAX_FLOATERS := 2
## How far apart two numbers floating at once stand.
const FLOATER_SPACING := 56.0

## The unit's id in the battle.
var unit_id: String = ""
## What [method show_unit] was given last.
var unit: Dictionary = {}
## The runtime's forecast of the intent shown above the unit ([code]title[/code],
## [code]detail[/code], [code]kind[/code], [code]lines[/code], ...), or empty.
var intent: Dictionary = {}
## Whether the unit is lit as a candidate or in range.
var highlighted: bool = false
## How the unit looks under the aiming arrow.
var target_look: TargetLook = TargetLook.NONE
## Preview marks shown over the portrait: [code][{"text", "kind"}][/code].
var preview_lines: Array[Dictionary] = []

var _flash: float = 0.0
var _floaters: Array[Dictionary] = []
var _look: PyBridge.ViewTheme.Lookup = null
var _parts: UnitParts = null


func _ready() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	if size == Vector2.ZERO:
		size = unit_size()
	set_process(false)


func _init() -> void:
	_look = PyBridge.ViewTheme.Lookup.new(self, THEME_TYPE)
	_parts = UnitParts.new(self, _look, THEME_TYPE)


func _notification(what: int) -> void:
	if what == NOTIFICATION_THEME_CHANGED:
		_look.forget()
		queue_redraw()


func _process(delta: float) -> void:
	_flash = maxf(0.0, _flash - delta * 2.5)
	var alive_floaters: Array[Dictionary] = []
	for floater in _floaters:
		floater["age"] = float(floater["age"]) + delta
		if float(floater["age"]) < FLOATER_SECONDS:
			alive_floaters.append(floater)
	_floaters = alive_floaters
	set_process(_flash > 0.0 or not _floaters.is_empty())
	queue_redraw()


func _draw() -> void:
	var w := size.x
	var alive := is_alive()
	var portrait := portrait_rect()
	var team_color := (
		_look.color(&"party") if str(unit.get("team", "")) == "player" else _look.color(&"enemy")
	)
	var radius := float(_look.constant(&"corner_radius"))
	_parts.intent(intent_rect(), str(intent.get("kind", "")), intent_lines())
	if highlighted or target_look != TargetLook.NONE:
		_draw_ring(ring_rect())
	var fill := team_color if alive else _look.color(&"fallen")
	var art: Variant = unit.get("art")
	if art is Texture2D:
		ViewDrawing.fill_texture(self, art, portrait)
		if not alive:
			_parts.round_rect(portrait, Color(0, 0, 0, 0.55), radius)
	else:
		_parts.round_rect(portrait, fill.darkened(0.45), radius)
		_parts.round_rect(
			Rect2(portrait.position, Vector2(portrait.size.x, portrait.size.y * 0.6)),
			fill.darkened(0.15),
			radius
		)
		_parts.centered(
			_look.bold_font(),
			_initials(str(unit.get("name", unit_id))),
			Vector2(w * 0.5, portrait.get_center().y + 15),
			_look.font_size(&"initials_size"),
			Color(_look.color(&"text"), 0.92 if alive else 0.4)
		)
	_parts.round_rect(portrait, Color(1, 1, 1, 0.0), radius, Color(fill.lightened(0.35), 0.9), 2.0)
	if _flash > 0.0:
		_parts.round_rect(portrait, Color(_look.color(&"hit_flash"), _flash * 0.55), radius)
	if alive and is_in_reserve():
		_parts.round_rect(portrait, Color(0, 0, 0, 0.6), radius)
		_parts.centered(
			_look.bold_font(),
			tr("IN RESERVE"),
			Vector2(w * 0.5, portrait.end.y - 10),
			_look.font_size(&"defeated_size"),
			Color(_look.color(&"text"), 0.8)
		)
	if not alive:
		_parts.centered(
			_look.bold_font(),
			tr("DEFEATED"),
			Vector2(w * 0.5, portrait.end.y - 10),
			_look.font_size(&"defeated_size"),
			_look.color(&"defeated")
		)
	var name_y := portrait.end.y + 24.0
	_parts.centered(
		_look.bold_font(),
		str(unit.get("name", unit_id)),
		Vector2(w * 0.5, name_y),
		_look.font_size(&"name_size"),
		_look.color(&"text") if alive else Color(_look.color(&"text"), 0.5)
	)
	_parts.hp(Rect2(16, name_y + 8.0, w - 24, 20), unit)
	for chip in status_chips():
		_parts.chip(chip)
	_parts.preview(portrait, preview_lines)
	if target_look == TargetLook.INVALID:
		_parts.invalid_mark(portrait)
	for i in _floaters.size():
		var floater := _floaters[i]
		var age := float(floater["age"])
		var alpha := clampf(1.4 - age * 1.3, 0.0, 1.0)
		var at := floater_point(i, age)
		var edge := _look.color(&"floater_outline")
		for shadow: Vector2 in [Vector2(2, 3), Vector2.ZERO]:  # a drop shadow, then the number
			ViewDrawing.centered_text(
				self,
				_look.bold_font(),
				str(floater["text"]),
				at + shadow,
				floater_font_size(),
				Color(floater["color"], alpha) if shadow == Vector2.ZERO else Color(edge, alpha),
				_look.constant(&"floater_outline"),
				Color(edge, edge.a * alpha)
			)


## Shows [param data], the unit as the battle view describes it: [code]id[/code],
## [code]name[/code], [code]team[/code], [code]hp[/code], [code]max_hp[/code],
## [code]armor[/code], [code]alive[/code], [code]statuses[/code]
## ([code][{"id", "name", "stacks", "text"}][/code]), [code]intent[/code] (the runtime's
## forecast, or empty), [code]art[/code] (a [Texture2D] or null) and [code]unit[/code] (the
## state's own unit). A change of HP floats its number over the portrait.
func show_unit(data: Dictionary) -> void:
	var old_hp := int(unit.get("hp", -1))
	unit = data
	unit_id = str(data.get("id", ""))
	modulate.a = 0.6 if is_in_reserve() else 1.0
	intent = data.get("intent", {})
	var new_hp := int(data.get("hp", 0))
	if old_hp >= 0 and new_hp != old_hp:
		var change := new_hp - old_hp
		var color := _look.color(&"floater_loss") if change < 0 else _look.color(&"floater_gain")
		_floaters.append({"text": "%+d" % change, "color": color, "age": 0.0})
		if _floaters.size() > MAX_FLOATERS:
			_floaters.pop_front()
		_flash = 1.0 if change < 0 else 0.0
		set_process(true)
	queue_redraw()


## Lights the unit up (or not) as a candidate or in range.
func set_highlighted(on: bool) -> void:
	if highlighted != on:
		highlighted = on
		queue_redraw()


## Marks the unit as looked at by the aiming arrow.
func set_target_look(new_look: TargetLook) -> void:
	if target_look != new_look:
		target_look = new_look
		queue_redraw()


## Shows what a play would do to the unit ([code][{"text", "kind"}][/code]; empty clears).
func set_preview(lines: Array[Dictionary]) -> void:
	preview_lines = lines
	queue_redraw()


## Whether the unit has HP left.
func is_alive() -> bool:
	return int(unit.get("hp", 0)) > 0


## Whether the unit waits off the field, in the reserve (the state's [code]zone[/code]).
func is_in_reserve() -> bool:
	return str(unit.get("zone", "field")) == "reserve"


## The unit's size from the theme ([code]width[/code] and [code]height[/code] constants).
func unit_size() -> Vector2:
	return Vector2(_look.constant(&"width"), _look.constant(&"height"))


## Where the aiming arrow's head snaps to: the top of the portrait, global coordinates.
func target_point() -> Vector2:
	return get_global_transform() * Vector2(size.x * 0.5, portrait_rect().position.y + 6.0)


## The centre of the portrait, global coordinates (where a click or a drop lands on it).
func center_point() -> Vector2:
	return get_global_transform() * portrait_rect().get_center()


## The portrait (local).
func portrait_rect() -> Rect2:
	return Rect2(
		10, _look.constant(&"portrait_top"), size.x - 20, _look.constant(&"portrait_height")
	)


## The ring drawn round a lit unit (local).
func ring_rect() -> Rect2:
	var portrait := portrait_rect()
	return Rect2(2, portrait.position.y - 6, size.x - 4, portrait.size.y + 60)


## The intent bubble and its tail (local), or an empty rectangle without an intent.
func intent_rect() -> Rect2:
	if intent.is_empty() or not is_alive():
		return Rect2()
	return Rect2(6, 0, size.x - 12, _look.constant(&"bubble_height") + 7)


## The intent bubble's two lines (title, detail), each at the largest font size up to the
## theme's that fits inside the bubble (long move names and sums shrink rather than
## overflow): [code][{"text", "font", "size", "width", "room"}][/code], widths in pixels.
func intent_lines() -> Array[Dictionary]:
	var lines: Array[Dictionary] = []
	var room := intent_rect().size.x - 12.0
	if room <= 0.0:
		return lines
	var smallest := _look.font_size(&"intent_min_size")
	for part: Array in [
		["title", _look.bold_font(), &"intent_title_size"],
		["detail", _look.font(), &"intent_detail_size"]
	]:
		var text := str(intent.get(part[0], ""))
		var font: Font = part[1]
		var fitted := ViewDrawing.fitting_size(font, text, room, _look.font_size(part[2]), smallest)
		var width := font.get_string_size(text, HORIZONTAL_ALIGNMENT_LEFT, -1, fitted).x
		lines.append({"text": text, "font": font, "size": fitted, "width": width, "room": room})
	return lines


## Where the [param index]-th floating number is drawn (its baseline centre, local) at
## [param age] seconds: it rises inside the portrait, below the intent bubble, and two
## numbers that show at once stand side by side.
func floater_point(index: int, age: float) -> Vector2:
	var portrait := portrait_rect()
	var count := clampi(_floaters.size(), 1, MAX_FLOATERS)
	var x := size.x * 0.5 + (index - (count - 1) * 0.5) * FLOATER_SPACING
	var rise := FLOATER_RISE * clampf(age / FLOATER_SECONDS, 0.0, 1.0)
	return Vector2(x, portrait.get_center().y + 30.0 - rise)


## The size of a floating number: [code]floater_size[/code], never below
## [code]floater_min_size[/code] (both theme font sizes).
func floater_font_size() -> int:
	return maxi(_look.font_size(&"floater_size"), _look.font_size(&"floater_min_size"))


## How many numbers float now.
func floater_count() -> int:
	return _floaters.size()


## The box a floating number drawn at [param point] covers (local).
func floater_box(point: Vector2, text: String = "-88") -> Rect2:
	var font_size := floater_font_size()
	var font := _look.bold_font()
	var width := font.get_string_size(text, HORIZONTAL_ALIGNMENT_LEFT, -1, font_size).x + 8.0
	var ascent := font.get_ascent(font_size) + 4.0
	return Rect2(
		point.x - width * 0.5, point.y - ascent, width, ascent + font.get_descent(font_size) + 4.0
	)


## The status chips under the HP bar: [code][{"id", "label", "text", "rect"}][/code] (local).
func status_chips() -> Array[Dictionary]:
	var chips: Array[Dictionary] = []
	var statuses: Array = unit.get("statuses", [])
	if statuses.is_empty() or not is_alive():  # a defeated unit carries nothing any more
		return chips
	var font := _look.font()
	var font_size := _look.font_size(&"status_size")
	var rows: Array[Array] = [[]]
	var row_width := 0.0
	for status: Dictionary in statuses:
		var label := (
			"%s %d" % [tr(str(status.get("name", status.get("id")))), int(status.get("stacks", 0))]
		)
		var width := font.get_string_size(label, HORIZONTAL_ALIGNMENT_LEFT, -1, font_size).x + 12
		if row_width + width > size.x - 8 and not rows[-1].is_empty():
			rows.append([])
			row_width = 0.0
		rows[-1].append(
			{
				"id": str(status.get("id", "")),
				"label": label,
				"text": str(status.get("text", "")),
				"name": str(status.get("name", "")),
				"width": width
			}
		)
		row_width += width + 4
	var y := portrait_rect().end.y + 60.0
	for row in rows:
		var total := -4.0
		for item: Dictionary in row:
			total += float(item["width"]) + 4
		var x := (size.x - total) * 0.5
		for item: Dictionary in row:
			item["rect"] = Rect2(x, y, float(item["width"]), 18)
			chips.append(item)
			x += float(item["width"]) + 4
		y += 20.0
	return chips


## What a tooltip says about [param global_point]: a status chip's name and text, or the
## intent's move with what it will do; empty elsewhere. [code]{"title", "text", "rect"}[/code],
## [code]rect[/code] being what it explains (global), for the tooltip to stand beside.
func tooltip_at(global_point: Vector2) -> Dictionary:
	var to_global := get_global_transform()
	var point := to_global.affine_inverse() * global_point
	for chip in status_chips():
		var rect: Rect2 = chip["rect"]
		if rect.grow(2).has_point(point):
			return {"title": chip["name"], "text": chip["text"], "rect": to_global * rect}
	if intent_rect().has_point(point):
		var lines: Array = intent.get("lines", [])
		var text := str(intent.get("detail", ""))
		if not lines.is_empty():
			text += "\n" + "\n".join(PackedStringArray(lines))
		return {
			"title": str(intent.get("title", "")),
			"text": text.strip_edges(),
			"rect": to_global * intent_rect()
		}
	return {}


func _draw_ring(frame: Rect2) -> void:
	var color := _look.color(&"highlight")
	var thickness := 4.0
	if target_look == TargetLook.VALID:
		color = color.lightened(0.3)
		thickness = 6.0
	elif target_look == TargetLook.INVALID:
		color = _look.color(&"invalid")
	_parts.round_rect(frame.grow(4), Color(color, 0.16), 16)
	_parts.round_rect(frame, Color(0, 0, 0, 0), 14, color, thickness)


func _initials(text: String) -> String:
	var words := text.split(" ", false)
	if words.size() >= 2:
		return (words[0].left(1) + words[1].left(1)).to_upper()
	return text.left(2).capitalize()
