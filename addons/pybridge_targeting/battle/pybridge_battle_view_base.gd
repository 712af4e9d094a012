@tool
extends Control
## The declarations of [PyBridgeBattleView] and the questions it answers: its signals, its
## members and what it says about the battle on screen (the view adds its exports, the input,
## opening, plays and playback). Internal: a game names [PyBridgeBattleView], never this script;
## what is documented here is the view's own API.

## A battle was opened; [param state] is its state. Deprecated: use [signal battle_started].
signal battle_opened(state: Dictionary)
## A battle was opened: [param state], typed.
signal battle_started(state: PyBridge.BattleState)
## The battle state changed (opened, a card played, a turn ended). Deprecated: its
## [param state] is the runtime's JSON; use [signal battle_state_changed], which is typed.
signal state_changed(state: Dictionary)
## The battle state changed (opened, a card played, a turn ended): [param state], typed.
signal battle_state_changed(state: PyBridge.BattleState)
## Units or cards moved; [method layout_points] has their new screen positions.
signal layout_changed
## The player started aiming [param card_id] (pressed or picked it).
signal aim_started(card_id: String)
## The player chose [param unit_id] as the target of [param card_id]; the play follows.
signal target_selected(card_id: String, unit_id: String)
## The aim at [param card_id] ended without a play.
signal aim_cancelled(card_id: String)
## The runtime played [param card_id] (at [param target_id], or [code]""[/code]): its
## [param result]. Deprecated: use [signal card_play_answered].
signal card_played(card_id: String, target_id: String, result: Dictionary)
## The runtime played [param card_id] (at [param target_id], or [code]""[/code]): its events,
## log lines and new state in [param outcome].
signal card_play_answered(card_id: String, target_id: String, outcome: PyBridge.Outcome)
## A card was refused; [param reason] says why. Deprecated: use [signal play_refused].
signal card_refused(card_id: String, reason: String)
## The player tried a card the runtime says cannot be played now, or the runtime refused the
## play: [param refusal] says why (its code, and [method PyBridge.Refusal.said]).
signal play_refused(card_id: String, refusal: PyBridge.Refusal)
## The runtime ended the turn: its [param result]. Deprecated: use [signal turn_end_answered].
signal turn_ended(result: Dictionary)
## The runtime ended the turn: its events, log lines and new state in [param outcome]. The
## playback follows ([signal step_shown] per step), then [signal turn_finished].
signal turn_end_answered(outcome: PyBridge.Outcome)
## A step of a playback is shown: its log [param line] and [param events]. Deprecated: use
## [signal step_shown], which is typed.
signal turn_step_shown(line: Dictionary, events: Array)
## The turn's playback ended: the new [param state]. Deprecated: use [signal turn_finished].
signal turn_settled(state: Dictionary)
## The turn's playback ended and the view shows the new [param state], typed.
signal turn_finished(state: PyBridge.BattleState)
## One step of a playback is shown (a turn's, a resolution's, or with a
## [member step_handler] a play's), typed: [param step] is what [member step_handler] is
## given (its op, place, log line and events). Every step comes once, skipped or not.
signal step_shown(step: PyBridge.Step)
## One step of a playback is shown, as a Dictionary ([code]op[/code], [code]index[/code],
## [code]count[/code], [code]line[/code], [code]events[/code], [code]cut[/code]). Deprecated:
## use [signal step_shown], which is typed.
signal playback_step_shown(step: Dictionary)
## One event of the [param step] shown now (see [signal playback_step_shown]), in order.
## Deprecated: [param event] is the runtime's JSON; use [signal event_shown], which is typed.
signal playback_event_shown(event: Dictionary, step: Dictionary)
## One event of the [param step] shown now, in order, typed by the runtime's
## [code]schema[/code] ([PyBridge.Event]; an extension's event type too).
signal event_shown(event: PyBridge.Event, step: PyBridge.Step)
## The lit units changed: [param unit_ids] for [param card_id] ([code]""[/code]: nothing lit).
signal highlight_changed(card_id: String, unit_ids: PackedStringArray)
## The runtime put [param card_id] on the Cut ([param result]). Deprecated: use
## [signal card_activation_answered].
signal card_activated(card_id: String, target_ids: PackedStringArray, result: Dictionary)
## The runtime put [param card_id] on the Cut with its targets [param target_ids] locked:
## [param outcome].
signal card_activation_answered(
	card_id: String, target_ids: PackedStringArray, outcome: PyBridge.Outcome
)
## The player passed on the Cut ([param result]). Deprecated: use [signal pass_answered].
signal passed(result: Dictionary)
## The player passed on the Cut: [param outcome] is the runtime's answer (an enemy's
## response, or the top entry resolving); its playback follows.
signal pass_answered(outcome: PyBridge.Outcome)
## The Cut changed ([param cut]). Deprecated: use [signal cut_status_changed].
signal cut_changed(cut: Dictionary)
## The Cut changed: [param status] is the runtime's [code]cut[/code] answer, typed.
signal cut_status_changed(status: PyBridge.CutStatus)
## A choice of units or cards started, or a unit or card was picked or taken back.
signal choice_changed(choice: PyBridge.Choice)
## A choice made as an effect resolves ended: [param confirmed], or cancelled.
signal choice_ended(choice: PyBridge.Choice, confirmed: bool)
## The runtime refused [param op]: [param reason]. Deprecated: use [signal request_denied].
signal request_refused(op: String, reason: String)
## The runtime refused [param op] ([code]pass[/code], [code]end_turn[/code], [code]pick[/code]
## ...): [param refusal] says why.
signal request_denied(op: String, refusal: PyBridge.Refusal)
## The tooltip changed: [param title] and [param text] ([code]""[/code] when hidden).
signal tooltip_changed(title: String, text: String)
## The player moved a card of the hand: [param card_ids] is its order now, left to right.
signal hand_reordered(card_ids: PackedStringArray)
## The cards drawn, played or discarded in the last state stopped flying ([param moves]:
## [code]{"card", "from", "to"}[/code] per card; see [member card_motion]).
signal motion_finished(moves: Array)

