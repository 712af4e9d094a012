@tool
@icon("res://addons/pybridge_targeting/icons/pybridge_battle_view.svg")
class_name PyBridgeBattleView
extends Control
## The targeting half of a card battle screen, driven by the Python runtime.
##
## It shows the units of a battle in [member party_area] and [member enemy_area] and the hand
## in [member hand_area], and turns the pointer and the input actions into plays (see
## [PyBridgeBattleAim] and [PyBridgeBattleInput]):
## [br]- Hover a card: it rises, grows and shows its whole text; exactly the units the runtime
## says it affects light up (nothing when it cannot be played now).
## [br]- Drag a card whose mode requires a target: a [PyBridgeAimArrow] follows the pointer,
## snaps to a valid unit and changes colour over an invalid unit or empty space; released on
## a valid unit the card is played, anywhere else the aim is cancelled.
## [br]- Drag any other card into the [member play_area] and release it to play it.
## [br]- Or click a card, then click a unit (or the play area); or the keys.
## [br][br]
## While aiming, each unit shows what the play would do to it (the runtime's preview marks).
## When the turn ends, the enemy turn plays back step by step ([PyBridgeTurnPlayback]); a
## click or a key shows the rest at once. All legality and every word come from the runtime
## through [member bridge], asked with [method PyBridgeClient.ask], so no answer holds up a
## frame. [br][br]
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
## The lit units changed: [param unit_ids] for [param card_id] ([code]""[/code]: nothing lit).
signal highlight_changed(card_id: String, unit_ids: PackedStringArray)
## The tooltip changed: [param title] and [param text] ([code]""[/code] when hidden).
signal tooltip_changed(title: String, text: String)

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
## Where cards without a target are released to be played; by default everything above the
## hand.
@export var play_area: Control
## Play inside the editor too (the Workshop's sandbox on the editor's main screen); otherwise
## the view stays inert in the editor.
@export var live_in_editor: bool = false
## A battle document to open when the view is ready (see [member open_on_ready]).
@export_file("*.json") var battle_file: String = "":
	set(value):
		battle_file = value
		update_configuration_warnings()
## Open [member battle_file] once the scene is ready (after every [method Node._ready]).
@export var open_on_ready: bool = true:
	set(value):
		open_on_ready = value
		update_configuration_warnings()

@export_group("Re-skin")
## The game's card scene (its root a [Control] with [code]show_card(data)[/code]); empty:
## the built-in [PyBridgeCardView].
@export var card_scene: PackedScene
## The game's unit scene (its root a [Control] with [code]show_unit(data)[/code]); empty: the
## built-in [PyBridgeUnitView].
@export var unit_scene: PackedScene
## Portraits by unit id ([Texture2D]); they win over the data's [code]art[/code] paths.
@export var unit_art: Dictionary = {}
## Card art by card definition id ([Texture2D]); it wins over the data's [code]art[/code].
@export var card_art: Dictionary = {}

@export_group("Enemy turn")
## Play the enemy turn back step by step (else it shows at once).
@export var play_back_turns: bool = true
## Seconds each step of the playback stays on screen.
@export_range(0.05, 3.0) var step_seconds: float = 0.45

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
var lit_units: PackedStringArray = PackedStringArray()
## The card whose units are lit ([code]""[/code] when none).
var lit_card: String = ""
## Keyword -> the text a player reads about it (the runtime's [code]schema[/code]).
var keywords: Dictionary = {}
## The aim: its state, the aimed and the hovered card.
var aim: PyBridgeBattleAim = null
## The game's art hook, [code]func(kind: String, id: String, data: Dictionary) -> Texture2D[/code]
## ([param kind] [code]"unit"[/code] or [code]"card"[/code]); null answers fall through to
## [member unit_art], [member card_art] and the data.
var art_provider: Callable

