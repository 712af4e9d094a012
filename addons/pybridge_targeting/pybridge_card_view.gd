@tool
@icon("res://addons/pybridge_targeting/icons/pybridge_card_view.svg")
class_name PyBridgeCardView
extends Control
## The built-in card of the hand: cost, name, art, target mode, rules text and who plays it.
##
## This is the default of [member PyBridgeBattleView.card_scene]; a game's own card scene
## takes its place by offering the same small interface (see the addon guide):
## [br]- [method show_card] (required): the card to show, as a [Dictionary].
## [br]- [method set_selected] (optional): whether it is the card being aimed.
## [br]- [method set_visible_width] (optional): how much of it the next card leaves uncovered.
## [br]The battle view places, raises, scales and moves the card; the card only draws.
## Colours, sizes and fonts are the theme items of the type [code]PyBridgeCardView[/code]
## (see [PyBridge.ViewTheme]); [code]frame_<type>[/code] and [code]rarity_<rarity>[/code]
## colours are looked up by the card's own type and rarity.

const CardGlyph := preload("res://addons/pybridge_targeting/drawing/pybridge_card_glyph.gd")
const ViewDrawing := preload("res://addons/pybridge_targeting/drawing/pybridge_view_drawing.gd")
## The theme type of every item this view reads.
const THEME_TYPE := &"PyBridgeCardView"
## The [code]reach[/code] fact of a mode that reaches only the card's player.
const SELF_REACH := "self"
## Where the title starts: right of the cost orb.
const TITLE_LEFT := 30.0
## Space kept free right of the title.
const TITLE_RIGHT_MARGIN := 5.0

## The card instance id ([code]"h1"[/code]).
var card_id: String = ""
## What [method show_card] was given last.
var card: Dictionary = {}
## Whether it is the card being aimed.
var selected: bool = false
## How wide the uncovered part of the card is (its whole width unless the hand overlaps).
var visible_width: float = INF
## The smallest font size the last drawing used (a test of the theme's minimum sizes).
var smallest_font_size: int = 0

var _look: PyBridge.ViewTheme.Lookup = null
var _title: Dictionary = {}


func _ready() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	if size == Vector2.ZERO:
		size = card_size()


func _init() -> void:
	_look = PyBridge.ViewTheme.Lookup.new(self, THEME_TYPE)


func _notification(what: int) -> void:
	if what == NOTIFICATION_THEME_CHANGED:
		_look.forget()
		_title = {}
		queue_redraw()


func _draw() -> void:
	smallest_font_size = 0
	var w := size.x
	var h := size.y
	var radius := float(_look.constant(&"corner_radius"))
	var kind := str(card.get("type", "skill"))
	var frame := PyBridge.ViewTheme.color_or(self, "frame_" + kind, &"frame_other", THEME_TYPE)
	if selected:
		_round_rect(
			Rect2(Vector2(-6, -6), size + Vector2(12, 12)),
			Color(_look.color(&"selected"), 0.4),
			radius + 6.0
		)
	_round_rect(Rect2(Vector2(3, 5), size), _look.color(&"shadow"), radius)
	_round_rect(
		Rect2(Vector2.ZERO, size),
		frame.darkened(0.4),
		radius,
		_rarity_color(),
		float(_look.constant(&"border"))
	)
	var art_rect := Rect2(6, 31, w - 12, _look.constant(&"art_height"))
	var art: Variant = card.get("art")
	if art is Texture2D:
		ViewDrawing.fill_texture(self, art, art_rect)
	else:
		_round_rect(art_rect, frame.lightened(0.1), 6)
		CardGlyph.draw(self, art_rect, card.get("facts", {}), _look.color(&"art_ink"))
	var band_top := art_rect.end.y + 4.0
	_round_rect(Rect2(3, band_top, w - 6, 17), _look.color(&"band"), 0)
	var band := mode_text().to_upper()
	var band_size := _look.font_size(&"mode_size")
	# A long band ("single enemy up to 3") shrinks to the card's width, down to the minimum.
	while band_size > _look.font_size(&"mode_min_size") and _width_of(band, band_size) > w - 12:
		band_size -= 1
	band = _fit(_look.font(), band, band_size, w - 12)
	_centered(
		_look.font(), band, Vector2(w * 0.5, band_top + 13.0), band_size, _look.color(&"mode_label")
	)
	_draw_title()
	_draw_text(text_rect())
	_centered(
		_look.font(),
		str(card.get("owner", "")),
		Vector2(w * 0.5, h - 7),
		_look.font_size(&"owner_size"),
		_look.color(&"owner")
	)
	_draw_cost()
	if not bool(card.get("playable", true)):
		_round_rect(Rect2(Vector2.ZERO, size), _look.color(&"unplayable_shade"), radius)