const BattleData := preload("res://addons/pybridge_targeting/battle/pybridge_battle_data.gd")
const HandSlot := preload("res://addons/pybridge_targeting/battle/pybridge_hand_slot.gd")
const AimDisplay := preload("res://addons/pybridge_targeting/drawing/pybridge_aim_display.gd")
const BattleAim := preload("res://addons/pybridge_targeting/battle/pybridge_battle_aim.gd")
const BattleInput := preload("res://addons/pybridge_targeting/battle/pybridge_battle_input.gd")
const Opening := preload("res://addons/pybridge_targeting/battle/pybridge_battle_opening.gd")
const BattleSetup := preload("res://addons/pybridge_targeting/battle/pybridge_battle_setup.gd")
const BattleStage := preload("res://addons/pybridge_targeting/battle/pybridge_battle_stage.gd")
const ChoicePrompt := preload("res://addons/pybridge_targeting/battle/pybridge_choice_prompt.gd")
const CutFlow := preload("res://addons/pybridge_targeting/battle/pybridge_cut_flow.gd")
const PilePicker := preload("res://addons/pybridge_targeting/battle/pybridge_pile_picker.gd")
const CardMotion := preload("res://addons/pybridge_targeting/battle/pybridge_card_motion.gd")
const HandOrder := preload("res://addons/pybridge_targeting/battle/pybridge_hand_order.gd")
const PileViewer := preload("res://addons/pybridge_targeting/battle/pybridge_pile_viewer.gd")
const Relay := preload("res://addons/pybridge_targeting/battle/pybridge_relay.gd")
const TargetMarks := preload("res://addons/pybridge_targeting/drawing/pybridge_target_marks.gd")
const TypedTwins := preload("res://addons/pybridge_targeting/battle/pybridge_typed_twins.gd")
const TurnPlayback := preload("res://addons/pybridge_targeting/battle/pybridge_turn_playback.gd")
const Wire := preload("res://addons/pybridge_targeting/transport/pybridge_wire.gd")

## The battle state (docs/format.md), as the runtime last sent it: its JSON, numbers as
## floats. Deprecated for reading: [member battle_state] is the same state, typed.
var state: Dictionary = {}
## The battle state as the runtime last sent it, typed: the units, each card-playing side
## with its energy and piles, the Cut's entries (null before a battle opens).
var battle_state: PyBridge.BattleState = null
## Unit id -> its view (a [PyBridgeUnitView] or the game's unit scene).
var unit_views: Dictionary:
	get:
		return _stage.unit_views
## The hand, left to right.
var hand_slots: Array[HandSlot]:
	get:
		return _stage.hand_slots
## Card id -> the runtime's [code]targets[/code] answer for it.
var card_targets: Dictionary = {}
## The unit ids lit now.
var lit_units: PackedStringArray:
	get:
		return display.lit_units
## The card whose units are lit ([code]""[/code]: none; a Cut entry's id: a late choice).
var lit_card: String:
	get:
		return display.lit_card
