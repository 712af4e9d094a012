@tool
class_name BattleAim
extends RefCounted
## Where the player is in choosing a play, for a [BattleView]: the pointer and keys move it
## from state to state; the view draws it.
##
## Idle: the hovered card lights what it reaches. Pressed on a card: a click (the card stays
## chosen, [constant ARMED]) or the start of a drag ([constant DRAGGING]). Armed or dragging,
## the play goes to the unit (arrow modes) or the play area (the rest) that the pointer is
## released or clicked on; Tab cycles the candidates, Enter confirms, Escape cancels.
## Whether a card needs a unit, and which units it may take, is the runtime's answer.

## The states of the aim.
enum State {
	IDLE, ## Nothing chosen.
	PRESSED, ## The mouse went down on a card and has not moved far yet.
	DRAGGING, ## A card is being dragged.
	ARMED, ## A card was clicked (or picked by key) and waits for its target.
}

## How far the pointer may move while pressed and still count as a click.
const CLICK_DISTANCE := 12.0

## The state now.
var state: State = State.IDLE
## The card being aimed, or null.
var card: CardView = null
## The card under the pointer, or null.
var hovered: CardView = null
## The pointer, global coordinates.
var pointer: Vector2 = Vector2.ZERO
## The candidate Tab chose (an index into the card's candidates), or -1 for the pointer.
var keyboard_target: int = -1

var _press_point: Vector2 = Vector2.ZERO
var _view: BattleView = null


func _init(view: BattleView) -> void:
	_view = view


## The unit the aim points at now: the candidate Tab chose, else the one under the pointer.
func aimed_unit() -> String:
	if card == null:
		return ""
	var candidates: Array = _view.targets_of(card.card_id).get("candidates", [])
	if keyboard_target >= 0 and keyboard_target < candidates.size():
		return str(candidates[keyboard_target])
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


## The left button went down at [param point]; true when the aim took the press.
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


## The left button went up at [param point].
func pointer_released(point: Vector2) -> void:
	pointer = point
	match state:
		State.PRESSED:
			# A click: the card stays chosen until the next click picks its target.
			state = State.ARMED
			_view.show_aim()
		State.DRAGGING:
			release_at(point)


## Starts aiming [param chosen] from [param point]; false (and [signal BattleView.card_refused])
## when the runtime says it cannot be played now.
func begin(chosen: CardView, point: Vector2) -> bool:
	var info := _view.targets_of(chosen.card_id)
	if not bool(info.get("playable", false)):
		_view.card_refused.emit(chosen.card_id,
				str(info.get("reason", "it cannot be played now")))
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
func select(chosen: CardView) -> bool:
	if card != null:
		cancel()
	if not begin(chosen, chosen.base_rect().get_center()):
		return false
	state = State.ARMED
	if needs_unit():
		keyboard_target = 0
	_view.show_aim()
	return true


## Ends the aim without a play ([signal BattleView.aim_cancelled]).
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
## cancels. True when a play was made.
func release_at(point: Vector2) -> bool:
	var card_id := card.card_id
	var info := _view.targets_of(card_id)
	if needs_unit():
		var unit := _view.unit_at(point)
		if unit != "" and unit in info.get("candidates", []):
			_view.target_selected.emit(card_id, unit)
			return _view.play_card(card_id, unit)
	elif _view.in_play_area(point):
		return _view.play_card(card_id)
	cancel()
	return false


## Plays the aimed card at the aimed unit (or, without a target, at once).
func confirm() -> void:
	if not needs_unit():
		_view.play_card(card.card_id)
		return
	var target := aimed_unit()
	if target != "" and target in _view.targets_of(card.card_id).get("candidates", []):
		var card_id := card.card_id
		_view.target_selected.emit(card_id, target)
		_view.play_card(card_id, target)


## Moves the keyboard choice [param offset] candidates on (Tab, Shift+Tab).
func cycle_target(offset: int) -> void:
	var candidates: Array = _view.targets_of(card.card_id).get("candidates", [])
	if candidates.is_empty():
		return
	if keyboard_target < 0:
		var under := candidates.find(_view.unit_at(pointer))
		keyboard_target = under if under >= 0 else (0 if offset > 0 else candidates.size() - 1)
	else:
		keyboard_target = posmod(keyboard_target + offset, candidates.size())
	if state != State.DRAGGING:
		state = State.ARMED
	_view.show_aim()


## Handles a key; true when it was one of the aim's.
func key_pressed(key: InputEventKey) -> bool:
	var code := key.keycode
	var cards := _view.card_views
	if code == KEY_ESCAPE and state != State.IDLE:
		cancel()
	elif code == KEY_TAB:
		if card == null:
			_pick(hovered.card_id if hovered != null else "", 0)
		else:
			cycle_target(-1 if key.shift_pressed else 1)
	elif code in [KEY_ENTER, KEY_KP_ENTER] and card != null:
		confirm()
	elif code in [KEY_LEFT, KEY_RIGHT]:
		_pick(card.card_id if card != null else "", -1 if code == KEY_LEFT else 1)
	elif code >= KEY_0 and code <= KEY_9 and not cards.is_empty():
		var index := 9 if code == KEY_0 else code - KEY_1
		if index < cards.size():
			select(cards[index])
	else:
		return false
	return true


func _pick(from_id: String, offset: int) -> void:
	var cards := _view.card_views
	if cards.is_empty():
		return
	var index := 0
	for i in cards.size():
		if cards[i].card_id == from_id:
			index = posmod(i + offset, cards.size())
	select(cards[index])


func _hover(under: CardView) -> void:
	if under != hovered:
		hovered = under
		_view.hover_changed()
