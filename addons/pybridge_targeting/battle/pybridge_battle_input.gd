@tool
extends RefCounted
## The battle view's input actions and their default bindings, and the one place that turns
## an [InputEvent] into aiming.
##
## The view reads input in [method Node._unhandled_input], so the game's GUI (focus
## navigation, buttons, text fields) and its own shortcuts see every event first. Every key
## and button is an [InputMap] action the game may rebind in its Project Settings; the
## defaults below are added at run time for any action the project does not define (the
## plugin also writes them into the project when it is enabled, so they show in the Input
## Map). Pointer motion is read as it comes (it is not an action).
##
## It never holds the view: it is given the aim, the hand's order and the aim display, and
## Callables for what it asks the view ([member playing_back], [member busy],
## [member has_cut], [member pile_input]); what it asks the view to do, it tells by its
## signals, which the view's wiring ([code]battle/pybridge_battle_wiring.gd[/code]) connects.

## Show the rest of the playback at once.
signal skip_asked
## Pass on the Cut.
signal pass_asked
## Respond on the Cut.
signal respond_asked
## End the turn.
signal end_turn_asked
## Show [param pile] ([code]draw[/code], [code]discard[/code], [code]exhaust[/code]).
signal pile_asked(pile: String)

const BattleAim := preload("res://addons/pybridge_targeting/battle/pybridge_battle_aim.gd")
const HandOrder := preload("res://addons/pybridge_targeting/battle/pybridge_hand_order.gd")
const AimDisplay := preload("res://addons/pybridge_targeting/drawing/pybridge_aim_display.gd")
## Press on a card, release on a target (left mouse button).
const SELECT := &"pybridge_select"
## Put the aimed card back (Escape, right mouse button).
const CANCEL := &"pybridge_cancel"
## Play the aimed card at the chosen target (Enter, keypad Enter).
const CONFIRM := &"pybridge_confirm"
## The next candidate (Tab).
const NEXT_TARGET := &"pybridge_next_target"
## The previous candidate (Shift+Tab).
const PREVIOUS_TARGET := &"pybridge_previous_target"
## Aim the next card of the hand (Right).
const NEXT_CARD := &"pybridge_next_card"
## Aim the previous card of the hand (Left).
const PREVIOUS_CARD := &"pybridge_previous_card"
## Show the rest of the enemy turn (or of an entry resolving) at once (Space; a click,
## Enter or Escape do too).
const SKIP := &"pybridge_skip"
## Take the last pick of a choice back (Backspace).
const UNDO := &"pybridge_undo"
## Pass on the Cut: let the other side answer, or the top entry resolve (Space, P).
const PASS := &"pybridge_pass"
## Respond on the Cut: aim the first card that can answer now (R).
const RESPOND := &"pybridge_respond"
## End the turn (E).
const END_TURN := &"pybridge_end_turn"
## Move the aimed (or hovered) card one place left in the hand (Shift+Left).
const MOVE_CARD_LEFT := &"pybridge_move_card_left"
## Move the aimed (or hovered) card one place right in the hand (Shift+Right).
const MOVE_CARD_RIGHT := &"pybridge_move_card_right"
## Show the draw pile (D), the discard pile (S), the exhaust pile (X): the pile viewer.
const SHOW_DRAW := &"pybridge_show_draw"
const SHOW_DISCARD := &"pybridge_show_discard"
const SHOW_EXHAUST := &"pybridge_show_exhaust"
## [code]pybridge_card_1[/code] .. [code]pybridge_card_10[/code]: aim the n-th card (1-9, 0).
const CARD_PREFIX := "pybridge_card_"
## How many cards have an action of their own.
const CARD_KEYS := 10

## Whether a playback runs (input skips it): [code]func() -> bool[/code].
var playing_back: Callable
## Whether the view waits for the runtime (input waits too): [code]func() -> bool[/code].
var busy: Callable
## Whether the view shows the Cut (pass and respond work): [code]func() -> bool[/code].
var has_cut: Callable
## The open pile picker's handling of an event: [code]func(event: InputEvent) -> Variant[/code],
## whether it took the event, or null when no picker is open.
var pile_input: Callable