var _stage: PyBridgeBattleStage = null
var _input_handler: PyBridgeBattleInput = null
var _arrow: PyBridgeAimArrow = null
var _tooltip: PyBridgeTooltip = null
var _marks: PyBridgePreviewMarks = PyBridgePreviewMarks.new()
var _playback: PyBridgeTurnPlayback = null
var _data: PyBridgeBattleData = PyBridgeBattleData.new()
var _zone_active: bool = false
var _busy: int = 0
var _generation: int = 0


func _init() -> void:
	# The view reads the pointer in _unhandled_input: it must not take the events itself.
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	aim = PyBridgeBattleAim.new(self)
	_stage = PyBridgeBattleStage.new(self)
	_input_handler = PyBridgeBattleInput.new(self)


func _ready() -> void:
	if _inert():
		return
	PyBridgeBattleInput.register_defaults()
	_arrow = PyBridgeAimArrow.new()
	_arrow.name = "AimArrow"
	add_child(_arrow)
	_arrow.apply_theme(self)
	_tooltip = PyBridgeTooltip.new()
	_tooltip.name = "Tooltip"
	add_child(_tooltip)
	if bridge == null:
		bridge = get_node_or_null("/root/Bridge") as PyBridgeClient
	if bridge == null:
		push_error("PyBridgeBattleView: no bridge: assign a PyBridgeClient or enable the plugin")
		return
	if party_area == null or enemy_area == null or hand_area == null:
		push_error("PyBridgeBattleView: assign party_area, enemy_area and hand_area")
		return
	resized.connect(_layout)
	var blocked := PyBridgeBattleInput.blocked_mouse_warning(self)
	if not blocked.is_empty():
		push_warning("PyBridgeBattleView: " + blocked)
	if open_on_ready and not battle_file.is_empty():
		# After the parents' _ready(), so that they have connected to battle_opened.
		open_battle_file.call_deferred(battle_file)


func _notification(what: int) -> void:
	if what == NOTIFICATION_THEME_CHANGED and _arrow != null:
		_arrow.apply_theme(self)
		_layout()


func _get_configuration_warnings() -> PackedStringArray:
	var warnings := PackedStringArray()
	if bridge == null and not ProjectSettings.has_setting("autoload/Bridge"):
		warnings.append(
			(
				"No bridge: assign a PyBridgeClient node to 'bridge', or enable the "
				+ "PyBridge Targeting plugin, which adds the Bridge autoload."
			)
		)
	if party_area == null or enemy_area == null or hand_area == null:
		warnings.append(
			(
				"Assign 'party_area', 'enemy_area' and 'hand_area': the Controls the "
				+ "units and the hand are laid out in."
			)
		)
	if open_on_ready and battle_file.is_empty():
		warnings.append(
			(
				"'open_on_ready' is on but 'battle_file' is empty: set a battle "
				+ "document, or turn it off and call open_battle() yourself."
			)
		)
	elif not battle_file.is_empty() and not FileAccess.file_exists(battle_file):
		warnings.append("'battle_file' %s does not exist." % battle_file)
	var blocked := PyBridgeBattleInput.blocked_mouse_warning(self)
	if not blocked.is_empty():
		warnings.append(blocked)
	return warnings


func _unhandled_input(event: InputEvent) -> void:
	if _inert() or state.is_empty() or not is_visible_in_tree():
		return
	if is_battle_over() and _playback == null:
		return
	if _input_handler.handle(event):
		get_viewport().set_input_as_handled()


func _draw() -> void:
	if _inert() or not _zone_active:
		return
	var zone := _play_rect()
	var local := Rect2(get_global_transform().affine_inverse() * zone.position, zone.size)
	var color := PyBridgeViewTheme.color(self, &"play_area", THEME_TYPE)
	PyBridgeViewDrawing.round_rect(
		self, local.grow(-6), Color(color, 0.07), 18, Color(color, 0.6), 3
	)
	var dragging := aim.state == PyBridgeBattleAim.State.DRAGGING
	var text := tr("Release to play") if dragging else tr("Click here to play")
	var font_size := PyBridgeViewTheme.font_size(self, &"play_hint_size", THEME_TYPE)
	PyBridgeViewDrawing.centered_text(
		self,
		get_theme_default_font(),
		text,
		Vector2(local.get_center().x, local.position.y + 40),
		font_size,
		Color(color, 0.9),
		0,
		Color(0, 0, 0, 0)
	)


