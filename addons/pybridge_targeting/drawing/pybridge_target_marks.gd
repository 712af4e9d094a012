@tool
extends Control
## Markers over the units of a [PyBridgeBattleView]: the numbered picks of a choice being
## made, and the Cut's entries on the units they concern: the targets an entry locked, the
## range an "all ~" entry reaches now, and a target lost as its entry resolved. A Cut marker
## carries its entry's place on the Cut (1 at the bottom), as [PyBridgeCutView] numbers it.
##
## It draws what the view gives it (the runtime's answers and events), over the units and
## under the hand; colours, sizes and fonts are the theme items of the type
## [code]TargetMarks[/code]: colours [code]pick[/code], [code]player[/code],
## [code]enemy[/code], [code]lost[/code], [code]text[/code], [code]outline[/code]; constants
## [code]radius[/code], [code]spacing[/code]; font size [code]number_size[/code].

## What a marker says about its unit.
enum Kind {
	PICK,  ## Picked for the choice being made (numbered in picking order).
	LOCKED,  ## A target a Cut entry locked.
	RANGE,  ## In the range an "all ~" Cut entry reaches now.
	LOST,  ## A target lost when its entry resolved.
}

const ViewDrawing := preload("res://addons/pybridge_targeting/drawing/pybridge_view_drawing.gd")
const BattleLayout := preload("res://addons/pybridge_targeting/battle/pybridge_battle_layout.gd")
const BattleStage := preload("res://addons/pybridge_targeting/battle/pybridge_battle_stage.gd")
## The theme type of every item it reads.
const THEME_TYPE := &"PyBridgeTargetMarks"

## The picks of the choice being made, in order (unit ids).
var picks: PackedStringArray = PackedStringArray()
## The Cut's markers: [code][{"unit", "kind", "label", "side", "entry"}][/code].
var cut_marks: Array[Dictionary] = []
## The entry resolving now ([code]""[/code]: none): its markers are drawn larger.
var resolving: String = ""

var _look: PyBridge.ViewTheme.Lookup = null
var _view: PyBridgeBattleView = null
var _entries: Dictionary = {}


func _init(view: PyBridgeBattleView = null) -> void:
	_look = PyBridge.ViewTheme.Lookup.new(self, THEME_TYPE)
	_view = view
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	z_index = 10


func _draw() -> void:
	if _view == null:
		return
	var inverse := get_global_transform().affine_inverse()
	for mark in marks():
		var at: Array = mark["point"]
		_draw_mark(inverse * Vector2(at[0], at[1]), mark)


## Shows the picks [param ids] (unit ids in picking order; empty clears them).
func show_picks(ids: PackedStringArray) -> void:
	if ids != picks:
		picks = ids
		queue_redraw()


## Shows the Cut as the runtime's [code]cut[/code] answer [param cut] lists it: each entry's
## locked targets and collected range. Lost markers stay until [method clear_lost], or until
## the chain is over (an empty Cut): a marker of a finished chain would only cover the unit.
func show_cut(cut: Array) -> void:
	var kept: Array[Dictionary] = []
	for mark in cut_marks:
		if mark["kind"] == Kind.LOST and not cut.is_empty():
			kept.append(mark)
	_entries = {}
	for i in cut.size():
		var entry: Dictionary = cut[i]
		var side := str(entry.get("side", ""))
		_entries[str(entry.get("id"))] = {"label": i + 1, "side": side}
		for unit: Variant in entry.get("targets", []):
			kept.append(_mark(str(unit), Kind.LOCKED, i + 1, side, str(entry.get("id"))))
		for unit: Variant in entry.get("collected", []):
			kept.append(_mark(str(unit), Kind.RANGE, i + 1, side, str(entry.get("id"))))
	cut_marks = kept
	resolving = ""
	queue_redraw()


## An "all ~" entry [param entry] reaches [param units] now (collected again).
func show_range(entry: String, units: Array) -> void:
	var known: Dictionary = _entries.get(entry, {})
	if known.is_empty():
		return
	var kept: Array[Dictionary] = []
	for mark in cut_marks:
		if not (mark["entry"] == entry and mark["kind"] == Kind.RANGE):
			kept.append(mark)
	for unit: Variant in units:
		kept.append(_mark(str(unit), Kind.RANGE, known["label"], known["side"], entry))
	cut_marks = kept
	queue_redraw()


## The target [param unit] of the entry [param entry] was lost as it resolved (the log's
## line is the Cut view's to show).
func show_lost(entry: String, unit: String, _text: String = "") -> void:
	var known: Dictionary = _entries.get(entry, {"label": 0, "side": ""})
	cut_marks.append(_mark(unit, Kind.LOST, known["label"], known["side"], entry))
	queue_redraw()


