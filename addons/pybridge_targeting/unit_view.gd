@tool
@icon("res://addons/pybridge_targeting/icons/unit_view.svg")
class_name UnitView
extends Control
## One battle unit: portrait, name, HP bar, armor, statuses and (for enemies) the intent.
##
## Fill it with [method show_unit] from a unit of the battle state. [BattleView] lights it up
## with [method set_highlighted] when it is a candidate or in range of the card being aimed,
## marks it with [method set_target_look] while the arrow hovers it, and shows what a play
## would do with [method set_preview].

## How the unit looks under the aiming arrow.
enum TargetLook {
	NONE, ## Not under the arrow.
	VALID, ## Under the arrow and a valid target.
	INVALID, ## Under the arrow and not a valid target.
}

const PORTRAIT_TOP := 46.0
const PORTRAIT_HEIGHT := 100.0

## Portrait tint of the player's party.
@export var party_color: Color = Color("3d8fd1")
## Portrait tint of the enemy team.
@export var enemy_color: Color = Color("d0583a")
## Ring colour of a highlighted unit (a candidate, or in the card's range).
@export var highlight_color: Color = Color("ffd54a")
## Ring colour of a unit the arrow hovers that is not a valid target.
@export var invalid_color: Color = Color("ff4d7a")
## Text colour.
@export var text_color: Color = Color("f4f1ea")
## Intent bubble colour by the kind of move the runtime forecasts.
@export var intent_colors: Dictionary = {
	"attack": Color("ff7b6b"),
	"defend": Color("8fc9ff"),
	"buff": Color("c9a6ff"),
	"debuff": Color("b6e36b"),
	"heal": Color("7dff9a"),
	"none": Color("8a8794"),
}

## The unit's id in the battle.
var unit_id: String = ""
## The unit as the battle state has it: name, team, hp, max_hp, armor, statuses.
var unit: Dictionary = {}
## The runtime's forecast of the intent shown above the unit ([code]title[/code],
## [code]detail[/code], [code]kind[/code], ...), or empty.
var intent: Dictionary = {}
## Status id -> display name.
var status_names: Dictionary = {}
## Whether the unit is lit as a candidate or in range.
var highlighted: bool = false
## How the unit looks under the aiming arrow.
var target_look: TargetLook = TargetLook.NONE
## Preview lines shown over the portrait: [code][{"text", "color"}][/code].
var preview_lines: Array[Dictionary] = []

var _flash: float = 0.0
var _floaters: Array[Dictionary] = []
var _bold: FontVariation = null


func _ready() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	if size == Vector2.ZERO:
		size = Vector2(140, 230)
	set_process(false)


func _process(delta: float) -> void:
	_flash = maxf(0.0, _flash - delta * 2.5)
	var alive_floaters: Array[Dictionary] = []
	for floater in _floaters:
		floater["age"] = float(floater["age"]) + delta
		if float(floater["age"]) < 1.1:
			alive_floaters.append(floater)
	_floaters = alive_floaters
	set_process(_flash > 0.0 or not _floaters.is_empty())
	queue_redraw()


func _draw() -> void:
	var font := get_theme_default_font()
	if _bold == null:
		_bold = FontVariation.new()
		_bold.base_font = font
		_bold.variation_embolden = 0.7
	var w := size.x
	var alive := is_alive()
	var team_color := party_color if str(unit.get("team", "")) == "player" else enemy_color
	_draw_intent(w)
	var portrait := Rect2(10, PORTRAIT_TOP, w - 20, PORTRAIT_HEIGHT)
	var frame := Rect2(2, PORTRAIT_TOP - 6, w - 4, 160)
	if highlighted or target_look != TargetLook.NONE:
		_draw_ring(frame)
	var fill := team_color if alive else Color("4a4a55")
	_round_rect(portrait, fill.darkened(0.45), 12)
	_round_rect(Rect2(portrait.position, Vector2(portrait.size.x, portrait.size.y * 0.6)),
			fill.darkened(0.15), 12)
	_round_rect(portrait, Color(1, 1, 1, 0.0), 12, Color(fill.lightened(0.35), 0.9), 2.0)
	if _flash > 0.0:
		_round_rect(portrait, Color(1, 0.25, 0.2, _flash * 0.55), 12)
	var initials := _initials(str(unit.get("name", unit_id)))
	_centered(_bold, initials, Vector2(w * 0.5, portrait.get_center().y + 15), 44,
			Color(text_color, 0.92 if alive else 0.4))
	if not alive:
		_centered(_bold, "DEFEATED", Vector2(w * 0.5, portrait.end.y - 10), 14,
				Color("ff8a80"))
	_centered(_bold, str(unit.get("name", unit_id)), Vector2(w * 0.5, 170), 16,
			text_color if alive else Color(text_color, 0.5))
	_draw_hp(Rect2(16, 178, w - 24, 20), font)
	_draw_statuses(font, 206.0)
	_draw_preview(portrait)
	for floater in _floaters:
		var age := float(floater["age"])
		var at := Vector2(w * 0.5, portrait.position.y + 30 - age * 45.0)
		_centered(_bold, str(floater["text"]), at, 30,
				Color(floater["color"], clampf(1.4 - age * 1.3, 0.0, 1.0)))