var _aim: BattleAim = null
var _hand_order: HandOrder = null
var _display: AimDisplay = null


## Turns input into [param aim], [param hand_order] and what [param display] shows.
func _init(aim: BattleAim, hand_order: HandOrder, display: AimDisplay) -> void:
	_aim = aim
	_hand_order = hand_order
	_display = display


## Every action with its default events: action name -> [code]Array[InputEvent][/code].
static func default_bindings() -> Dictionary:
	var bindings := {
		SELECT: [_mouse(MOUSE_BUTTON_LEFT)],
		CANCEL: [_key(KEY_ESCAPE), _mouse(MOUSE_BUTTON_RIGHT)],
		CONFIRM: [_key(KEY_ENTER), _key(KEY_KP_ENTER)],
		NEXT_TARGET: [_key(KEY_TAB)],
		PREVIOUS_TARGET: [_key(KEY_TAB, true)],
		NEXT_CARD: [_key(KEY_RIGHT)],
		PREVIOUS_CARD: [_key(KEY_LEFT)],
		MOVE_CARD_LEFT: [_key(KEY_LEFT, true)],
		MOVE_CARD_RIGHT: [_key(KEY_RIGHT, true)],
		SKIP: [_key(KEY_SPACE)],
		UNDO: [_key(KEY_BACKSPACE)],
		PASS: [_key(KEY_SPACE), _key(KEY_P)],
		RESPOND: [_key(KEY_R)],
		END_TURN: [_key(KEY_E)],
		SHOW_DRAW: [_key(KEY_D)],
		SHOW_DISCARD: [_key(KEY_S)],
		SHOW_EXHAUST: [_key(KEY_X)],
	}
	for n in range(1, CARD_KEYS + 1):
		bindings[StringName(CARD_PREFIX + str(n))] = [_key(KEY_0 + n % 10)]
	return bindings


## Adds every action the [InputMap] lacks, with its default events; returns the names added.
## An action the project defines is left as the project has it.
static func register_defaults() -> PackedStringArray:
	var added := PackedStringArray()
	var bindings := default_bindings()
	for action: StringName in bindings:
		if InputMap.has_action(action):
			continue
		InputMap.add_action(action)
		for event: InputEvent in bindings[action]:
			InputMap.action_add_event(action, event)
		added.append(action)
	return added


## [param text] with the first key of [param action] after it, as a button shows it
## ([code]Pass (Space)[/code]); [param text] alone when no key is bound.
static func with_key(text: String, action: StringName) -> String:
	if InputMap.has_action(action):
		for event: InputEvent in InputMap.action_get_events(action):
			if event is InputEventKey:
				return "%s (%s)" % [text, OS.get_keycode_string((event as InputEventKey).keycode)]
	return text


## Handles [param event]; true when it was the battle's (the caller marks it handled).
func handle(event: InputEvent) -> bool:
	if event is InputEventMouseMotion:
		var point := (event as InputEventMouseMotion).position
		_hand_order.moved(point)
		_aim.pointer_moved(point)
		_display.refresh_tooltip()
		return false
	if playing_back.call():
		var skips := [SKIP, SELECT, CONFIRM, CANCEL].any(
			func(action: StringName) -> bool: return _pressed(event, action)
		)
		if skips:
			skip_asked.emit()
		return skips
	if busy.call():
		return false
	var picked: Variant = pile_input.call(event)
	if picked != null:
		return bool(picked)
	return _pointer(event) or _keys(event) or _moves(event) or _piles(event)


# The select button (a press on a card, a release on a target) and cancel.
func _pointer(event: InputEvent) -> bool:
	var aim := _aim
	var point := aim.pointer
	if event is InputEventMouse:
		point = (event as InputEventMouse).position
	if _pressed(event, SELECT):
		_hand_order.pressed(point)
		return aim.pointer_pressed(point)
	if event.is_action_released(SELECT):
		_hand_order.released(point)
		aim.pointer_released(point)
	elif _pressed(event, CANCEL) and aim.state != BattleAim.State.IDLE:
		aim.cancel()
		return true
	return false


