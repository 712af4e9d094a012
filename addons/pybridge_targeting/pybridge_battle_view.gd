@tool
@icon("res://addons/pybridge_targeting/icons/pybridge_battle_view.svg")
class_name PyBridgeBattleView
extends Control
## The targeting half of a card battle screen, driven by the Python runtime.
##
## It shows the units of a battle in [member party_area] and [member enemy_area] and the hand
## in [member hand_area], and turns the pointer and the input actions into plays ([member aim]):
## [br]- Hover a card: it rises, grows and shows its whole text; exactly the units the runtime
## says it affects light up (nothing when it cannot be played now).
## [br]- Drag a card whose mode requires a target: a [PyBridgeAimArrow] follows the pointer,
## snaps to a valid unit and changes colour over an invalid unit or empty space; released on
## a valid unit the card is played, anywhere else the aim is cancelled.
## [br]- Drag any other card into the [member play_area] and release it to play it.
## [br]- Or click a card, then click a unit (or the play area); or the keys.
## [br][br]
## A card that takes several units picks them one at a time, numbered on the units
## ([PyBridgeChoice], [member target_marks]); an "up to" card may be confirmed early
## ([member choice_prompt]); a card that chooses cards opens the [member pile_picker]. While
## aiming, each unit shows what the play would do to it (the runtime's preview marks). With a
## [member cut_view], plays go on the Cut ([member cut_flow]): the other side may respond
## before they resolve, and each resolution plays back on the [PyBridgeCutView]. When the
## turn ends, the enemy turn plays back step by step; a click or a key shows the rest at once.
## The game's [member playback_handler] may hold each step (an enemy move, a Cut resolution, a
## play's events) until its own animation is over.
## All legality and every word come from the runtime through [member bridge], asked with
## [method PyBridgeClient.ask], so no answer holds up a frame. [br][br]
## Re-skin: [member card_scene] and [member unit_scene] take the game's own scenes; the
## built-in views read the theme items of [PyBridgeViewTheme]; art comes from the data's
## [code]art[/code] paths, [member unit_art], [member card_art] or [member art_provider].

## A battle was opened; [param state] is its state.
signal battle_opened(state: Dictionary)
## The battle state changed (opened, a card played, a turn ended).
signal state_changed(state: Dictionary)
## Units or cards moved; [method layout_points] has their new screen positions.
signal layout_changed
## The player started aiming [param card_id] (pressed or picked it).
signal aim_started(card_id: String)
## The player chose [param unit_id] as the target of [param card_id]; the play follows.
signal target_selected(card_id: String, unit_id: String)
## The aim at [param card_id] ended without a play.
signal aim_cancelled(card_id: String)
## The runtime played [param card_id] (at [param target_id], or [code]""[/code]);
## [param result] holds its [code]events[/code], [code]log[/code] and new [code]state[/code].
signal card_played(card_id: String, target_id: String, result: Dictionary)
## The player tried a card the runtime says cannot be played now, or the runtime refused
## the play; [param reason] says why.
signal card_refused(card_id: String, reason: String)
## The runtime ended the turn; [param result] holds its [code]events[/code], [code]log[/code]
## and new [code]state[/code]. The playback follows, then [signal turn_settled].
signal turn_ended(result: Dictionary)
## One step of the turn's playback is shown: [param line] (a log line of the runtime) and the
## [param events] it tells. Every line of the turn comes once, skipped or not.
signal turn_step_shown(line: Dictionary, events: Array)
## The turn's playback ended and the view shows the new [param state].
signal turn_settled(state: Dictionary)
## One step of a playback is shown (a turn's, a resolution's, or with a
## [member playback_handler] a play's): [param step] is what the handler is given
## ([code]op[/code], [code]index[/code], [code]count[/code], [code]line[/code],
## [code]events[/code], [code]cut[/code]). Every step comes once, skipped or not.
signal playback_step_shown(step: Dictionary)
## One event of the [param step] shown now (see [signal playback_step_shown]), in order.
signal playback_event_shown(event: Dictionary, step: Dictionary)
## The lit units changed: [param unit_ids] for [param card_id] ([code]""[/code]: nothing lit).
signal highlight_changed(card_id: String, unit_ids: PackedStringArray)
## The runtime put [param card_id] on the Cut with its targets [param target_ids] locked;
## [param result] holds its [code]events[/code], [code]log[/code] and new [code]state[/code].
signal card_activated(card_id: String, target_ids: PackedStringArray, result: Dictionary)
## The player passed on the Cut: [param result] is the runtime's answer (an enemy's
## response, or the top entry resolving); its playback follows.
signal passed(result: Dictionary)
## The Cut changed: [param cut] is the runtime's [code]cut[/code] answer.
signal cut_changed(cut: Dictionary)
## A choice of units or cards started, or a unit or card was picked or taken back.
signal choice_changed(choice: PyBridgeChoice)
## A choice made as an effect resolves ended: [param confirmed], or cancelled.
signal choice_ended(choice: PyBridgeChoice, confirmed: bool)
## The runtime refused [param op] ([code]pass[/code], [code]end_turn[/code]...): [param reason].
signal request_refused(op: String, reason: String)
## The tooltip changed: [param title] and [param text] ([code]""[/code] when hidden).
signal tooltip_changed(title: String, text: String)
## The player moved a card of the hand: [param card_ids] is its order now, left to right.
signal hand_reordered(card_ids: PackedStringArray)
## The cards drawn, played or discarded in the last state stopped flying ([param moves]:
## [code]{"card", "from", "to"}[/code] per card; see [member card_motion]).
signal motion_finished(moves: Array)