## Shows [param data] (a unit of the battle state: its intent carries the runtime's
## [code]forecast[/code]), with [param names] (status id -> name).
func show_unit(data: Dictionary, names: Dictionary = {}) -> void:
	var old_hp := int(unit.get("hp", -1))
	unit = data
	unit_id = str(data.get("id", ""))
	intent = {}
	if data.get("intent") is Dictionary and data["intent"].get("forecast") is Dictionary:
		intent = data["intent"]["forecast"]
	status_names = names
	var new_hp := int(data.get("hp", 0))
	if old_hp >= 0 and new_hp != old_hp:
		var change := new_hp - old_hp
		var color := Color("ff6b5a") if change < 0 else Color("7dff9a")
		_floaters.append({"text": ("%+d" % change), "color": color, "age": 0.0})
		_flash = 1.0 if change < 0 else 0.0
		set_process(true)
	queue_redraw()


## Lights the unit up (or not) as a candidate or in range.
func set_highlighted(on: bool) -> void:
	if highlighted != on:
		highlighted = on
		queue_redraw()


## Marks the unit as hovered by the aiming arrow.
func set_target_look(new_look: TargetLook) -> void:
	if target_look != new_look:
		target_look = new_look
		queue_redraw()


## Shows preview lines over the portrait ([code][{"text", "color"}][/code]; empty clears).
func set_preview(lines: Array[Dictionary]) -> void:
	preview_lines = lines
	queue_redraw()


## Whether the unit has HP left.
func is_alive() -> bool:
	return int(unit.get("hp", 0)) > 0


## Where the aiming arrow's head snaps to: the top of the portrait, global coordinates.
func target_point() -> Vector2:
	return get_global_transform() * Vector2(size.x * 0.5, PORTRAIT_TOP + 6.0)


## The centre of the unit, global coordinates (where a click or a drop lands on it).
func center_point() -> Vector2:
	return get_global_transform() * Vector2(size.x * 0.5, PORTRAIT_TOP + PORTRAIT_HEIGHT * 0.5)


func _draw_ring(frame: Rect2) -> void:
	var color := highlight_color
	var thickness := 4.0
	if target_look == TargetLook.VALID:
		color = highlight_color.lightened(0.3)
		thickness = 6.0
	elif target_look == TargetLook.INVALID:
		color = invalid_color
		thickness = 4.0
	_round_rect(frame.grow(4), Color(color, 0.16), 16)
	_round_rect(frame, Color(0, 0, 0, 0), 14, color, thickness)
	if target_look == TargetLook.INVALID:
		var c := frame.get_center()
		draw_line(c + Vector2(-22, -22), c + Vector2(22, 22), Color(invalid_color, 0.9), 6, true)
		draw_line(c + Vector2(22, -22), c + Vector2(-22, 22), Color(invalid_color, 0.9), 6, true)


func _draw_intent(w: float) -> void:
	if intent.is_empty() or not is_alive():
		return
	var edge: Color = intent_colors.get(str(intent.get("kind", "")), Color("8fc9ff"))
	var box := Rect2(6, 0, w - 12, 38)
	_round_rect(box, Color(0.08, 0.07, 0.12, 0.92), 8, edge, 2.0)
	# A small tail pointing down at the unit.
	draw_colored_polygon(PackedVector2Array([Vector2(w * 0.5 - 7, 38), Vector2(w * 0.5 + 7, 38),
			Vector2(w * 0.5, 45)]), edge)
	_centered(_bold, str(intent.get("title", "")), Vector2(w * 0.5, 17), 14, edge.lightened(0.3))
	_centered(get_theme_default_font(), str(intent.get("detail", "")), Vector2(w * 0.5, 32), 11,
			Color(text_color, 0.85))


