@tool
@icon("res://addons/pybridge_targeting/icons/card_view.svg")
class_name CardView
extends Control
## One card in the hand: cost, name, target mode, rules text and who plays it.
##
## Fill it with [method show_card]. [BattleView] lays cards out, raises the hovered one, marks
## the one being aimed with [member selected] and moves a dragged no-target card with
## [method follow].

## Card size before hover scaling.
const CARD_SIZE := Vector2(116, 170)
## The [code]reach[/code] fact of a mode that reaches only the card's player.
const SELF_REACH := "self"

## Frame colour of attack cards.
@export var attack_color: Color = Color("7a2a36")
## Frame colour of skill cards.
@export var skill_color: Color = Color("24496e")
## Frame colour of other card types.
@export var other_color: Color = Color("4b3472")
## Energy orb colour.
@export var cost_color: Color = Color("f0a030")
## Glow of the card being aimed.
@export var selected_color: Color = Color("ffd54a")
## Scale of the hovered or aimed card.
@export_range(1.0, 2.0) var raised_scale: float = 1.35
## How far the hovered card rises, in pixels.
@export var raised_offset: float = 30.0

## The card instance id ([code]"h1"[/code]).
var card_id: String = ""
## The card definition (name, cost, type, rarity, target, text).
var card: Dictionary = {}
## The name of the unit that plays it.
var owner_name: String = ""
## Whether the runtime says it can be played now (energy, a source, a candidate).
var playable: bool = true
## The facts of the card's target mode, as the runtime's [code]targets[/code] answer gives
## them: its [code]label[/code], who chooses, which side, area or random.
var mode_facts: Dictionary = {}
## Whether it is raised (hovered).
var raised: bool = false
## Whether it is the card being aimed.
var selected: bool = false
## Where the hand layout puts it, in the parent's coordinates.
var base_position: Vector2 = Vector2.ZERO

var _bold: FontVariation = null


func _ready() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	size = CARD_SIZE
	pivot_offset = Vector2(CARD_SIZE.x * 0.5, CARD_SIZE.y)


func _draw() -> void:
	var font := get_theme_default_font()
	if _bold == null:
		_bold = FontVariation.new()
		_bold.base_font = font
		_bold.variation_embolden = 0.7
	var w := CARD_SIZE.x
	var h := CARD_SIZE.y
	var kind := str(card.get("type", "skill"))
	var frame := other_color
	if kind == "attack":
		frame = attack_color
	elif kind == "skill":
		frame = skill_color
	if selected:
		_round_rect(Rect2(Vector2(-6, -6), CARD_SIZE + Vector2(12, 12)),
				Color(selected_color, 0.4), 16)
	_round_rect(Rect2(Vector2(3, 5), CARD_SIZE), Color(0, 0, 0, 0.45), 10)
	_round_rect(Rect2(Vector2.ZERO, CARD_SIZE), frame.darkened(0.4), 10, _rarity_color(), 3)
	var art := Rect2(6, 31, w - 12, 34)
	_round_rect(art, frame.lightened(0.1), 6)
	_draw_art(art)
	_round_rect(Rect2(3, 69, w - 6, 17), Color(0, 0, 0, 0.45), 0)
	var mode_label := str(mode_facts.get("label", "")).to_upper()
	_centered(font, mode_label, Vector2(w * 0.5, 82), 10, Color("ffe9a8"))
	# The name starts right of the cost orb, so it stays readable where cards overlap.
	var title := str(card.get("name", card_id))
	var title_size := 15
	while title_size > 10 and _bold.get_string_size(title, HORIZONTAL_ALIGNMENT_LEFT, -1,
			title_size).x > w - 38:
		title_size -= 1
	draw_string_outline(_bold, Vector2(32, 22), title, HORIZONTAL_ALIGNMENT_LEFT, -1, title_size,
			3, Color(0, 0, 0, 0.7))
	draw_string(_bold, Vector2(32, 22), title, HORIZONTAL_ALIGNMENT_LEFT, -1, title_size,
			Color.WHITE)
	draw_multiline_string(font, Vector2(7, 102), str(card.get("text", "")),
			HORIZONTAL_ALIGNMENT_CENTER, w - 14, 11, 4, Color("ece8e1"))
	_centered(font, owner_name, Vector2(w * 0.5, h - 7), 10, Color(1, 1, 1, 0.6))
	var orb := Vector2(15, 15)
	draw_circle(orb, 16, Color(0, 0, 0, 0.6))
	draw_circle(orb, 14, cost_color if playable else Color("8a3030"))
	draw_circle(orb + Vector2(-4, -4), 5, Color(1, 1, 1, 0.25))
	_centered(_bold, str(int(card.get("cost", 0))), orb + Vector2(0, 6.5), 18, Color.WHITE)
	if not playable:
		_round_rect(Rect2(Vector2.ZERO, CARD_SIZE), Color(0.05, 0.05, 0.08, 0.45), 10)