# Picking cards and targets, and confirming, by key.
func _keys(event: InputEvent) -> bool:
	var aim := _aim
	var handled := true
	if _pressed(event, MOVE_CARD_LEFT, true) or _pressed(event, MOVE_CARD_RIGHT, true):
		var moved := aim.card if aim.card != null else aim.hovered
		_hand_order.shift(moved, -1 if _pressed(event, MOVE_CARD_LEFT, true) else 1)
	elif _pressed(event, PREVIOUS_TARGET, true) or _pressed(event, NEXT_TARGET):
		if aim.card == null:
			aim.pick_relative(aim.hovered, 0)
		else:
			aim.cycle_target(-1 if _pressed(event, PREVIOUS_TARGET, true) else 1)
	elif _pressed(event, CONFIRM) and aim.is_aiming():
		aim.confirm()
	elif _pressed(event, UNDO) and aim.is_aiming():
		aim.undo()
	elif _pressed(event, NEXT_CARD) or _pressed(event, PREVIOUS_CARD):
		aim.pick_relative(aim.card, 1 if _pressed(event, NEXT_CARD) else -1)
	else:
		handled = false
		for n in range(1, CARD_KEYS + 1):
			if _pressed(event, StringName(CARD_PREFIX + str(n))):
				aim.pick_index(n - 1)
				handled = true
	return handled


# The Cut and the turn: pass, respond, end the turn (while nothing is aimed; respond also
# while a card is aimed, to aim the next card that can respond).
func _moves(event: InputEvent) -> bool:
	if _pressed(event, RESPOND) and has_cut.call() and _aim.card != null:
		respond_asked.emit()  # again while a card is aimed: the next card that can respond
		return true
	if _aim.is_aiming():
		return false
	if _pressed(event, PASS) and has_cut.call():
		pass_asked.emit()
	elif _pressed(event, RESPOND) and has_cut.call():
		respond_asked.emit()
	elif _pressed(event, END_TURN):
		end_turn_asked.emit()
	else:
		return false
	return true


# The pile viewer's keys (while nothing is aimed).
func _piles(event: InputEvent) -> bool:
	if _aim.is_aiming():
		return false
	for action: StringName in [SHOW_DRAW, SHOW_DISCARD, SHOW_EXHAUST]:
		if _pressed(event, action):
			pile_asked.emit(String(action).trim_prefix("pybridge_show_"))
			return true
	return false


static func _pressed(event: InputEvent, action: StringName, exact: bool = false) -> bool:
	return InputMap.has_action(action) and event.is_action_pressed(action, false, exact)


static func _key(code: Key, shift: bool = false) -> InputEventKey:
	var key := InputEventKey.new()
	key.keycode = code
	key.shift_pressed = shift
	return key


static func _mouse(button: MouseButton) -> InputEventMouseButton:
	var press := InputEventMouseButton.new()
	press.button_index = button
	return press


## The ancestors of [param view] that stop the mouse ([constant Control.MOUSE_FILTER_STOP]):
## the view reads the pointer in [method Node._unhandled_input], which a stopping Control
## above it never lets the pointer reach. Set their Mouse Filter to Pass or Ignore.
static func mouse_blockers(view: Control) -> Array[Control]:
	var found: Array[Control] = []
	var node := view.get_parent()
	while node != null:
		var control := node as Control
		if control != null and control.mouse_filter == Control.MOUSE_FILTER_STOP:
			found.append(control)
		node = node.get_parent()
	return found


## The warning a view gives for [method mouse_blockers] ([code]""[/code] when there are none).
static func blocked_mouse_warning(view: Control) -> String:
	var names := PackedStringArray()
	for control in mouse_blockers(view):
		names.append(str(control.name))
	if names.is_empty():
		return ""
	return (
		(
			"%s above the battle view stop the mouse (Mouse Filter: Stop), so the pointer never "
			+ "reaches the view: set their Mouse Filter to Pass or Ignore."
		)
		% ", ".join(names)
	)
