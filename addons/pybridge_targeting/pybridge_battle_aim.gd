@tool
class_name PyBridgeBattleAim
extends RefCounted
## Where the player is in choosing a play, for a [PyBridgeBattleView]: the pointer and the
## input actions ([PyBridgeBattleInput]) move it from state to state; the view draws it.
##
## Idle: the hovered card lights what it affects. Pressed on a card: a click (the card stays
## chosen, [constant ARMED]) or the start of a drag ([constant DRAGGING]). Armed or dragging,
## the play goes to the unit (arrow modes) or the play area (the rest) that the pointer is
## released or clicked on; the target actions cycle the candidates, confirm plays, cancel
## puts the card back. Whether a card needs a unit, and which units it may take, is the
## runtime's answer ([method PyBridgeBattleView.targets_of]).

## The states of the aim.
enum State {
	IDLE,  ## Nothing chosen.
	PRESSED,  ## The button went down on a card and the pointer has not moved far yet.
	DRAGGING,  ## A card is being dragged.
	ARMED,  ## A card was clicked (or picked by key) and waits for its target.
}

## How far the pointer may move while pressed and still count as a click.
const CLICK_DISTANCE := 12.0

## The state now.
var state: State = State.IDLE
## The card being aimed, or null.
var card: PyBridgeHandSlot = null
## The card under the pointer, or null.
var hovered: PyBridgeHandSlot = null
## The pointer, global coordinates.
var pointer: Vector2 = Vector2.ZERO
## The candidate the keys chose (an index into the card's candidates), or -1 for the pointer.
var keyboard_target: int = -1

var _press_point: Vector2 = Vector2.ZERO
var _view: PyBridgeBattleView = null


func _init(view: PyBridgeBattleView) -> void:
	_view = view


## The candidates of the aimed card (empty when none is aimed).
func candidates() -> Array:
	return [] if card == null else _view.targets_of(card.card_id).get("candidates", [])


## The unit the aim points at now: the candidate the keys chose, else the one under the
## pointer.
func aimed_unit() -> String:
	if card == null:
		return ""
	var choices := candidates()
	if keyboard_target >= 0 and keyboard_target < choices.size():
		return str(choices[keyboard_target])
	return _view.unit_at(pointer)


## Whether the aimed card needs a unit (the runtime's [code]requires_target[/code]).
func needs_unit() -> bool:
	return card != null and bool(_view.targets_of(card.card_id).get("requires_target", false))


## The pointer moved to [param point].
func pointer_moved(point: Vector2) -> void:
	pointer = point
	match state:
		State.IDLE:
			_hover(_view.card_at(point))
		State.PRESSED:
			if point.distance_to(_press_point) > CLICK_DISTANCE:
				state = State.DRAGGING
				keyboard_target = -1
				_view.show_aim()
		State.DRAGGING, State.ARMED:
			keyboard_target = -1
			_view.show_aim()


## The select button went down at [param point]; true when the aim took the press.
func pointer_pressed(point: Vector2) -> bool:
	pointer = point
	var under := _view.card_at(point)
	match state:
		State.IDLE:
			if under != null:
				begin(under, point)
				return true
		State.ARMED:
			if under == card:
				cancel()
				return true
			if under != null:
				cancel()
				begin(under, point)
				return true
			return release_at(point)
	return false


## The select button went up at [param point].
func pointer_released(point: Vector2) -> void:
	pointer = point
	match state:
		State.PRESSED:
			# A click: the card stays chosen until the next click picks its target.
			state = State.ARMED
			_view.show_aim()
		State.DRAGGING:
			release_at(point)


## Starts aiming [param chosen] from [param point]; false (and
## [signal PyBridgeBattleView.card_refused]) when the runtime says it cannot be played now.
func begin(chosen: PyBridgeHandSlot, point: Vector2) -> bool:
	var info := _view.targets_of(chosen.card_id)
	if not bool(info.get("playable", false)):
		_view.card_refused.emit(
			chosen.card_id, str(info.get("reason", _view.tr("it cannot be played now")))
		)
		return false
	card = chosen
	state = State.PRESSED
	_press_point = point
	keyboard_target = -1
	hovered = chosen
	_view.aim_began(chosen)
	return true


## Picks [param chosen] as if it had been clicked (keys and scripts); the first candidate is
## chosen for an arrow mode.
func select(chosen: PyBridgeHandSlot) -> bool:
	if card != null:
		cancel()
	if not begin(chosen, chosen.base_rect().get_center()):
		return false
	state = State.ARMED
	if needs_unit():
		keyboard_target = 0
	_view.show_aim()
	return true


## Picks the card [param offset] places from [param from] in the hand (the first card when
## [param from] is null).
func pick_relative(from: PyBridgeHandSlot, offset: int) -> void:
	var slots := _view.hand_slots
	if slots.is_empty():
		return
	var index := 0
	if from != null and from in slots:
		index = posmod(slots.find(from) + offset, slots.size())
	select(slots[index])


## Picks the card at [param index] of the hand (the number keys), if there is one.
func pick_index(index: int) -> void:
	if index >= 0 and index < _view.hand_slots.size():
		select(_view.hand_slots[index])


## Ends the aim without a play ([signal PyBridgeBattleView.aim_cancelled]).
func cancel() -> void:
	if card == null:
		return
	var card_id := card.card_id
	finish()
	_view.aim_cancelled.emit(card_id)


## Ends the aim (a play happened, or it was cancelled).
func finish() -> void:
	var was := card
	card = null
	state = State.IDLE
	keyboard_target = -1
	hovered = _view.card_at(pointer)
	_view.aim_ended(was)


## Plays the aimed card where [param point] is, if that is somewhere it can go; otherwise
## cancels. True when a play was sent.
func release_at(point: Vector2) -> bool:
	var card_id := card.card_id
	if needs_unit():
		var unit := _view.unit_at(point)
		if unit != "" and unit in candidates():
			_view.target_selected.emit(card_id, unit)
			_view.play_card(card_id, unit)
			return true
	elif _view.in_play_area(point):
		_view.play_card(card_id)
		return true
	cancel()
	return false


## Plays the aimed card at the aimed unit (or, without a target, at once).
func confirm() -> void:
	var card_id := card.card_id
	if not needs_unit():
		_view.play_card(card_id)
		return
	var target := aimed_unit()
	if target != "" and target in candidates():
		_view.target_selected.emit(card_id, target)
		_view.play_card(card_id, target)


## Moves the keyboard choice [param offset] candidates on.
func cycle_target(offset: int) -> void:
	var choices := candidates()
	if choices.is_empty():
		return
	if keyboard_target < 0:
		var under := choices.find(_view.unit_at(pointer))
		keyboard_target = under if under >= 0 else (0 if offset > 0 else choices.size() - 1)
	else:
		keyboard_target = posmod(keyboard_target + offset, choices.size())
	if state != State.DRAGGING:
		state = State.ARMED
	_view.show_aim()


## Forgets the cards of a hand that is gone (a new state): the aim and hover are dropped.
func forget_hand() -> void:
	card = null
	hovered = null
	state = State.IDLE
	keyboard_target = -1


func _hover(under: PyBridgeHandSlot) -> void:
	if under != hovered:
		hovered = under
		_view.hover_changed()