const AimDisplay := preload("res://addons/pybridge_targeting/drawing/pybridge_aim_display.gd")
const BattleAim := preload("res://addons/pybridge_targeting/battle/pybridge_battle_aim.gd")
const BattleInput := preload("res://addons/pybridge_targeting/battle/pybridge_battle_input.gd")
const Opening := preload("res://addons/pybridge_targeting/battle/pybridge_battle_opening.gd")
const BattleSetup := preload("res://addons/pybridge_targeting/battle/pybridge_battle_setup.gd")
const BattleStage := preload("res://addons/pybridge_targeting/battle/pybridge_battle_stage.gd")
const ChoicePrompt := preload("res://addons/pybridge_targeting/battle/pybridge_choice_prompt.gd")
const CutFlow := preload("res://addons/pybridge_targeting/battle/pybridge_cut_flow.gd")
const PilePicker := preload("res://addons/pybridge_targeting/battle/pybridge_pile_picker.gd")
const HandOrder := preload("res://addons/pybridge_targeting/battle/pybridge_hand_order.gd")
const Relay := preload("res://addons/pybridge_targeting/battle/pybridge_relay.gd")
const TargetMarks := preload("res://addons/pybridge_targeting/drawing/pybridge_target_marks.gd")
const TurnPlayback := preload("res://addons/pybridge_targeting/battle/pybridge_turn_playback.gd")
const Wire := preload("res://addons/pybridge_targeting/transport/pybridge_wire.gd")
## The theme type of the view's own items.
const THEME_TYPE := &"PyBridgeBattleView"

## The runtime connection. Without one the view looks for the [code]Bridge[/code] autoload.
@export var bridge: PyBridgeClient:
	set(value):
		bridge = value
		update_configuration_warnings()
## Where the player's units are laid out.
@export var party_area: Control:
	set(value):
		party_area = value
		update_configuration_warnings()
## Where the enemy units are laid out.
@export var enemy_area: Control:
	set(value):
		enemy_area = value
		update_configuration_warnings()
## Where the hand is laid out.
@export var hand_area: Control:
	set(value):
		hand_area = value
		update_configuration_warnings()
## Where cards without a target are released to be played (by default all above the hand).
@export var play_area: Control
## Where the Cut is shown; with one, cards are activated onto the Cut (the other side may
## respond before they resolve) and the player passes; without one, a card resolves at once.
@export var cut_view: PyBridgeCutView
## Play inside the editor too (the Workshop's sandbox on the editor's main screen); otherwise
## the view stays inert in the editor.
@export var live_in_editor: bool = false
## A battle document to open when the view is ready (see [member open_on_ready]).
@export_file("*.json") var battle_file: String = "":
	set(value):
		battle_file = value
		update_configuration_warnings()
