@tool
extends RefCounted
## Cards in motion between the hand and the piles, for a [PyBridgeBattleView]: a drawn card
## flies from its pile's counter to its place in the hand, a card that leaves the hand flies
## to the counter of the pile it went to, and the card just played goes by the play area (or
## its target) on the way.
##
## What moves is read from the piles alone: the card ids of each pile before and after a new
## state ([method plan]); the motion never asks why a card moved. It is quick
## ([member seconds] a card) and never holds input: a card flying into the hand can be
## hovered and played at once (its place is set when it lands in the state), and a new state
## first finishes the flights under way. Where each pile's counter is comes from
## [member pile_anchors]; a pile without one flies to a corner of the hand area.

## Every flight of a state ended: [param moves] are its [method plan].
signal motion_finished(moves: Array)

const HandSlot := preload("res://addons/pybridge_targeting/battle/pybridge_hand_slot.gd")
## The hand's pile.
const HAND := "hand"
## Where a card goes that is in no pile after the state (on the Cut, or gone).
const PLAY := "play"

## Pile name ([code]draw[/code], [code]discard[/code], [code]exhaust[/code], [code]play[/code])
## -> where its counter is: a [Control] (its centre) or a [Vector2] (global).
var pile_anchors: Dictionary = {}
## Whether cards move at all (off: they appear and vanish at once).
var enabled: bool = true
## Seconds one card's flight takes.
var seconds: float = 0.3
## Seconds between two cards drawn together.
var stagger: float = 0.05
## The moves of the state shown now (see [method plan]), until they are over.
var moves: Array[Dictionary] = []
## The card being played (see [method playing]), until the state it leaves the hand in.
var played := ""

var _view: PyBridgeBattleView = null
var _tween: Tween = null
var _ghosts: Array[Control] = []
var _flying: Array[HandSlot] = []
var _aimed_at: Array = []


func _init(view: PyBridgeBattleView) -> void:
	_view = view


## The moves between the piles [param before] and [param after] (pile name -> card
## instances, as a state's [code]piles[/code]): each card that entered the hand
## ([code]{"card", "from", "to": "hand"}[/code], [code]from[/code] the pile that held it before,
## else [code]draw[/code]) and each that left it ([code]{"card", "from": "hand", "to"}[/code],
## [code]to[/code] the pile that holds it after, else [code]play[/code]), those that left first.
## [param played_card] is the card being played: its move says [code]"played": true[/code].
static func plan(
	before: Dictionary, after: Dictionary, played_card: String = ""
) -> Array[Dictionary]:
	var was := _ids(before.get(HAND, []))
	var now := _ids(after.get(HAND, []))
	var found: Array[Dictionary] = []
	for id in was:
		if not id in now:
			var to := _pile_of(after, id)
			found.append(
				{
					"card": id,
					"from": HAND,
					"to": to if to != "" else PLAY,
					"played": id == played_card
				}
			)
	for id in now:
		if not id in was:
			var from := _pile_of(before, id)
			found.append({"card": id, "from": from if from != "" else "draw", "to": HAND})
	return found


## The card [param card_id] is being played at [param target_ids]: when it leaves the hand it
## goes by its first target (or the play area).
func playing(card_id: String, target_ids: Array = []) -> void:
	played = card_id
	_aimed_at = target_ids


