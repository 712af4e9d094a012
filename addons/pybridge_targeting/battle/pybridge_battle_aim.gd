@tool
extends RefCounted
## Where the player is in choosing a play, for a [PyBridgeBattleView]: the pointer and the
## input actions (BattleInput) move it from state to state; the view draws it.
##
## Idle: the hovered card lights what it affects. Pressed on a card: a click (the card stays
## chosen, [constant ARMED]) or the start of a drag ([constant DRAGGING]). A card that takes
## units picks them one at a time ([member choice], a [PyBridge.Choice]): released or clicked
## on a candidate, the unit is picked and the runtime says what may be picked next; when the
## choice is full the card is played, and an "up to" card may be confirmed early. A chosen
## unit clicked again is taken back. Any other card goes to the play area. The target actions
## cycle the candidates, confirm picks the aimed one (or, with none aimed, plays what is
## chosen), undo takes the last pick back, cancel puts the card back. A late choice (a Cut
## entry that chooses its units as it resolves) is made the same way, without a card.
## Which units a card takes, and how many, is the runtime's answer.

# The view emits each as its own signal of the same name (battle/pybridge_relay.gd).
signal aim_started(card_id: String)
signal target_selected(card_id: String, unit_id: String)
signal aim_cancelled(card_id: String)
signal card_refused(card_id: String, reason: String)
## A card was refused, typed ([signal PyBridgeBattleView.play_refused]).
signal play_refused(card_id: String, refusal: PyBridge.Refusal)
signal choice_changed(choice: PyBridge.Choice)
signal choice_ended(choice: PyBridge.Choice, confirmed: bool)
signal request_refused(op: String, reason: String)
## A request was refused, typed ([signal PyBridgeBattleView.request_denied]).
signal request_denied(op: String, refusal: PyBridge.Refusal)

## The states of the aim.
enum State {
	IDLE,  ## Nothing chosen.
	PRESSED,  ## The button went down on a card and the pointer has not moved far yet.
	DRAGGING,  ## A card is being dragged.
	ARMED,  ## A card was clicked (or picked by key), or a late choice waits for its units.
}

const HandSlot := preload("res://addons/pybridge_targeting/battle/pybridge_hand_slot.gd")
const TypedTwins := preload("res://addons/pybridge_targeting/battle/pybridge_typed_twins.gd")
## How far the pointer may move while pressed and still count as a click.
const CLICK_DISTANCE := 12.0
## [member keyboard_target] when the keys aim at nothing: confirm plays what is chosen.
const NOTHING_AIMED := -2

## The state now.
var state: State = State.IDLE
## The card being aimed, or null (none, or a late choice of a Cut entry).
var card: HandSlot = null
## The units being chosen, one at a time, or null when the aim chooses none.
var choice: PyBridge.Choice = null
## The card under the pointer, or null.
var hovered: HandSlot = null
## The pointer, global coordinates.
var pointer: Vector2 = Vector2.ZERO
## The candidate the keys chose (an index into [method candidates]), -1 for the pointer,
## [constant NOTHING_AIMED] for none.
var keyboard_target: int = -1

var _press_point: Vector2 = Vector2.ZERO
var _view: PyBridgeBattleView = null


func _init(view: PyBridgeBattleView) -> void:
	_view = view


## Whether anything is being aimed (a card, or a late choice).
func is_aiming() -> bool:
	return card != null or choice != null


## The units that may be picked now (empty when the aim chooses none).
func candidates() -> PackedStringArray:
	return choice.candidates if needs_unit() else PackedStringArray()


## The unit the aim points at now: the candidate the keys chose, else the one under the
## pointer.
func aimed_unit() -> String:
	if not is_aiming() or keyboard_target == NOTHING_AIMED:
		return ""
	var choices := candidates()
	if keyboard_target >= 0 and keyboard_target < choices.size():
		return choices[keyboard_target]
	return _view.unit_at(pointer)


## Whether the aim chooses units now (an arrow card, or a late choice of units).
func needs_unit() -> bool:
	return choice != null and choice.chooses == "units"


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
				_view.display.show_aim()
		State.DRAGGING, State.ARMED:
			keyboard_target = -1
			_view.display.show_aim()


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
			if under != null and card == null:
				return false  # a late choice: the hand waits
			if under == card and under != null:
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
			_view.display.show_aim()
		State.DRAGGING:
			release_at(point)


## Starts aiming [param chosen] from [param point]; false (and
## [signal PyBridgeBattleView.card_refused]) when it cannot be played now.
func begin(chosen: HandSlot, point: Vector2) -> bool:
	var info := _view.targets_of(chosen.card_id)
	if not _view.can_play(chosen.card_id):
		var refusal := _view.cut_flow.refusal_of(chosen.card_id)
		TypedTwins.refuse_card(self, chosen.card_id, refusal, _view.why_not(chosen.card_id))
		return false
	card = chosen
	choice = null
	if bool(info.get("requires_target", false)):
		choice = PyBridge.Choice.for_card(chosen.card_id, info)
		_ask_counts(choice)
	state = State.PRESSED
	_press_point = point
	keyboard_target = -1
	hovered = chosen
	_view.display.aim_began(chosen)
	aim_started.emit(chosen.card_id)
	return true