## A battle Resource to open when the view is ready, in place of [member battle_file].
@export var battle_resource: PyBridgeBattleResource = null
## The card libraries [member battle_resource] opens with (a [code].json[/code] library shows
## as one in the editor, through the addon's import plugin).
@export var battle_libraries: Array[PyBridgeLibraryResource] = []
## Open [member battle_resource] or [member battle_file] once the scene is ready (after every
## [method Node._ready]).
@export var open_on_ready: bool = true:
	set(value):
		open_on_ready = value
		update_configuration_warnings()
## In a battle with two card-playing sides ([code]sides[/code]), the team this view plays for
## ([code]player[/code] or [code]enemy[/code]): its hand is shown, and plays, passes and turn
## ends name it as their [code]side[/code] (the runtime refuses what that side may not do
## now). Empty: the hand of the side whose turn it is, and requests act for whoever acts now.
## Change it with [method show_side].
@export var side: String = ""

@export_group("Re-skin")
## The game's card scene (a [Control] root with [code]show_card(data)[/code]), or the built-in.
@export var card_scene: PackedScene
## The game's unit scene (its root a [Control] with [code]show_unit(data)[/code]); empty: the
## built-in [PyBridgeUnitView].
@export var unit_scene: PackedScene
## Portraits by unit id ([Texture2D]); they win over the data's [code]art[/code] paths.
@export var unit_art: Dictionary = {}
## Card art by card definition id ([Texture2D]); it wins over the data's [code]art[/code].
@export var card_art: Dictionary = {}

@export_group("Playback")
## Play the enemy turn back step by step (else it shows at once).
@export var play_back_turns: bool = true
## Seconds each step of the playback stays on screen.
@export_range(0.05, 3.0) var step_seconds: float = 0.45
## Seconds a step that shows something of the Cut stays (an entry resolving, the range it
## collects again, a lost target): quick by default, so a long chain does not drag; raise it
## for a slower, more deliberate Cut.
@export_range(0.05, 5.0) var cut_step_seconds: float = 0.3
## Seconds the view waits for [member playback_handler] on one step; then it goes on with
## a warning (a handler that failed or waits for something that never comes).
@export_range(0.1, 60.0, 0.1, "or_greater") var playback_handler_timeout: float = 10.0

## The battle state (docs/format.md), as the runtime last sent it.
var state: Dictionary = {}
## Unit id -> its view (a [PyBridgeUnitView] or the game's unit scene).
var unit_views: Dictionary:
	get:
		return _stage.unit_views
## The hand, left to right.
var hand_slots: Array[PyBridgeHandSlot]:
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
## The player's order of the hand (drag a card along the hand, or the move-card actions).
var hand_order: HandOrder = null
## The cards flying between the hand and the piles (its [code]pile_anchors[/code] say where
## the game's pile counters are).
var card_motion: RefCounted:
	get:
		return _stage.motion
## What the view draws for the aim: the arrow, the lit units, the preview marks, the tooltip.
var display: AimDisplay = null
## The Cut and the choices made one unit or card at a time.
var cut_flow: CutFlow = null
## The runtime's last [code]cut[/code] answer (with a [member cut_view]).
var cut: Dictionary:
	get:
		return cut_flow.cut
## What the views are given, read from the state (see [PyBridgeBattleData]).
var data: PyBridgeBattleData:
	get:
		return _data