## Shows [param data], the card as the battle view describes it: [code]id[/code],
## [code]card[/code] (its definition id), [code]name[/code], [code]text[/code],
## [code]cost[/code], [code]type[/code], [code]rarity[/code], [code]keywords[/code],
## [code]owner[/code] (who plays it), [code]playable[/code], [code]reason[/code] (why not),
## [code]mode_label[/code] and [code]facts[/code] (of its target mode), [code]art[/code]
## (a [Texture2D] or null), [code]definition[/code] and [code]targets[/code] (the runtime's
## own answers).
func show_card(data: Dictionary) -> void:
	card = data
	card_id = str(data.get("id", ""))
	_title = {}
	queue_redraw()


## The card's target mode as its band shows it: the mode's label, with how many units it
## takes when that is more than one (the runtime's [code]count_label[/code]).
func mode_text() -> String:
	var label := tr(str(card.get("mode_label", "")))
	var info: Dictionary = card.get("targets", {})
	var count := str(info.get("count_label", ""))
	return label if count.is_empty() else label + " " + tr(count)


## Marks the card as the one being aimed.
func set_selected(on: bool) -> void:
	if selected != on:
		selected = on
		queue_redraw()


## The card's uncovered width in the hand: the title fits in it.
func set_visible_width(width: float) -> void:
	if not is_equal_approx(visible_width, width):
		visible_width = width
		_title = {}
		queue_redraw()


## The card's size from the theme ([code]width[/code] and [code]height[/code] constants).
func card_size() -> Vector2:
	return Vector2(_look.constant(&"width"), _look.constant(&"height"))


## Where the title is drawn (local), at its font size.
func title_rect() -> Rect2:
	return _title_layout().get("rect", Rect2())


## The title's lines as drawn (one, or two when the name does not fit on one).
func title_lines() -> PackedStringArray:
	return _title_layout().get("lines", PackedStringArray())


func _draw_title() -> void:
	var layout := _title_layout()
	var lines: PackedStringArray = layout["lines"]
	var font_size: int = layout["size"]
	var rect: Rect2 = layout["rect"]
	var line_height := _look.bold_font().get_height(font_size)
	var y := rect.position.y + _look.bold_font().get_ascent(font_size)
	_used(font_size)
	for line in lines:
		var at := Vector2(rect.position.x, y)
		draw_string_outline(
			_look.bold_font(),
			at,
			line,
			HORIZONTAL_ALIGNMENT_LEFT,
			-1,
			font_size,
			3,
			_look.color(&"outline")
		)
		draw_string(
			_look.bold_font(),
			at,
			line,
			HORIZONTAL_ALIGNMENT_LEFT,
			-1,
			font_size,
			_look.color(&"title")
		)
		y += line_height


func _title_layout() -> Dictionary:
	if not _title.is_empty():
		return _title
	var text := str(card.get("name", card_id))
	var room := minf(size.x, visible_width) - TITLE_LEFT - TITLE_RIGHT_MARGIN
	var top := 4.0
	var band := 26.0
	var font := _look.bold_font()
	var largest := _look.font_size(&"title_size")
	var smallest := mini(_look.font_size(&"title_min_size"), largest)
	var lines := PackedStringArray([text])
	var chosen := smallest
	var fitted := false
	# One line at the largest size that fits, else two lines split at a space, else the
	# smallest size, cut with an ellipsis (the hover tooltip shows the whole name).
	for font_size in range(largest, smallest - 1, -1):
		if _widest(font, [text], font_size) <= room:
			chosen = font_size
			fitted = true
			break
	if not fitted and " " in text:
		var halves := _halves(text)
		for font_size in range(mini(largest, 13), smallest - 1, -1):
			if (
				_widest(font, halves, font_size) <= room
				and font.get_height(font_size) * 2.0 <= band + 6.0
			):
				lines = halves
				chosen = font_size
				fitted = true
				break
	if not fitted:
		lines = PackedStringArray([_fit(font, text, chosen, room)])  # the tooltip says it whole
	var width := _widest(font, lines, chosen)
	var height := font.get_height(chosen) * lines.size()
	var y := top + (band - height) * 0.5  # two lines may reach a little above and below
	_title = {
		"lines": lines, "size": chosen, "fits": fitted, "rect": Rect2(TITLE_LEFT, y, width, height)
	}
	return _title