# -- opening, plays and turns (coroutines: over stdio they wait for the runtime) ------------


## Opens the battle document [param document]; false when the runtime refused it.
func open_battle(document: Dictionary) -> bool:
	return await open_battle_json(JSON.stringify(PyBridgeClient.integral(document)))


## Opens a battle document from its JSON text; false when the runtime refused it.
func open_battle_json(text: String) -> bool:
	if bridge == null:
		return false
	_busy += 1
	var opened: Dictionary = await bridge.ask_open(text)
	if keywords.is_empty() and not opened.is_empty():
		keywords = (await bridge.ask("schema")).get("keywords", {})
	_busy -= 1
	if opened.is_empty():
		return false
	if aim.card != null:
		aim.finish()
	_stage.clear()
	aim.forget_hand()
	await apply_state(opened)
	battle_opened.emit(state)
	return true


## Opens the battle document stored at [param path] ([code]res://[/code] or a file path).
func open_battle_file(path: String) -> bool:
	var text := FileAccess.get_file_as_string(path)
	if text.is_empty():
		push_error(
			(
				"PyBridgeBattleView: cannot read the battle document %s (%s)"
				% [path, error_string(FileAccess.get_open_error())]
			)
		)
		return false
	return await open_battle_json(text)


## Shows [param new_state] (a battle state from the runtime) once the runtime said what each
## card of its hand targets.
func apply_state(new_state: Dictionary) -> void:
	_generation += 1
	var generation := _generation
	var asked := []
	var over: Variant = new_state.get("result")
	if over == null or str(over) == "":
		for instance: Variant in new_state.get("piles", {}).get("hand", []):
			asked.append(["targets", {"session": bridge.session, "card": str(instance.get("id"))}])
	_busy += 1
	var answers: Array[Dictionary] = await bridge.ask_all(asked)
	_busy -= 1
	if generation != _generation:
		return  # a newer state arrived while these answers were on their way
	state = new_state
	card_targets.clear()
	for i in asked.size():
		card_targets[asked[i][1]["card"]] = answers[i]
	_data = PyBridgeBattleData.new(state, keywords, _given_art)
	_marks.clear()
	_stage.stop_lunges()
	_stage.sync_units(_data)
	if aim.hovered in _stage.sync_hand(_data):
		aim.hovered = null
	_layout()
	_refresh_highlight()
	_refresh_tooltip()
	state_changed.emit(state)


## Plays [param card_id] at [param target_id] ([code]""[/code] for modes without a target).
func play_card(card_id: String, target_id: String = "") -> bool:
	if _busy > 0:
		return false
	if aim.card != null:
		aim.finish()
	var fields := {"session": bridge.session, "card": card_id}
	if not target_id.is_empty():
		fields["target"] = target_id
	_busy += 1
	var result: Dictionary = await bridge.ask("play", fields)
	if result.is_empty():
		_busy -= 1
		card_refused.emit(card_id, str(bridge.last_error.get("message", tr("refused"))))
		_refresh_highlight()
		return false
	await apply_state(result.get("state", {}))
	_busy -= 1
	card_played.emit(card_id, target_id, result)
	return true