## The markers over the units: numbered picks, the Cut's targets, lost targets.
var target_marks: TargetMarks = null
## What a choice of units asks while it is made.
var choice_prompt: ChoicePrompt = null
## The picker of a choice of cards.
var pile_picker: PilePicker = null
## The game's art hook, [code]func(kind: String, id: String, data: Dictionary) -> Texture2D[/code]
## ([param kind] [code]"unit"[/code] or [code]"card"[/code]); null answers fall through to
## [member unit_art], [member card_art] and the data.
var art_provider: Callable
## The game's playback hook, [code]func(step: Dictionary) -> Variant[/code], called as each
## step of a playback is shown (see [signal playback_step_shown] for [param step]): each
## enemy move and line of the enemy turn ([code]op[/code] [code]end_turn[/code]), each step
## of a Cut resolution ([code]pass[/code]), and the events of a play ([code]play[/code], or
## [code]activate[/code] onto the Cut), which then play back step by step too. The view awaits
## what it returns: a coroutine or a returned [Signal] holds the step until it is done, and
## the view goes on when both it and the step's own pause are over (a play's steps have no
## pause). Without a handler the fixed pauses alone pace the playback and a play shows at
## once, as before. A skip stops the waiting; a handler that has not finished after
## [member playback_handler_timeout] is left running and the view goes on with a warning.
## With [member play_back_turns] off nothing is played back and the handler is not called.
var playback_handler: Callable

var _stage: BattleStage = null
var _input_handler: BattleInput = null
var _playback: TurnPlayback = null
var _data: PyBridgeBattleData = PyBridgeBattleData.new()
var _busy: int = 0
var _generation: int = 0


func _init() -> void:
	# The view reads the pointer in _unhandled_input: it must not take the events itself.
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	aim = BattleAim.new(self)
	_stage = BattleStage.new(self)
	_input_handler = BattleInput.new(self)
	cut_flow = CutFlow.new(self)
	display = AimDisplay.new(self, _stage)
	hand_order = HandOrder.new(self, _stage)
	hand_order.hand_reordered.connect(_layout.unbind(1))
	for part: Object in [aim, cut_flow, display, hand_order, _stage.motion]:  # they tell
		Relay.relay(part, self)


func _ready() -> void:
	if not _inert() and BattleSetup.start(self):
		resized.connect(_layout)


func _notification(what: int) -> void:
	if what == NOTIFICATION_THEME_CHANGED and display.arrow != null:
		display.arrow.apply_theme(self)
		_layout()


func _get_configuration_warnings() -> PackedStringArray:
	return BattleSetup.warnings(self)


func _unhandled_input(event: InputEvent) -> void:
	if _inert() or state.is_empty() or not is_visible_in_tree():
		return
	if is_battle_over() and _playback == null:
		return
	if _input_handler.handle(event):
		get_viewport().set_input_as_handled()


# -- opening, plays and turns (coroutines: over stdio they wait for the runtime) ------------


## Opens the battle document [param document], with the card libraries [param libraries]
## (library documents) whose cards its piles may name; false when the runtime refused it.
func open_battle(document: Dictionary, libraries: Array[Dictionary] = []) -> bool:
	var text := JSON.stringify(PyBridgeClient.integral(document))
	return await open_battle_json(text, Wire.texts(libraries))


## Opens a battle document from its JSON text, with the card libraries whose texts are
## [param libraries]; false when the runtime refused it.
func open_battle_json(text: String, libraries := PackedStringArray()) -> bool:
	if bridge == null:
		return false
	_busy += 1
	var opened: Dictionary = await bridge.ask_open(text, libraries)
	if schema.is_empty() and not opened.is_empty():
		schema = await bridge.ask("schema")
		keywords = schema.get("keywords", {})
	_busy -= 1
	if opened.is_empty():
		return false
	cut_flow.drop_choices()
	_stage.clear()
	aim.forget_hand()
	await apply_state(opened)
	battle_opened.emit(state)
	return true


## Opens the battle Resource [param battle] with the card libraries [param libraries] (as
## Resources too), written as the runtime's documents; false when the runtime refused it.
func open_battle_resource(
	battle: PyBridgeBattleResource, libraries: Array[PyBridgeLibraryResource] = []
) -> bool:
	return await open_battle_json(battle.to_json(), Opening.resource_texts(libraries))


## Opens the battle document stored at [param path] ([code]res://[/code] or a file path).
func open_battle_file(path: String) -> bool:
	var text := Opening.read_file(path)
	if text.is_empty():
		return false
	return await open_battle_json(text)