## The entry [param entry]'s effect failed: its lost targets are marked already.
func show_failed(_entry: String, _text: String) -> void:
	pass


## The entry [param entry] resolves now: its markers stand out.
func show_resolving(entry: String) -> void:
	resolving = entry
	queue_redraw()


## Forgets the lost markers (a new play or pass begins).
func clear_lost() -> void:
	var kept: Array[Dictionary] = []
	for mark in cut_marks:
		if mark["kind"] != Kind.LOST:
			kept.append(mark)
	cut_marks = kept
	queue_redraw()


## Every marker shown now, where it is drawn:
## [code][{"unit", "kind", "label", "side", "entry", "point": [x, y]}][/code], [code]kind[/code]
## one of [code]"pick"[/code], [code]"locked"[/code], [code]"range"[/code], [code]"lost"[/code]
## and [code]point[/code] its centre (global). Units without a view are left out.
func marks() -> Array[Dictionary]:
	var found: Array[Dictionary] = []
	if _view == null:
		return found
	var on_unit := {}
	for i in picks.size():
		found.append(_placed(_mark(picks[i], Kind.PICK, i + 1, "", ""), on_unit))
	for mark in cut_marks:
		found.append(_placed(mark, on_unit))
	return found.filter(func(mark: Dictionary) -> bool: return not mark.is_empty())


func _placed(mark: Dictionary, on_unit: Dictionary) -> Dictionary:
	var view: Control = _view.unit_views.get(mark["unit"])
	if view == null:
		return {}
	var rect := view.get_global_rect()
	var top := BattleStage.target_point_of(view).y
	var key := "%s/%s" % [mark["unit"], "pick" if mark["kind"] == Kind.PICK else "cut"]
	var index: int = on_unit.get(key, 0)
	on_unit[key] = index + 1
	var step := float(_look.constant(&"spacing"))
	var point := Vector2(rect.end.x - 16.0 - index * step, top + 10.0)
	if mark["kind"] == Kind.PICK:
		point = Vector2(rect.position.x + 20.0 + index * step, top + 10.0)
	elif mark["kind"] == Kind.LOST:
		point = Vector2(rect.get_center().x, top + 46.0)
	var placed := mark.duplicate()
	placed["kind"] = ["pick", "locked", "range", "lost"][mark["kind"]]
	placed["point"] = BattleLayout.xy(point)
	return placed


func _draw_mark(at: Vector2, mark: Dictionary) -> void:
	var radius := float(_look.constant(&"radius"))
	var kind := str(mark["kind"])
	var fill := _look.color(&"pick")
	if kind != "pick":
		fill = _look.color(&"enemy") if mark["side"] == "enemy" else _look.color(&"player")
	if mark["entry"] != "" and mark["entry"] == resolving:
		radius *= 1.3
	var outline := _look.color(&"outline")
	var text := str(mark["label"])
	match kind:
		"pick":
			radius *= 1.2
			draw_circle(at, radius + 3.0, outline)
			draw_circle(at, radius, fill)
		"locked":
			draw_circle(at, radius + 2.0, outline)
			draw_circle(at, radius, fill)
		"range":
			var box := Rect2(at - Vector2(radius, radius), Vector2(radius, radius) * 2.0)
			ViewDrawing.round_rect(self, box.grow(2.0), outline, 5.0)
			ViewDrawing.round_rect(self, box, Color(fill, 0.55), 4.0, fill, 2.0)
		"lost":
			radius *= 1.6
			var lost := _look.color(&"lost")
			draw_circle(at, radius + 3.0, outline)
			draw_circle(at, radius, lost)
			var arm := radius * 0.5
			for width: float in [7.0, 4.0]:
				var ink := outline if width > 5.0 else _look.color(&"text")
				draw_line(at + Vector2(-arm, -arm), at + Vector2(arm, arm), ink, width, true)
				draw_line(at + Vector2(arm, -arm), at + Vector2(-arm, arm), ink, width, true)
			at += Vector2(radius * 0.95, radius * 0.95)
			draw_circle(at, radius * 0.45, outline)
			draw_circle(at, radius * 0.4, fill)
			radius *= 0.4
	var font := get_theme_default_font()
	var font_size := _look.font_size(&"number_size")
	if kind == "lost":
		font_size = int(font_size * 0.75)
	var ink := Color("1a1428") if kind == "pick" else _look.color(&"text")
	ViewDrawing.centered_text(
		self, font, text, at + Vector2(0, font_size * 0.36), font_size, ink, 0, Color(0, 0, 0, 0)
	)


func _mark(unit: String, kind: Kind, label: int, side: String, entry: String) -> Dictionary:
	return {"unit": unit, "kind": kind, "label": label, "side": side, "entry": entry}