## Keyword -> the text a player reads about it (the runtime's [code]schema[/code]).
var keywords: Dictionary = {}
## The runtime's [code]schema[/code] answer (its words: keywords, the battle counters its
## extensions declare...), asked when the first battle opens; empty until then.
var schema: Dictionary = {}
## The aim: its state, the aimed and the hovered card.
var aim: BattleAim = null
## What the view draws for the aim: the arrow, the lit units, the preview marks, the tooltip.
var display: AimDisplay = null
## The player's order of the hand (drag a card along the hand, or the move-card actions).
var hand_order: HandOrder = null
## The cards flying between the hand and the piles (its [code]pile_anchors[/code] say where
## the game's pile counters are).
var card_motion: CardMotion:
	get:
		return _stage.motion
## The Cut and the choices made one unit or card at a time.
var cut_flow: CutFlow = null
## The runtime's last [code]cut[/code] answer (with a [member cut_view]).
var cut: Dictionary:
	get:
		return cut_flow.cut
## What the views are given, read from the state (see [code]battle/pybridge_battle_data.gd[/code]).
var data: BattleData:
	get:
		return _data
## The markers over the units: numbered picks, the Cut's targets, lost targets.
var target_marks: TargetMarks = null
## What a choice of units asks while it is made.
var choice_prompt: ChoicePrompt = null
## The picker of a choice of cards.
var pile_picker: PilePicker = null
## The viewer of a pile's cards ([method PyBridgeBattleView.show_pile]).
var pile_viewer: PileViewer = null
## The game's art hook, [code]func(kind: String, id: String, data: Dictionary) -> Texture2D[/code]
## ([param kind] [code]"unit"[/code] or [code]"card"[/code]); null answers fall through to
## [member unit_art], [member card_art] and the data.
var art_provider: Callable
## The game's playback hook, [code]func(step: PyBridge.Step) -> Variant[/code], called as
## each step of a playback is shown (see [PyBridge.Step]): each
## enemy move and line of the enemy turn ([code]op[/code] [code]end_turn[/code]), each step
## of a Cut resolution ([code]pass[/code]), and the events of a play ([code]play[/code], or
## [code]activate[/code] onto the Cut), which then play back step by step too. The view awaits
## what it returns: a coroutine or a returned [Signal] holds the step until it is done, and
## the view goes on when both it and the step's own pause are over (a play's steps have no
## pause). Without a handler the fixed pauses alone pace the playback and a play shows at
## once, as before. A skip stops the waiting; a handler that has not finished after
## [member playback_handler_timeout] is left running and the view goes on with a warning.
## With [member play_back_turns] off nothing is played back and the handler is not called.
var step_handler: Callable
## The same hook given the step as a Dictionary ([code]func(step: Dictionary) -> Variant[/code],
## see [signal playback_step_shown]). Deprecated: use [member step_handler], which wins when
## both are set.
var playback_handler: Callable

var _stage: BattleStage = null
var _input_handler: BattleInput = null
var _playback: TurnPlayback = null
var _twins: TypedTwins = null
var _data: BattleData = BattleData.new()
var _busy: int = 0
var _generation: int = 0


## The unit [param unit_id] of [member battle_state], typed (null when there is none).
func unit(unit_id: String) -> PyBridge.Unit:
	return battle_state.unit(unit_id) if battle_state != null else null


## The runtime's [code]targets[/code] answer for the hand's card [param card_id], typed (its
## defaults when there is none); [method targets_of] gives the same answer's JSON.
func typed_targets(card_id: String) -> PyBridge.Targets:
	return PyBridge.Targets.from(card_targets.get(card_id, {}))


## The events of [param result] (a [signal card_played], [signal turn_ended],
## [signal passed]... answer), typed by the runtime's [code]schema[/code].
func events_of(result: Dictionary) -> Array[PyBridge.Event]:
	return PyBridge.Event.list_from(result.get("events", []), schema)


## The entries of the runtime's last [code]cut[/code] answer, bottom first, typed (with their
## [member PyBridge.CutEntry.late_choice]); without a [member cut_view], the state's.
func cut_entries() -> Array[PyBridge.CutEntry]:
	var entries: Array[PyBridge.CutEntry] = []
	for data: Variant in cut.get("cut", state.get("cut", [])):
		if data is Dictionary:
			entries.append(PyBridge.CutEntry.from(data))
	return entries


## Shows the rest of the turn's playback at once.
func skip_playback() -> void:
	if _playback != null:
		_playback.skip()


## Whether a turn is being played back.
func is_playing_back() -> bool:
	return _playback != null


## Whether the game set a playback hook ([member step_handler], or the deprecated
## [member playback_handler]).
func has_playback_hook() -> bool:
	return step_handler.is_valid() or playback_handler.is_valid()


## Whether the playback waits only for the playback hook: the step shown now would
## have gone on by its own pause.
func is_awaiting_handler() -> bool:
	return _playback != null and _playback.awaiting_handler


## Whether the view waits for the runtime (or plays a turn back): input waits too.
func is_busy() -> bool:
	return _busy > 0