## Shows [param new_state] (a battle state from the runtime) once the runtime said what each
## card of its hand targets.
func apply_state(new_state: Dictionary) -> void:
	_generation += 1
	var generation := _generation
	var asked := Opening.state_requests(new_state, side, bridge.session, cut_view != null)
	_busy += 1
	var answers: Array[Dictionary] = await bridge.ask_all(asked)
	_busy -= 1
	if generation != _generation:
		return  # a newer state arrived while these answers were on their way
	state = new_state
	card_targets.clear()
	card_targets.merge(Opening.targets_by_card(asked, answers))
	_data = PyBridgeBattleData.new(state, keywords, _given_art, side)
	display.forget_previews()
	_stage.stop_lunges()
	_stage.sync_units(_data)
	if cut_view != null:
		cut_flow.cut = answers[answers.size() - 1]  # the hand's cards read it
	if aim.hovered in _stage.sync_hand(_data):
		aim.hovered = null
	if cut_view != null:
		cut_flow.show_cut(cut_flow.cut)
	_layout()
	display.refresh_highlight()
	display.refresh_tooltip()
	state_changed.emit(state)


## Plays [param card_id] at [param target_id] ([code]""[/code] for modes without a target).
func play_card(card_id: String, target_id: String = "") -> bool:
	var ids := PackedStringArray() if target_id.is_empty() else PackedStringArray([target_id])
	return await play_card_at(card_id, ids)


## Plays [param card_id] at [param target_ids] (the units it takes, in picking order; none
## for a card without an arrow; for a card that chooses as it resolves and is played at once,
## its choice). With a [member cut_view] the card is activated onto the Cut instead
## ([signal card_activated]); it resolves when the players pass.
func play_card_at(card_id: String, target_ids: PackedStringArray) -> bool:
	if _busy > 0:
		return false
	_stage.motion.playing(card_id, Array(target_ids))
	if aim.is_aiming():
		aim.finish()
	if cut_view != null:
		return await cut_flow.activate(card_id, target_ids)
	var fields := request_fields({"card": card_id})
	if not target_ids.is_empty():
		fields["target"] = Array(target_ids)
	_busy += 1
	var result: Dictionary = await cut_flow.ask_answering("play", fields)
	if result.is_empty():
		_busy -= 1
		if bridge.last_error.get("code") != "choice_cancelled":  # a cancel refuses nothing
			card_refused.emit(card_id, str(bridge.last_error.get("message", tr("refused"))))
		display.refresh_highlight()
		return false
	await settle_play(result, "play")
	_busy -= 1
	card_played.emit(card_id, target_ids[0] if not target_ids.is_empty() else "", result)
	return true


## Passes on the Cut (a coroutine; see [method CutFlow.pass_on]). False when nothing
## was passed (the Cut is empty, a choice was cancelled, or the runtime refused).
func pass_priority() -> bool:
	return await cut_flow.pass_on()


## Responds on the Cut (see [method CutFlow.respond]); false when no card can.
func respond() -> bool:
	return cut_flow.respond()


## Ends the turn: the runtime discards, lets the enemies act and deals a new hand; the view
## plays the enemy turn back (see [member play_back_turns]), then settles on the new state.
func end_turn() -> bool:
	if is_battle_over() or _busy > 0:
		return false
	if cut_flow.refuses_end_turn():
		return false
	aim.cancel()
	_busy += 1
	var result: Dictionary = await bridge.ask("end_turn", request_fields())
	_busy -= 1
	if result.is_empty():
		request_refused.emit("end_turn", str(bridge.last_error.get("message", "")))
		return false
	turn_ended.emit(result)
	await play_back(result, "end_turn")
	turn_settled.emit(state)
	return true


## Shows the hand of [param team] (see [member side]) and plays for it from now on, once the
## runtime said what its cards target (a coroutine; a hot-seat game calls it when the device
## has changed hands). Any aim is put back first.
func show_side(team: String) -> void:
	aim.cancel()
	side = team
	if not state.is_empty():
		await apply_state(state)


## The fields of a request on this view's session that acts for its [member side]:
## [param fields] with [code]session[/code], and [code]side[/code] in a battle with
## [code]sides[/code] when [member side] is set.
func request_fields(fields: Dictionary = {}) -> Dictionary:
	var asked := fields.duplicate()
	asked["session"] = bridge.session
	if not side.is_empty() and state.has("sides"):
		asked["side"] = side
	return asked