## Shows [param card_def] as the instance [param instance_id], played by the unit named
## [param played_by]; [param targeting] is the runtime's [code]targets[/code] answer for it
## (an unplayable card is dimmed; the mode's facts give its label and its art).
func show_card(instance_id: String, card_def: Dictionary, played_by: String,
		targeting: Dictionary) -> void:
	card_id = instance_id
	card = card_def
	owner_name = played_by
	playable = bool(targeting.get("playable", false))
	mode_facts = targeting.get("facts", {})
	queue_redraw()


## Puts the card at its place in the hand, raised or not; a raised card is kept within
## [param room] (the width of the hand) as it grows.
func place(at: Vector2, is_raised: bool, room: float = INF) -> void:
	base_position = at
	raised = is_raised
	position = at - Vector2(0, raised_offset if raised else 0.0)
	if raised:
		var grow := CARD_SIZE.x * (raised_scale - 1.0) * 0.5
		position.x = clampf(position.x, grow, maxf(grow, room - CARD_SIZE.x - grow))
	scale = Vector2.ONE * (raised_scale if raised else 1.0)
	z_index = 20 if raised or selected else 0
	queue_redraw()


## Moves the card so that its centre is at [param global_point] (dragging a no-target card).
func follow(global_point: Vector2) -> void:
	scale = Vector2.ONE * 1.1
	z_index = 40
	var parent := get_parent() as CanvasItem
	var local := global_point
	if parent != null:
		local = parent.get_global_transform().affine_inverse() * global_point
	position = local - CARD_SIZE * 0.5


## Marks the card as the one being aimed.
func set_selected(on: bool) -> void:
	selected = on
	queue_redraw()


## The hand-layout rectangle of the card (not raised), global coordinates.
func base_rect() -> Rect2:
	var parent := get_parent() as CanvasItem
	var origin := base_position
	if parent != null:
		origin = parent.get_global_transform() * base_position
	return Rect2(origin, CARD_SIZE)


## Where the aiming arrow starts: the top centre of the card as drawn now, global coordinates.
func arrow_origin() -> Vector2:
	return get_global_transform() * Vector2(CARD_SIZE.x * 0.5, 8)


func _draw_art(area: Rect2) -> void:
	var c := area.get_center()
	var ink := Color(1, 1, 1, 0.8)
	# The art follows what the mode asks of the player: aim, a whole side, the card's
	# player, a random pick, or nothing.
	if bool(mode_facts.get("requires_target", false)):
		draw_arc(c, 13, 0, TAU, 32, ink, 2.5, true)
		draw_arc(c, 5, 0, TAU, 20, ink, 2.5, true)
		for d: Vector2 in [Vector2.UP, Vector2.DOWN, Vector2.LEFT, Vector2.RIGHT]:
			draw_line(c + d * 9, c + d * 18, ink, 2.5, true)
	elif bool(mode_facts.get("area", false)):
		for dx: float in [-22.0, 0.0, 22.0]:
			draw_circle(c + Vector2(dx, 0), 7, ink)
	elif bool(mode_facts.get("random", false)):
		_round_rect(Rect2(c - Vector2(15, 15), Vector2(30, 30)), Color(1, 1, 1, 0), 6, ink, 2.5)
		for d: Vector2 in [Vector2(-7, -7), Vector2(7, 7), Vector2.ZERO]:
			draw_circle(c + d, 3, ink)
	elif str(mode_facts.get("reach", "")) == SELF_REACH:
		var shield := PackedVector2Array([c + Vector2(-13, -14), c + Vector2(13, -14),
				c + Vector2(13, 3), c + Vector2(0, 16), c + Vector2(-13, 3)])
		draw_colored_polygon(shield, ink)
	else:
		draw_circle(c, 10, Color(ink, 0.5))


func _rarity_color() -> Color:
	match str(card.get("rarity", "common")):
		"rare":
			return Color("ffcf4a")
		"uncommon":
			return Color("66b8ff")
		"basic":
			return Color("8f97a3")
	return Color("d5dce4")


func _centered(font: Font, text: String, at: Vector2, font_size: int, color: Color) -> void:
	ViewDrawing.centered_text(self, font, text, at, font_size, color, 3, Color(0, 0, 0, 0.7))


func _round_rect(rect: Rect2, fill: Color, radius: float, border: Color = Color(0, 0, 0, 0),
		border_width: float = 0.0) -> void:
	ViewDrawing.round_rect(self, rect, fill, radius, border, border_width)
