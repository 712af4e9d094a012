@tool
extends RefCounted
## The player's own order of the hand, for a [PyBridgeBattleView]: a card dragged sideways
## along the hand area takes the place it is dropped on, and the move-card actions move the
## aimed (or hovered) card one place left or right.
##
## The order is the view's only (the runtime's hand keeps its own): it is kept by card id, so
## it survives new states, and a card new to the hand goes to its right end. A drag that
## leaves the hand area (to aim at a unit, or to play a card in the play area) puts the card
## back where it was, so aiming and playing by drag work as before.

## The hand's order changed: [param card_ids], left to right.
signal hand_reordered(card_ids: PackedStringArray)

const HandSlot := preload("res://addons/pybridge_targeting/battle/pybridge_hand_slot.gd")
const BattleLayout := preload("res://addons/pybridge_targeting/battle/pybridge_battle_layout.gd")
const BattleStage := preload("res://addons/pybridge_targeting/battle/pybridge_battle_stage.gd")
## How far the pointer moves sideways before a press on a card becomes a reordering drag.
const DRAG_DISTANCE := 12.0

var _view: PyBridgeBattleView = null
var _stage: BattleStage = null
var _held: HandSlot = null
var _from := -1
var _press := Vector2.ZERO
var _moving := false


func _init(view: PyBridgeBattleView, stage: BattleStage) -> void:
	_view = view
	_stage = stage


## The select button went down at [param point] (global): a card there may be dragged along.
func pressed(point: Vector2) -> void:
	_held = _view.card_at(point)
	_from = _view.hand_slots.find(_held)
	_press = point
	_moving = false


## The pointer moved to [param point] (global) with the select button down.
func moved(point: Vector2) -> void:
	if _held == null or not _held in _view.hand_slots:
		return
	if not in_hand(point):
		if _moving:
			_put(_from)  # a drag up to the units or the play area leaves the order alone
			_moving = false
		return
	if not _moving and absf(point.x - _press.x) <= DRAG_DISTANCE:
		return
	_moving = true
	var lefts: Array[float] = []
	for slot in _view.hand_slots:
		lefts.append(slot.base_rect().position.x)
	_put(BattleLayout.drop_index(lefts, _held.base_rect().size.x, point.x))


## The select button went up at [param point]: true when it ended a reordering drag (the
## card stays where it was dropped).
func released(point: Vector2) -> bool:
	var reordered := _moving and in_hand(point)
	_held = null
	_moving = false
	return reordered


## Whether a card is being dragged along the hand now.
func is_dragging() -> bool:
	return _moving


## Moves [param slot] [param offset] places along the hand (the move-card actions); false when
## it cannot go further.
func shift(slot: HandSlot, offset: int) -> bool:
	var index := _view.hand_slots.find(slot)
	if slot == null or index < 0 or index + offset < 0 or index + offset >= _view.hand_slots.size():
		return false
	_held = slot
	_put(index + offset)
	_held = null
	return true


## Whether [param point] (global) is over the hand area.
func in_hand(point: Vector2) -> bool:
	return _view.hand_area != null and _view.hand_area.get_global_rect().has_point(point)


func _put(index: int) -> void:
	if _view.hand_slots.find(_held) == index:
		return
	_stage.move_card(_held.card_id, index)
	_view.layout_hand()
	hand_reordered.emit(_stage.hand_order())