## Where the rules text goes (local): below the mode band, above the owner's name, with a
## gap to it; on a card that grows ([method raised_height]) it grows too.
func text_rect() -> Rect2:
	var top := 31.0 + _look.constant(&"art_height") + 25.0
	var owner_top := size.y - 7.0 - _look.font().get_ascent(_look.font_size(&"owner_size"))
	return Rect2(7, top, size.x - 14, owner_top - 3.0 - top)


## How tall the card must be to show its whole text at [code]text_min_size[/code] (its theme
## height when that is enough): the hand grows a raised card to it.
func raised_height() -> float:
	var base := float(_look.constant(&"height"))
	var saved := size
	size = Vector2(size.x, base)
	var area := text_rect()
	size = saved
	var needed := _text_height(_look.font_size(&"text_min_size"), area.size.x)
	return base + maxf(0.0, ceilf(needed - area.size.y))


func _draw_text(area: Rect2) -> void:
	var text := str(card.get("text", ""))
	if text.is_empty() or area.size.y <= 0.0:
		return
	var font := _look.font()
	# The largest size whose lines fit, down to the minimum; below it the text does not
	# shrink: it wraps, and what does not fit shows when the card is raised (and grown).
	var chosen := _look.font_size(&"text_min_size")
	for font_size in range(_look.font_size(&"text_size"), chosen - 1, -1):
		if _text_height(font_size, area.size.x) <= area.size.y:
			chosen = font_size
			break
	var max_lines := maxi(1, int(area.size.y / font.get_height(chosen)))
	_used(chosen)
	draw_multiline_string(
		font,
		area.position + Vector2(0, font.get_ascent(chosen)),
		text,
		HORIZONTAL_ALIGNMENT_CENTER,
		area.size.x,
		chosen,
		max_lines,
		_look.color(&"text")
	)


func _text_height(font_size: int, width: float) -> float:
	var text := str(card.get("text", ""))
	return (
		_look
		. font()
		. get_multiline_string_size(text, HORIZONTAL_ALIGNMENT_CENTER, width, font_size)
		. y
	)


func _draw_cost() -> void:
	var orb := Vector2(15, 15)
	var playable := bool(card.get("playable", true))
	draw_circle(orb, 16, Color(0, 0, 0, 0.6))
	draw_circle(orb, 14, _look.color(&"cost") if playable else _look.color(&"cost_unplayable"))
	draw_circle(orb + Vector2(-4, -4), 5, Color(1, 1, 1, 0.25))
	_centered(
		_look.bold_font(),
		str(int(card.get("cost", 0))),
		orb + Vector2(0, 6.5),
		_look.font_size(&"cost_size"),
		Color.WHITE
	)


func _used(font_size: int) -> void:
	smallest_font_size = (
		font_size if smallest_font_size == 0 else mini(smallest_font_size, font_size)
	)


func _width_of(text: String, font_size: int) -> float:
	return _look.font().get_string_size(text, HORIZONTAL_ALIGNMENT_LEFT, -1, font_size).x


# [param text] cut to [param room] pixels with an ellipsis, whole when it fits.
func _fit(font: Font, text: String, font_size: int, room: float) -> String:
	var shown := text
	while (
		shown.length() > 1
		and font.get_string_size(shown, HORIZONTAL_ALIGNMENT_LEFT, -1, font_size).x > room
	):
		shown = shown.left(shown.length() - 2).strip_edges() + "…"
	return shown


func _rarity_color() -> Color:
	var rarity := str(card.get("rarity", "common"))
	return PyBridge.ViewTheme.color_or(self, "rarity_" + rarity, &"rarity_common", THEME_TYPE)


func _halves(text: String) -> PackedStringArray:
	# Split at the space nearest the middle.
	var best := -1
	for i in text.length():
		if (
			text[i] == " "
			and (best < 0 or absi(i - text.length() / 2) < absi(best - text.length() / 2))
		):
			best = i
	return PackedStringArray([text.left(best), text.substr(best + 1)])


func _widest(font: Font, lines: Array, font_size: int) -> float:
	var widest := 0.0
	for line: String in lines:
		widest = maxf(
			widest, font.get_string_size(line, HORIZONTAL_ALIGNMENT_LEFT, -1, font_size).x
		)
	return widest


func _centered(font: Font, text: String, at: Vector2, font_size: int, color: Color) -> void:
	if not text.is_empty():
		_used(font_size)
	ViewDrawing.centered_text(self, font, text, at, font_size, color, 3, _look.color(&"outline"))


func _round_rect(
	rect: Rect2,
	fill: Color,
	radius: float,
	border: Color = Color(0, 0, 0, 0),
	border_width: float = 0.0
) -> void:
	ViewDrawing.round_rect(self, rect, fill, radius, border, border_width)