## Ends the turn: the runtime discards, lets the enemies act and deals a new hand; the view
## plays the enemy turn back (see [member play_back_turns]), then settles on the new state.
func end_turn() -> bool:
	if is_battle_over() or _busy > 0:
		return false
	aim.cancel()
	_busy += 1
	var result: Dictionary = await bridge.ask("end_turn", {"session": bridge.session})
	if result.is_empty():
		_busy -= 1
		return false
	turn_ended.emit(result)
	_playback = PyBridgeTurnPlayback.new(self, result)
	_playback.step_seconds = step_seconds
	_playback.quiet_seconds = step_seconds * 0.4
	if not play_back_turns:
		_playback.skip()
	_set_lit("", PackedStringArray())
	_refresh_tooltip()
	hand_area.modulate.a = 0.4
	await _playback.run()
	_playback = null
	hand_area.modulate.a = 1.0
	await apply_state(result.get("state", {}))
	_busy -= 1
	turn_settled.emit(state)
	return true


## Shows the rest of the turn's playback at once.
func skip_playback() -> void:
	if _playback != null:
		_playback.skip()


## Whether a turn is being played back.
func is_playing_back() -> bool:
	return _playback != null


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
	if not bool(info.get("playable", false)):
		return PackedStringArray()
	var key := "candidates" if bool(info.get("requires_target", false)) else "affects"
	return PackedStringArray(info.get(key, info.get("range", [])))


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
	return _play_rect().has_point(point)


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
	return _data.card_data(_data.hand_instance(card_id), targets_of(card_id))


## Shows [param unit] (a unit of the state, or one the playback changed) on its view.
func show_unit_data(unit: Dictionary) -> void:
	var view: Control = unit_views.get(str(unit.get("id", "")))
	if view != null:
		view.call(&"show_unit", _data.unit_data(unit))


## Moves [param unit_id]'s view a step towards [param target_id]'s and back (an enemy acts).
func lunge(unit_id: String, target_id: String) -> void:
	_stage.lunge(unit_id, target_id)


# -- what the aim and the input ask the view to draw --------------------------------------


## The aim started on [param slot] (called by [PyBridgeBattleAim]).
func aim_began(slot: PyBridgeHandSlot) -> void:
	slot.set_selected(true)
	_layout_hand()
	_refresh_highlight()
	_refresh_tooltip()
	aim_started.emit(slot.card_id)


## The aim at [param slot] ended (called by [PyBridgeBattleAim]).
func aim_ended(slot: PyBridgeHandSlot) -> void:
	if slot != null:
		slot.set_selected(false)
	_arrow.hide()
	_zone_active = false
	_marks.forget_shown()
	queue_redraw()
	_stage.mark_target("", PyBridgeUnitView.TargetLook.NONE)
	_stage.show_marks({})
	_layout_hand()
	_refresh_highlight()
	_refresh_tooltip()


## The hovered card changed (called by [PyBridgeBattleAim]).
func hover_changed() -> void:
	_layout_hand()
	_refresh_highlight()
	_refresh_tooltip()


## The pointer moved to [param point] (called by [PyBridgeBattleInput]): tooltips follow.
func pointer_moved(_point: Vector2) -> void:
	_refresh_tooltip()


## Draws the aim as it is now: the arrow and the unit under it, or the held card and the play
## area, and the preview of the play (called by [PyBridgeBattleAim]).
func show_aim() -> void:
	var slot := aim.card
	if slot == null:
		return
	var info := targets_of(slot.card_id)
	var target := aim.aimed_unit()
	if aim.needs_unit():
		var valid: bool = target != "" and target in info.get("candidates", [])
		var look := PyBridgeAimArrow.Look.EMPTY
		var unit_look := PyBridgeUnitView.TargetLook.NONE
		var end := aim.pointer
		if target != "":
			look = PyBridgeAimArrow.Look.VALID if valid else PyBridgeAimArrow.Look.INVALID
			unit_look = (
				PyBridgeUnitView.TargetLook.VALID if valid else PyBridgeUnitView.TargetLook.INVALID
			)
			if valid:
				end = PyBridgeBattleStage.target_point_of(unit_views[target])
		_stage.mark_target(target, unit_look)
		if aim.state == PyBridgeBattleAim.State.PRESSED:
			_arrow.hide()
		else:
			_arrow.aim(slot.arrow_origin(), end, look)
		_show_preview(slot.card_id, target if valid else "", not valid)
		return
	_stage.mark_target("", PyBridgeUnitView.TargetLook.NONE)
	_arrow.hide()
	if aim.state == PyBridgeBattleAim.State.DRAGGING:
		slot.follow(aim.pointer)
		_layout_hand()
	_zone_active = aim.state in [PyBridgeBattleAim.State.DRAGGING, PyBridgeBattleAim.State.ARMED]
	queue_redraw()
	var over_zone := in_play_area(aim.pointer) or aim.state == PyBridgeBattleAim.State.ARMED
	_show_preview(slot.card_id, "", not over_zone)