## Plays [param result] (an [code]end_turn[/code] or [code]pass[/code] answer, or another
## request's named by [param op]) back step by step (see [member play_back_turns] and
## [member playback_handler]), then settles on its state (a coroutine).
func play_back(result: Dictionary, op: String = "") -> void:
	_busy += 1
	_playback = TurnPlayback.new(self, result, op)
	Relay.relay(_playback, self)
	await _playback.play()
	_playback = null
	await apply_state(result.get("state", {}))
	_busy -= 1


## Shows [param result], the answer to a play ([param op] [code]play[/code] or
## [code]activate[/code]): step by step through [member playback_handler] when the game set
## one, else at once (a coroutine).
func settle_play(result: Dictionary, op: String) -> void:
	if playback_handler.is_valid() and play_back_turns:
		await play_back(result, op)
	else:
		await apply_state(result.get("state", {}))


## Shows one step of a playback (called by TurnPlayback); true when it showed
## something of the Cut (an entry resolving, its range, a lost target), which stays a while.
func show_step(line: Dictionary, events: Array) -> bool:
	var marked := cut_flow.show_step(line, events)
	turn_step_shown.emit(line, events)
	return marked


## Shows the rest of the turn's playback at once.
func skip_playback() -> void:
	if _playback != null:
		_playback.skip()


## Whether a turn is being played back.
func is_playing_back() -> bool:
	return _playback != null


## Whether the playback waits only for [member playback_handler]: the step shown now would
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
	return state.get("result") != null and str(state.get("result", "")) != ""


# -- what the runtime answered, and where things are --------------------------------------


## The runtime's [code]targets[/code] answer for [param card_id] (empty when unknown).
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
func hand_slot(card_id: String) -> PyBridgeHandSlot:
	return _stage.hand_slot(card_id)


## The view of [param card_id] in the hand, or null.
func card_view(card_id: String) -> Control:
	var slot := hand_slot(card_id)
	return slot.view if slot != null else null


## The hand card under [param point] (global): the later card wins where two overlap, and a
## raised card also owns the space it is raised into.
func card_at(point: Vector2) -> PyBridgeHandSlot:
	return _stage.card_at(point, [aim.hovered, aim.card])


## The id of the unit under [param point] (global), or [code]""[/code].
func unit_at(point: Vector2) -> String:
	return _stage.unit_at(point)


## Whether [param point] (global) is where a card without a target is played.
func in_play_area(point: Vector2) -> bool:
	return play_rect().has_point(point)


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
## [method PyBridgeBattleData.unit_data]).
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
	var dragged: PyBridgeHandSlot = null
	if aim.state == BattleAim.State.DRAGGING and not aim.needs_unit():
		dragged = aim.card  # it follows the pointer
	_stage.layout_hand([aim.hovered, aim.card], dragged)


## Where a card without a target is played (global): [member play_area], else everything
## above the hand.
func play_rect() -> Rect2:
	if play_area != null:
		return play_area.get_global_rect()
	var rect := get_global_rect()
	if hand_area != null:
		rect.size.y = hand_area.get_global_rect().position.y - rect.position.y
	return rect


## The tooltip of the hand's card [param card_id]: its whole text, its keywords, and why it
## cannot be played now.
func card_tip(card_id: String) -> Dictionary:
	return _data.card_tip(card_data(card_id))


# -- internals ------------------------------------------------------------------------------


func _layout() -> void:
	if state.is_empty() or party_area == null or enemy_area == null or hand_area == null:
		return
	_stage.layout_units(state.get("units", []))
	layout_hand()
	layout_changed.emit()


func _given_art(kind: String, id: String, data: Dictionary) -> Variant:
	if art_provider.is_valid():
		var given: Variant = art_provider.call(kind, id, data)
		if given is Texture2D:
			return given
	return (unit_art if kind == "unit" else card_art).get(id)


func _inert() -> bool:
	return Engine.is_editor_hint() and not live_in_editor