## Picks [param chosen] as if it had been clicked (keys and scripts); the first candidate is
## aimed for a card that takes units.
func select(chosen: HandSlot) -> bool:
	if is_aiming():
		cancel()
	if not begin(chosen, chosen.base_rect().get_center()):
		return false
	state = State.ARMED
	if needs_unit():
		keyboard_target = 0
	_view.display.show_aim()
	return true


## Chooses the units of [param units] (a late choice: a Cut entry's, or the choice an
## immediate play takes as its target, for the card still aimed); the first candidate is
## aimed for the keys.
func choose_units(units: PyBridge.Choice) -> void:
	choice = units
	state = State.ARMED
	keyboard_target = 0
	if card == null:
		_view.display.aim_began(null)
	choice_changed.emit(choice)
	_view.display.show_aim()


## Picks the card [param offset] places from [param from] in the hand (the first card when
## [param from] is null).
func pick_relative(from: HandSlot, offset: int) -> void:
	var slots := _view.hand_slots
	if slots.is_empty() or (choice != null and card == null):
		return
	var index := 0
	if from != null and from in slots:
		index = posmod(slots.find(from) + offset, slots.size())
	select(slots[index])


## Picks the card at [param index] of the hand (the number keys), if there is one.
func pick_index(index: int) -> void:
	if index >= 0 and index < _view.hand_slots.size() and not (choice != null and card == null):
		select(_view.hand_slots[index])


## Ends the aim without a play ([signal PyBridgeBattleView.aim_cancelled] for a card,
## [signal PyBridgeBattleView.choice_ended] for a late choice).
func cancel() -> void:
	if not is_aiming():
		return
	var card_id := card.card_id if card != null else ""
	var dropped := choice
	finish()
	if not card_id.is_empty():
		aim_cancelled.emit(card_id)
	if dropped != null and dropped.late:
		choice_ended.emit(dropped, false)


## Ends the aim (a play happened, or it was cancelled).
func finish() -> void:
	var was := card
	card = null
	choice = null
	state = State.IDLE
	keyboard_target = -1
	hovered = _view.card_at(pointer)
	_view.display.aim_ended(was)


## Plays or picks where [param point] is: a candidate is picked, a chosen unit taken back,
## a card without units released on the play area; anywhere else the aim is cancelled.
## True when something was done there.
func release_at(point: Vector2) -> bool:
	if needs_unit():
		var unit := _view.unit_at(point)
		if unit != "" and unit in candidates():
			_pick(unit)
			return true
		if unit != "" and unit in choice.chosen:
			_unpick(unit)
			return true
	elif card != null and choice == null and _view.in_play_area(point):
		_view.cut_flow.release_card(card.card_id)
		return true
	cancel()
	return false


## Picks the aimed candidate; with none aimed, plays what is chosen when the runtime says the
## choice can be confirmed (an "up to" card early); a card without units is played.
func confirm() -> void:
	if needs_unit():
		var target := aimed_unit()
		if target != "" and target in candidates():
			_pick(target)
		elif choice.can_confirm:
			_finish_choice()
		return
	if card != null and choice == null:
		_view.cut_flow.release_card(card.card_id)


## Plays what is chosen now, if the runtime says the choice can be confirmed (the Confirm
## button of the choice prompt).
func confirm_choice() -> void:
	if choice != null and choice.can_confirm:
		_finish_choice()


## Takes the last pick back.
func undo() -> void:
	if choice != null and not choice.chosen.is_empty():
		_unpick("")


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
	_view.display.show_aim()


## Forgets the cards of a hand that is gone (a new state): the aim at a card and the hover
## are dropped (a late choice of a Cut entry stays).
func forget_hand() -> void:
	hovered = null
	if card == null:
		return
	card = null
	choice = null
	state = State.IDLE
	keyboard_target = -1


# How many the choice takes is the runtime's answer (pick, before the first pick).
func _ask_counts(asked: PyBridge.Choice) -> void:
	await asked.refresh(_view.bridge)
	if asked == choice:
		_view.display.refresh_choice()
		choice_changed.emit(asked)


func _pick(unit: String) -> void:
	var picking := choice
	target_selected.emit(picking.source_id(), unit)
	_view.busy_with(1)
	var ok: bool = await picking.add(_view.bridge, unit)
	_view.busy_with(-1)
	if picking != choice:
		return  # the aim moved on while the runtime answered
	if not ok:
		var why := str(picking.refused.get("message", ""))
		TypedTwins.refuse_card(self, picking.source_id(), picking.refusal, why)
		return
	if picking.complete:
		_finish_choice()
		return
	state = State.ARMED
	keyboard_target = NOTHING_AIMED if picking.can_confirm else 0
	choice_changed.emit(picking)
	_view.display.show_aim()


func _unpick(unit: String) -> void:
	var picking := choice
	_view.busy_with(1)
	var ok: bool = await picking.remove(_view.bridge, unit)
	_view.busy_with(-1)
	if not ok and not picking.refused.is_empty():
		var why := str(picking.refused.get("message", ""))
		TypedTwins.refuse_request(self, "pick", picking.refusal, why)
	if ok and picking == choice:
		keyboard_target = 0
		choice_changed.emit(picking)
		_view.display.show_aim()


func _finish_choice() -> void:
	var done := choice
	var card_id := card.card_id if card != null else ""
	if card != null and not done.late:
		finish()
		_view.play_card_at(card_id, done.chosen)
		return
	finish()
	choice_ended.emit(done, true)


func _hover(under: HandSlot) -> void:
	if under != hovered:
		hovered = under
		_view.display.refresh()