# -- internals ------------------------------------------------------------------------------


func _layout() -> void:
	if state.is_empty() or party_area == null or enemy_area == null or hand_area == null:
		return
	_stage.layout_units(state.get("units", []))
	_layout_hand()
	layout_changed.emit()


func _layout_hand() -> void:
	var dragged: PyBridgeHandSlot = null
	if aim.state == PyBridgeBattleAim.State.DRAGGING and not aim.needs_unit():
		dragged = aim.card  # it follows the pointer
	_stage.layout_hand([aim.hovered, aim.card], dragged)


func _show_preview(card_id: String, target_id: String, clear: bool) -> void:
	var info := targets_of(card_id)
	# A preview of a random pick would give the pick away; an arrow card shows one per unit.
	var wanted := not clear and not bool(info.get("facts", {}).get("random", false))
	if bool(info.get("requires_target", false)) and target_id.is_empty():
		wanted = false
	var per_unit: Variant = await _marks.shown_for(bridge, card_id, target_id, wanted)
	if per_unit is Dictionary:
		_stage.show_marks(per_unit)


func _refresh_highlight() -> void:
	var slot := aim.card if aim.card != null else aim.hovered
	if slot == null or is_battle_over() or _playback != null:
		_set_lit("", PackedStringArray())
	else:
		_set_lit(slot.card_id, units_lit_by(slot.card_id))


func _set_lit(card_id: String, ids: PackedStringArray) -> void:
	if card_id == lit_card and ids == lit_units:
		return
	lit_card = card_id
	lit_units = ids
	for id: String in unit_views:
		PyBridgeBattleStage.tell(unit_views[id], &"set_highlighted", [id in ids])
	highlight_changed.emit(card_id, ids)


func _refresh_tooltip() -> void:
	if _tooltip == null:
		return
	var tip := {}
	if aim.state == PyBridgeBattleAim.State.IDLE and _playback == null and not state.is_empty():
		if aim.hovered != null:
			tip = _data.card_tip(card_data(aim.hovered.card_id))
			tip["rect"] = aim.hovered.shown_rect()
		else:
			tip = _stage.tip_at(aim.pointer)
	var title := str(tip.get("title", ""))
	var text := str(tip.get("text", ""))
	if tip.is_empty() and _tooltip.visible:
		_tooltip.hide_tip()
		tooltip_changed.emit("", "")
	elif (
		not tip.is_empty()
		and not (_tooltip.visible and [title, text] == [_tooltip.title, _tooltip.text])
	):
		_tooltip.show_beside(
			title, text, str(tip.get("note", "")), tip["rect"], get_viewport_rect()
		)
		tooltip_changed.emit(title, text)


func _play_rect() -> Rect2:
	if play_area != null:
		return play_area.get_global_rect()
	var rect := get_global_rect()
	if hand_area != null:
		rect.size.y = hand_area.get_global_rect().position.y - rect.position.y
	return rect


func _given_art(kind: String, id: String, data: Dictionary) -> Variant:
	if art_provider.is_valid():
		var given: Variant = art_provider.call(kind, id, data)
		if given is Texture2D:
			return given
	return (unit_art if kind == "unit" else card_art).get(id)


func _inert() -> bool:
	return Engine.is_editor_hint() and not live_in_editor
