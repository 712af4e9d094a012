@tool
@icon("res://addons/pybridge_targeting/icons/pybridge_battle_view.svg")
class_name PyBridgeBattleView
extends "res://addons/pybridge_targeting/battle/pybridge_battle_view_base.gd"
## The targeting half of a card battle screen, driven by the Python runtime.
##
## It shows the units of a battle in [member party_area] and [member enemy_area] and the hand
## in [member hand_area], and turns the pointer and the input actions into plays ([member aim]):
## [br]- Hover a card: it rises, grows and shows its whole text; exactly the units the runtime
## says it affects light up (nothing when it cannot be played now).
## [br]- Drag a card whose mode requires a target: an aiming arrow follows the pointer,
## snaps to a valid unit and changes colour over an invalid unit or empty space; released on
## a valid unit the card is played, anywhere else the aim is cancelled.
## [br]- Drag any other card into the [member play_area] and release it to play it.
## [br]- Or click a card, then click a unit (or the play area); or the keys.
## [br][br]
## A card that takes several units picks them one at a time, numbered on the units
## ([PyBridge.Choice], [member target_marks]); an "up to" card may be confirmed early
## ([member choice_prompt]); a card that chooses cards opens the [member pile_picker]. While
## aiming, each unit shows what the play would do to it (the runtime's preview marks). With a
## [member cut_view], plays go on the Cut ([member cut_flow]): the other side may respond
## before they resolve, and each resolution plays back on the [PyBridgeCutView]. When the
## turn ends, the enemy turn plays back step by step; a click or a key shows the rest at once.
## The game's [member step_handler] may hold each step (an enemy move, a Cut resolution, a
## play's events) until its own animation is over.
## All legality and every word come from the runtime through [member bridge], asked with
## [method PyBridgeClient.ask], so no answer holds up a frame. [br][br]
## Re-skin: [member card_scene] and [member unit_scene] take the game's own scenes; the
## built-in views read the theme items of [PyBridge.ViewTheme]; art comes from the data's
## [code]art[/code] paths, [member unit_art], [member card_art] or [member art_provider].
## [br][br]
## The view's signals, its members and the questions it answers about the screen are declared
## in its base script (the help's "Inherits" line leads there); they are the view's own API.

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
## Seconds the view waits for [member step_handler] on one step; then it goes on with
## a warning (a handler that failed or waits for something that never comes).
@export_range(0.1, 60.0, 0.1, "or_greater") var playback_handler_timeout: float = 10.0


func _init() -> void:
	# The view reads the pointer in _unhandled_input: it must not take the events itself.
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	_stage = BattleStage.new(self)
	cut_flow = Wiring.cut_flow(self, _stage)
	display = Wiring.display(self, _stage)
	aim = Wiring.aim(self, _stage)
	hand_order = HandOrder.new(self, _stage)
	hand_order.hand_reordered.connect(_layout.unbind(1))
	_input_handler = Wiring.input(self)
	_twins = TypedTwins.new(self)
	for part: Object in [aim, cut_flow, display, hand_order, _stage.motion, _twins]:  # they tell
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
	battle_state = PyBridge.BattleState.from(state)
	card_targets.clear()
	card_targets.merge(Opening.targets_by_card(asked, answers))
	_data = BattleData.new(state, keywords, _given_art, side)
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
	battle_state_changed.emit(battle_state)


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
			TypedTwins.card_error(self, card_id, bridge.last_error, tr("refused"))
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
		TypedTwins.request_error(self, "end_turn", bridge.last_error)
		return false
	turn_ended.emit(result)
	await play_back(result, "end_turn")
	turn_settled.emit(state)
	return true


## Shows [param pile] of [param team] (empty: this view's side) in the pile viewer as the
## runtime answers it to that side (a coroutine); false when the runtime refused.
func show_pile(pile: String, team: String = "") -> bool:
	return await pile_viewer.open(pile, team)


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
## [member step_handler]), then settles on its state (a coroutine).
func play_back(result: Dictionary, op: String = "") -> void:
	_busy += 1
	_playback = Wiring.playback(self, result, op)
	await _playback.play()
	_playback = null
	await apply_state(result.get("state", {}))
	_busy -= 1


## Shows [param result], the answer to a play ([param op] [code]play[/code] or
## [code]activate[/code]): step by step through [member step_handler] when the game set
## one, else at once (a coroutine).
func settle_play(result: Dictionary, op: String) -> void:
	if has_playback_hook() and play_back_turns:
		await play_back(result, op)
	else:
		await apply_state(result.get("state", {}))


## Shows one step of a playback (called by TurnPlayback); true when it showed
## something of the Cut (an entry resolving, its range, a lost target), which stays a while.
func show_step(line: Dictionary, events: Array) -> bool:
	var marked := cut_flow.show_step(line, events)
	turn_step_shown.emit(line, events)
	return marked


# -- where a card without a target is played ---------------------------------------------


## Whether [param point] (global) is where a card without a target is played.
func in_play_area(point: Vector2) -> bool:
	return play_rect().has_point(point)


## Where a card without a target is played (global): [member play_area], else everything
## above the hand.
func play_rect() -> Rect2:
	if play_area != null:
		return play_area.get_global_rect()
	var rect := get_global_rect()
	if hand_area != null:
		rect.size.y = hand_area.get_global_rect().position.y - rect.position.y
	return rect


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