## Moves the cards of a new state: [param planned] (see [method plan]), [param gone] the
## views of the cards that left the hand (freed when they land), [param arrived] the slots
## of the cards that entered it (already placed).
func run(planned: Array[Dictionary], gone: Dictionary, arrived: Array[HandSlot]) -> void:
	if moves.is_empty():
		finish()
	else:
		_done()  # the flights of the state before end first
	moves = planned
	played = ""
	var leaving := {}
	for id: String in gone:
		if enabled and not _move_of(id).is_empty():
			leaving[id] = gone[id]
		else:
			(gone[id] as Control).queue_free()  # no move of it (another side's hand): gone
	if not enabled or not _view.is_inside_tree() or (leaving.is_empty() and arrived.is_empty()):
		for view: Control in leaving.values():
			view.queue_free()
		_done()
		return
	_tween = _view.create_tween().set_parallel(true)
	for id: String in leaving:
		_leave(leaving[id], _move_of(id))
	var delay := 0.0
	for slot in arrived:
		var move := _move_of(slot.card_id)
		slot.fly_from(anchor_point(str(move.get("from", "draw"))), 0.3)
		_flying.append(slot)
		_tween.tween_method(slot.fly, 0.0, 1.0, seconds).set_delay(delay)
		delay += stagger
	_tween.finished.connect(_done)


## Ends every flight at once (a new state, or the game asks): the cards stand at their places
## and the cards that left are gone.
func finish() -> void:
	if _tween != null and _tween.is_valid():
		_tween.kill()
	_tween = null
	for slot in _flying:
		if is_instance_valid(slot.view):
			slot.fly(1.0)
	_flying.clear()
	for ghost in _ghosts:
		if is_instance_valid(ghost):
			ghost.queue_free()
	_ghosts.clear()


## Whether cards are flying now.
func is_moving() -> bool:
	return _tween != null and _tween.is_valid() and _tween.is_running()


## Where the counter of [param pile] is (global): its [member pile_anchors] entry, else the
## play area's centre ([code]play[/code]), the hand area's bottom left corner
## ([code]draw[/code]) or its bottom right (any other pile).
func anchor_point(pile: String) -> Vector2:
	var anchor: Variant = pile_anchors.get(pile)
	if anchor is Control and is_instance_valid(anchor):
		return (anchor as Control).get_global_rect().get_center()
	if anchor is Vector2:
		return anchor
	if pile == PLAY or _view.hand_area == null:
		return _view.play_rect().get_center()
	var hand := _view.hand_area.get_global_rect()
	return hand.position + Vector2(0.0 if pile == "draw" else hand.size.x, hand.size.y)


func _leave(view: Control, move: Dictionary) -> void:
	_ghosts.append(view)
	view.z_index = 30
	var parent := view.get_parent() as CanvasItem
	var to_local := func(point: Vector2) -> Vector2:
		var local := parent.get_global_transform().affine_inverse() * point if parent else point
		return local - view.pivot_offset
	var start := 0.0
	if bool(move.get("played", false)):
		var via := anchor_point(PLAY)
		if not _aimed_at.is_empty():
			var unit: Control = _view.unit_views.get(str(_aimed_at[0]))
			if unit != null:
				via = unit.get_global_rect().get_center()
		_tween.tween_property(view, "position", to_local.call(via), seconds * 0.6)
		_tween.tween_property(view, "rotation", 0.0, seconds * 0.6)
		start = seconds * 0.6
	var end: Vector2 = to_local.call(anchor_point(str(move["to"])))
	_tween.tween_property(view, "position", end, seconds).set_delay(start)
	_tween.tween_property(view, "scale", Vector2.ONE * 0.3, seconds).set_delay(start)
	_tween.tween_property(view, "modulate:a", 0.0, seconds).set_delay(start + seconds * 0.5)


func _done() -> void:
	finish()
	var ended := moves
	moves = []
	motion_finished.emit(ended)


func _move_of(card_id: String) -> Dictionary:
	for move in moves:
		if str(move["card"]) == card_id:
			return move
	return {}


static func _ids(instances: Variant) -> PackedStringArray:
	var ids := PackedStringArray()
	if instances is Array:
		for instance: Variant in instances:
			if instance is Dictionary:
				ids.append(str(instance.get("id", "")))
	return ids


static func _pile_of(piles: Dictionary, card_id: String) -> String:
	var names := piles.keys()
	names.sort()
	for pile: Variant in names:
		if str(pile) != HAND and card_id in _ids(piles[pile]):
			return str(pile)
	return ""