func _draw_hp(bar: Rect2, font: Font) -> void:
	var hp := int(unit.get("hp", 0))
	var max_hp := maxi(1, int(unit.get("max_hp", 1)))
	_round_rect(bar, Color("1b1a24"), 6, Color(0, 0, 0, 0.8), 1.5)
	var ratio := clampf(float(hp) / max_hp, 0.0, 1.0)
	if ratio > 0.0:
		var fill := Color("e04848") if ratio < 0.35 else Color("47c06a")
		_round_rect(Rect2(bar.position + Vector2(2, 2), Vector2((bar.size.x - 4) * ratio,
				bar.size.y - 4)), fill, 5)
	_centered(font, "%d / %d" % [hp, max_hp], bar.get_center() + Vector2(0, 5), 13, text_color)
	var armor := int(unit.get("armor", 0))
	if armor > 0:
		var c := Vector2(bar.position.x - 2, bar.get_center().y)
		var shield := PackedVector2Array([c + Vector2(-13, -13), c + Vector2(13, -13),
				c + Vector2(13, 2), c + Vector2(0, 15), c + Vector2(-13, 2)])
		draw_colored_polygon(shield, Color("6d7fa8"))
		draw_polyline(shield + PackedVector2Array([shield[0]]), Color("c9d6f2"), 2.0, true)
		_centered(_bold, str(armor), c + Vector2(0, 5), 14, Color.WHITE)


func _draw_statuses(font: Font, top: float) -> void:
	var statuses: Dictionary = {}
	if unit.get("statuses") is Dictionary:
		statuses = unit["statuses"]
	if statuses.is_empty():
		return
	var chips: Array[String] = []
	for id: Variant in statuses:
		var label := str(status_names.get(id, str(id).capitalize()))
		chips.append("%s %d" % [label, int(statuses[id])])
	# Rows of chips, each row centred under the unit.
	var rows: Array[Array] = [[]]
	var row_width := 0.0
	for chip in chips:
		var width := font.get_string_size(chip, HORIZONTAL_ALIGNMENT_LEFT, -1, 12).x + 12
		if row_width + width > size.x - 8 and not rows[-1].is_empty():
			rows.append([])
			row_width = 0.0
		rows[-1].append([chip, width])
		row_width += width + 4
	var y := top
	for row in rows:
		var total := -4.0
		for item: Array in row:
			total += float(item[1]) + 4
		var x := (size.x - total) * 0.5
		for item: Array in row:
			var width := float(item[1])
			_round_rect(Rect2(x, y, width, 18), Color("3b2f55"), 9, Color("a48be0"), 1.0)
			draw_string(font, Vector2(x + 6, y + 13.5), str(item[0]), HORIZONTAL_ALIGNMENT_LEFT,
					-1, 12, Color("e9e0ff"))
			x += width + 4
		y += 20.0


func _draw_preview(portrait: Rect2) -> void:
	if preview_lines.is_empty():
		return
	var height := 8.0 + 26.0 * preview_lines.size()
	# Below the arrow's head, which points at the top of the portrait.
	var box := Rect2(portrait.position.x - 4, portrait.end.y - height + 6,
			portrait.size.x + 8, height)
	_round_rect(box, Color(0.05, 0.04, 0.09, 0.88), 10, Color(1, 1, 1, 0.35), 1.5)
	var y := box.position.y + 25.0
	for line in preview_lines:
		var text := str(line.get("text", ""))
		var color: Color = line.get("color", text_color)
		var font_size := 22 if text.length() <= 10 else 15
		_centered(_bold, text, Vector2(size.x * 0.5, y - (2 if font_size == 22 else 5)),
				font_size, color)
		y += 26.0


func _centered(font: Font, text: String, at: Vector2, font_size: int, color: Color) -> void:
	ViewDrawing.centered_text(self, font, text, at, font_size, color, 4,
			Color(0, 0, 0, 0.75 * color.a))


func _round_rect(rect: Rect2, fill: Color, radius: float, border: Color = Color(0, 0, 0, 0),
		border_width: float = 0.0) -> void:
	ViewDrawing.round_rect(self, rect, fill, radius, border, border_width)


func _initials(text: String) -> String:
	var words := text.split(" ", false)
	if words.size() >= 2:
		return (words[0].left(1) + words[1].left(1)).to_upper()
	return text.left(2).capitalize()