## Starts aiming [param card_id] as if it had been clicked (keyboard and scripted use).
func select_card(card_id: String) -> bool:
	var slot := hand_slot(card_id)
	return slot != null and aim.select(slot)


## Stops aiming without playing ([signal aim_cancelled]).
func cancel_aim() -> void:
	aim.cancel()


## Whether the battle has a result (victory or defeat).
func is_battle_over() -> bool:
	return battle_state != null and battle_state.is_over()


# -- what the runtime answered, and where things are --------------------------------------


## The runtime's [code]targets[/code] answer for [param card_id] (empty when unknown): its JSON.
## Deprecated for reading: [method typed_targets] gives it typed.
func targets_of(card_id: String) -> Dictionary:
	return card_targets.get(card_id, {})


## The units [param card_id] lights up: the candidates of an arrow mode, else the units the
## runtime says a play now affects; none when it cannot be played now.
func units_lit_by(card_id: String) -> PackedStringArray:
	var info := targets_of(card_id)
	if not can_play(card_id):
		return PackedStringArray()
	var key := "candidates" if bool(info.get("requires_target", false)) else "affects"
	return PackedStringArray(info.get(key, info.get("range", [])))


## Whether [param card_id] can be played now (see [method CutFlow.can_play]).
func can_play(card_id: String) -> bool:
	return cut_flow.can_play(card_id)


## Why [param card_id] cannot be played now, in the runtime's words ([code]""[/code] when it
## can; see [method CutFlow.why_not]).
func why_not(card_id: String) -> String:
	return cut_flow.why_not(card_id)


## The hand slot of [param card_id], or null.
func hand_slot(card_id: String) -> HandSlot:
	return _stage.hand_slot(card_id)


## The view of [param card_id] in the hand, or null.
func card_view(card_id: String) -> Control:
	var slot := hand_slot(card_id)
	return slot.view if slot != null else null


## The hand card under [param point] (global): the later card wins where two overlap, and a
## raised card also owns the space it is raised into.
func card_at(point: Vector2) -> HandSlot:
	return _stage.card_at(point, [aim.hovered, aim.card])


## The id of the unit under [param point] (global), or [code]""[/code].
func unit_at(point: Vector2) -> String:
	return _stage.unit_at(point)


## Screen positions for scripts and tests, in global coordinates:
## [code]{"units": {id: [x, y]}, "cards": {id: [x, y]}}[/code] (a unit's portrait centre; the
## middle of the visible part of each card in the hand).
func layout_points() -> Dictionary:
	return _stage.layout_points()


## Display names from the current state: [code]{"units", "cards", "statuses", "moves"}[/code],
## each id -> name.
func names() -> Dictionary:
	return _data.names()


## What a unit view is given for [param unit], a unit of the state (see
## [code]BattleData.unit_data()[/code]).
func unit_data(unit: Dictionary) -> Dictionary:
	return _data.unit_data(unit)


## What a card view is given for the hand's card [param card_id] (see
## [method PyBridgeCardView.show_card]).
func card_data(card_id: String) -> Dictionary:
	var data := _data.card_data(_data.hand_instance(card_id), targets_of(card_id))
	data["playable"] = can_play(card_id)
	data["reason"] = why_not(card_id)
	return data


## A new card view of [member card_scene] (or the built-in card), in no tree yet.
func new_card_view() -> Control:
	return _stage.new_card_view()


## Counts a wait for the runtime (positive) or its end (negative): input waits meanwhile.
func busy_with(delta: int) -> void:
	_busy = maxi(0, _busy + delta)


## Shows [param unit] (a unit of the state, or one the playback changed) on its view.
func show_unit_data(unit: Dictionary) -> void:
	var view: Control = unit_views.get(str(unit.get("id", "")))
	if view != null:
		view.call(&"show_unit", _data.unit_data(unit))


## Moves [param unit_id]'s view a step towards [param target_id]'s and back (an enemy acts).
func lunge(unit_id: String, target_id: String) -> void:
	_stage.lunge(unit_id, target_id)


# -- what the aim and the input ask the view to draw --------------------------------------


## Lays the hand out: the hovered and aimed cards raised, a dragged card left to the pointer.
func layout_hand() -> void:
	var dragged: HandSlot = null
	if aim.state == BattleAim.State.DRAGGING and not aim.needs_unit():
		dragged = aim.card  # it follows the pointer
	_stage.layout_hand([aim.hovered, aim.card], dragged)


## The tooltip of the hand's card [param card_id]: its whole text, its keywords, and why it
## cannot be played now.
func card_tip(card_id: String) -> Dictionary:
	return _data.card_tip(card_data(card_id))
