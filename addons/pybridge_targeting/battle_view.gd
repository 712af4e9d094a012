@tool
@icon("res://addons/pybridge_targeting/icons/battle_view.svg")
class_name BattleView
extends Control
## The targeting half of a card battle screen, driven by the Python runtime.
##
## It shows the units of a battle in [member party_area] and [member enemy_area] and the hand
## in [member hand_area], and turns the pointer into plays:
## [br]- Hover a card: exactly the units the runtime returned light up (the candidates of an
## arrow mode, the range of the All, Self and Random modes).
## [br]- Drag a card whose mode requires a target: an [AimArrow] follows the pointer, snaps to
## a valid unit and changes colour over an invalid unit or empty space; released on a valid
## unit the card is played, anywhere else the aim is cancelled.
## [br]- Drag any other card into the [member play_area] and release it to play it.
## [br]- Or click a card, then click a unit (or the play area). Keys: 1-9 and 0 pick a card,
## Tab and Shift+Tab cycle its candidates, Enter plays, Escape or a right click cancels.
## [br][br]
## While aiming, the unit under the arrow shows what the play would do (the [code]preview[/code]
## operation). All legality comes from the runtime through [member bridge].

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
## [param result] holds its [code]events[/code] and the new [code]state[/code].
signal card_played(card_id: String, target_id: String, result: Dictionary)
## The player tried a card the runtime says cannot be played now, or the runtime refused
## the play; [param reason] says why.
signal card_refused(card_id: String, reason: String)
## The turn ended; [param result] holds its [code]events[/code] and the new [code]state[/code].
signal turn_ended(result: Dictionary)
## The lit units changed: [param unit_ids] for [param card_id] ([code]""[/code]: nothing lit).
signal highlight_changed(card_id: String, unit_ids: PackedStringArray)

## Where the player is in choosing a play.
enum AimState {
	IDLE, ## Nothing chosen.
	PRESSED, ## The mouse went down on a card and has not moved far yet.
	DRAGGING, ## A card is being dragged.
	ARMED, ## A card was clicked (or picked by key) and waits for its target.
}

## How far the pointer may move while pressed and still count as a click.
const CLICK_DISTANCE := 12.0
## Modes whose target the runtime picks at random: no preview (it would give the pick away).
const RANDOM_MODES: Array[String] = ["RandomAlly", "RandomOpponent"]

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
## Where no-target cards are released to be played; by default everything above the hand.
@export var play_area: Control
## A battle document to open when the view is ready (see [member open_on_ready]).
@export_file("*.json") var battle_file: String = "":
	set(value):
		battle_file = value
		update_configuration_warnings()
## Open [member battle_file] in [method Node._ready].
@export var open_on_ready: bool = true:
	set(value):
		open_on_ready = value
		update_configuration_warnings()
## Size of a unit view.
@export var unit_size: Vector2 = Vector2(140, 230)
## Space between unit views.
@export var unit_gap: float = 14.0
## Colour of the play-area hint while a no-target card is held.
@export var play_area_color: Color = Color("ffd54a")

## The battle state (docs/format.md), as the runtime last sent it.
var state: Dictionary = {}
## Unit id -> [UnitView].
var unit_views: Dictionary = {}
## The hand, left to right.
var card_views: Array[CardView] = []
## Card id -> the runtime's [code]targets[/code] answer for it.
var card_targets: Dictionary = {}
## Where the player is in choosing a play.
var aim_state: AimState = AimState.IDLE
## The card being aimed, or null.
var aimed_card: CardView = null
## The card under the pointer, or null.
var hovered_card: CardView = null
## The unit ids lit now.
var lit_units: PackedStringArray = PackedStringArray()
## The card whose units are lit ([code]""[/code] when none).
var lit_card: String = ""

var _arrow: AimArrow = null
var _press_point: Vector2 = Vector2.ZERO
var _pointer: Vector2 = Vector2.ZERO
var _keyboard_target: int = -1
var _preview_cache: Dictionary = {}
var _names: Dictionary = {}
var _zone_active: bool = false


func _ready() -> void:
	if Engine.is_editor_hint():
		return
	_arrow = AimArrow.new()
	_arrow.name = "AimArrow"
	add_child(_arrow)
	if bridge == null:
		bridge = get_node_or_null("/root/Bridge") as PyBridgeClient
	if bridge == null:
		push_error("BattleView: no bridge: assign a PyBridgeClient or enable the plugin")
		return
	if party_area == null or enemy_area == null or hand_area == null:
		push_error("BattleView: assign party_area, enemy_area and hand_area")
		return
	resized.connect(_layout)
	if open_on_ready and not battle_file.is_empty():
		open_battle_file(battle_file)


func _get_configuration_warnings() -> PackedStringArray:
	var warnings := PackedStringArray()
	if bridge == null and not ProjectSettings.has_setting("autoload/Bridge"):
		warnings.append("No bridge: assign a PyBridgeClient node to 'bridge', or enable the "
				+ "PyBridge Targeting plugin, which adds the Bridge autoload.")
	if party_area == null or enemy_area == null or hand_area == null:
		warnings.append("Assign 'party_area', 'enemy_area' and 'hand_area': the Controls the "
				+ "units and the hand are laid out in.")
	if open_on_ready and battle_file.is_empty():
		warnings.append("'open_on_ready' is on but 'battle_file' is empty: set a battle "
				+ "document, or turn it off and call open_battle() yourself.")
	elif not battle_file.is_empty() and not FileAccess.file_exists(battle_file):
		warnings.append("'battle_file' %s does not exist." % battle_file)
	return warnings


func _input(event: InputEvent) -> void:
	if (Engine.is_editor_hint() or state.is_empty() or not is_visible_in_tree()
			or is_battle_over()):
		return
	if event is InputEventMouseMotion:
		_pointer_moved((event as InputEventMouseMotion).position)
	elif event is InputEventMouseButton:
		var button := event as InputEventMouseButton
		if button.button_index == MOUSE_BUTTON_LEFT:
			if button.pressed:
				_pointer_pressed(button.position)
			else:
				_pointer_released(button.position)
		elif (button.button_index == MOUSE_BUTTON_RIGHT and button.pressed
				and aim_state != AimState.IDLE):
			cancel_aim()
			get_viewport().set_input_as_handled()
	elif event is InputEventKey and event.is_pressed() and not event.is_echo():
		_key_pressed(event as InputEventKey)


func _draw() -> void:
	if Engine.is_editor_hint() or not _zone_active:
		return
	var zone := _play_rect()
	var local := Rect2(get_global_transform().affine_inverse() * zone.position, zone.size)
	var box := StyleBoxFlat.new()
	box.bg_color = Color(play_area_color, 0.07)
	box.border_color = Color(play_area_color, 0.6)
	box.set_border_width_all(3)
	box.set_corner_radius_all(18)
	draw_style_box(box, local.grow(-6))
	var font := get_theme_default_font()
	var text := "Release to play" if aim_state == AimState.DRAGGING else "Click here to play"
	var width := font.get_string_size(text, HORIZONTAL_ALIGNMENT_LEFT, -1, 22).x
	draw_string(font, Vector2(local.get_center().x - width * 0.5, local.position.y + 40), text,
			HORIZONTAL_ALIGNMENT_LEFT, -1, 22, Color(play_area_color, 0.9))


## Opens the battle document [param document]; false when the runtime refused it.
func open_battle(document: Dictionary) -> bool:
	return _opened(bridge.open_battle(document) if bridge != null else {})


## Opens a battle document from its JSON text; false when the runtime refused it.
func open_battle_json(text: String) -> bool:
	return _opened(bridge.open_battle_json(text) if bridge != null else {})


## Opens the battle document stored at [param path] ([code]res://[/code] or a file path).
func open_battle_file(path: String) -> bool:
	var text := FileAccess.get_file_as_string(path)
	if text.is_empty():
		push_error("BattleView: cannot read the battle document %s (%s)"
				% [path, error_string(FileAccess.get_open_error())])
		return false
	return open_battle_json(text)


## Shows [param new_state] (a battle state from the runtime) and asks what each card targets.
func apply_state(new_state: Dictionary) -> void:
	state = new_state
	_names = BattleNarrator.names_from_state(state)
	_preview_cache.clear()
	_sync_units()
	_sync_hand()
	_layout()
	_refresh_highlight()
	state_changed.emit(state)


## Plays [param card_id] at [param target_id] ([code]""[/code] for modes without a target).
func play_card(card_id: String, target_id: String = "") -> bool:
	if aimed_card != null:
		_end_aim()
	var result := bridge.play(card_id, target_id)
	if result.is_empty():
		card_refused.emit(card_id, str(bridge.last_error.get("message", "refused")))
		_refresh_highlight()
		return false
	apply_state(result.get("state", {}))
	card_played.emit(card_id, target_id, result)
	return true


## Ends the turn: the runtime discards, lets the enemies act and deals a new hand.
func end_turn() -> bool:
	if is_battle_over():
		return false
	cancel_aim()
	var result := bridge.end_turn()
	if result.is_empty():
		return false
	apply_state(result.get("state", {}))
	turn_ended.emit(result)
	return true


## Starts aiming [param card_id] as if it had been clicked (keyboard and scripted use).
func select_card(card_id: String) -> bool:
	var card := card_view(card_id)
	if card == null:
		return false
	if aimed_card != null:
		cancel_aim()
	if not _begin_aim(card, card.base_rect().get_center()):
		return false
	aim_state = AimState.ARMED
	if bool(targets_of(card_id).get("requires_target", false)):
		_keyboard_target = 0
	_update_aim()
	return true


## Stops aiming without playing ([signal aim_cancelled]).
func cancel_aim() -> void:
	if aimed_card == null:
		return
	var card_id := aimed_card.card_id
	_end_aim()
	aim_cancelled.emit(card_id)


## Whether the battle has a result (victory or defeat).
func is_battle_over() -> bool:
	return state.get("result") != null and str(state.get("result", "")) != ""


## The runtime's [code]targets[/code] answer for [param card_id] (empty when unknown).
func targets_of(card_id: String) -> Dictionary:
	return card_targets.get(card_id, {})


## The units [param card_id] lights up: its candidates (arrow modes) or its range.
func units_lit_by(card_id: String) -> PackedStringArray:
	var info := targets_of(card_id)
	var key := "candidates" if bool(info.get("requires_target", false)) else "range"
	return PackedStringArray(info.get(key, []))


## The [CardView] of [param card_id] in the hand, or null.
func card_view(card_id: String) -> CardView:
	for card in card_views:
		if card.card_id == card_id:
			return card
	return null


## The hand card under [param point] (global), by the hand layout: the later card wins where
## two overlap, and the hovered card also owns the space it is raised into.
func card_at(point: Vector2) -> CardView:
	for i in range(card_views.size() - 1, -1, -1):
		var card := card_views[i]
		var rect := card.base_rect()
		if card == hovered_card or card == aimed_card:
			var rise := card.raised_offset + rect.size.y * (card.raised_scale - 1.0)
			rect = rect.grow_side(SIDE_TOP, rise)
		if rect.has_point(point):
			return card
	return null


## The id of the unit under [param point] (global), or [code]""[/code].
func unit_at(point: Vector2) -> String:
	for id: String in unit_views:
		var view: UnitView = unit_views[id]
		if view.get_global_rect().has_point(point):
			return id
	return ""


## Whether [param point] (global) is where a no-target card is played.
func in_play_area(point: Vector2) -> bool:
	return _play_rect().has_point(point)


## Screen positions for scripts and tests, in global coordinates:
## [code]{"units": {id: [x, y]}, "cards": {id: [x, y]}}[/code] (a unit's portrait centre; the
## middle of the visible part of each card in the hand).
func layout_points() -> Dictionary:
	var units := {}
	for id: String in unit_views:
		units[id] = _xy((unit_views[id] as UnitView).center_point())
	var cards := {}
	for i in card_views.size():
		var rect := card_views[i].base_rect()
		var visible_width := rect.size.x
		if i + 1 < card_views.size():
			visible_width = minf(rect.size.x, card_views[i + 1].base_rect().position.x
					- rect.position.x)
		cards[card_views[i].card_id] = _xy(rect.position + Vector2(visible_width * 0.5,
				rect.size.y * 0.55))
	return {"units": units, "cards": cards}


## Display names from the current state (see [method BattleNarrator.names_from_state]).
func names() -> Dictionary:
	return _names


func _opened(new_state: Dictionary) -> bool:
	if new_state.is_empty():
		return false
	if aimed_card != null:
		_end_aim()
	for id: String in unit_views:
		(unit_views[id] as Node).queue_free()
	unit_views.clear()
	for card in card_views:
		card.queue_free()
	card_views.clear()
	hovered_card = null
	apply_state(new_state)
	battle_opened.emit(state)
	return true


func _sync_units() -> void:
	var seen := {}
	for unit: Variant in state.get("units", []):
		var id := str(unit.get("id"))
		seen[id] = true
		var view: UnitView = unit_views.get(id)
		if view == null:
			view = UnitView.new()
			view.name = "Unit_" + id
			view.size = unit_size
			var area := party_area if str(unit.get("team")) == "player" else enemy_area
			area.add_child(view)
			unit_views[id] = view
		view.show_unit(unit, _intent_of(unit), _names.get("statuses", {}))
	for id: String in unit_views.keys():
		if not seen.has(id):
			(unit_views[id] as Node).queue_free()
			unit_views.erase(id)


func _sync_hand() -> void:
	var definitions := {}
	for card: Variant in state.get("cards", []):
		definitions[str(card.get("id"))] = card
	var over := is_battle_over()
	card_targets.clear()
	var hand: Array[CardView] = []
	for instance: Variant in state.get("piles", {}).get("hand", []):
		var id := str(instance.get("id"))
		var view := card_view(id)
		if view == null:
			view = CardView.new()
			view.name = "Card_" + id
			hand_area.add_child(view)
		var info := {} if over else bridge.targets(id)
		card_targets[id] = info
		var owner_id := str(instance.get("owner", info.get("source", "")))
		if instance.get("owner") == null:
			owner_id = str(info.get("source", state.get("active_player", "")))
		var owner_name := str(_names.get("units", {}).get(owner_id, owner_id))
		view.show_card(id, definitions.get(str(instance.get("card")), {}), owner_name,
				bool(info.get("playable", false)))
		hand.append(view)
	for card in card_views:
		if not card in hand:
			if card == hovered_card:
				hovered_card = null
			card.queue_free()
	card_views = hand


func _intent_of(unit: Dictionary) -> Dictionary:
	var intent: Variant = unit.get("intent")
	if not intent is Dictionary or int(unit.get("hp", 0)) <= 0:
		return {}
	var move := {}
	for candidate: Variant in state.get("moves", []):
		if candidate is Dictionary and str(candidate.get("id")) == str(intent.get("move")):
			move = candidate
	var title := str(move.get("name", str(intent.get("move", "?")).capitalize()))
	var damage := 0
	var behavior: Variant = move.get("behavior", {})
	if behavior is Dictionary:
		for node: Variant in behavior.get("nodes", []):
			if node is Dictionary and str(node.get("type")) == "DealDamage":
				damage += int(node.get("amount", 0))
	if damage > 0:
		title += " %d" % damage
	var detail := ""
	if intent.get("target") != null:
		detail = "at " + str(_names.get("units", {}).get(str(intent["target"]), intent["target"]))
	else:
		match str(move.get("target", "")):
			"AllEnemies":
				detail = "at the whole party"
			"AllAllies":
				detail = "on its allies"
			"Self":
				detail = "on itself"
			"RandomOpponent":
				detail = "at a random hero"
	return {"title": title, "detail": detail, "attack": damage > 0}


func _layout() -> void:
	if state.is_empty() or party_area == null or enemy_area == null or hand_area == null:
		return
	var teams := {party_area: [], enemy_area: []}
	for unit: Variant in state.get("units", []):
		var id := str(unit.get("id"))
		if unit_views.has(id):
			teams[party_area if str(unit.get("team")) == "player" else enemy_area].append(id)
	for area: Control in teams:
		var ids: Array = teams[area]
		var gap := unit_gap
		var total := ids.size() * unit_size.x + (ids.size() - 1) * gap
		if total > area.size.x and ids.size() > 1:
			gap = (area.size.x - ids.size() * unit_size.x) / (ids.size() - 1)
			total = area.size.x
		var x := (area.size.x - total) * 0.5
		var y := (area.size.y - unit_size.y) * 0.5
		for id: String in ids:
			var view: UnitView = unit_views[id]
			view.size = unit_size
			view.position = Vector2(x, y)
			x += unit_size.x + gap
	_layout_hand()
	layout_changed.emit()


func _layout_hand() -> void:
	var count := card_views.size()
	if count == 0:
		return
	var width := CardView.CARD_SIZE.x
	var step := width + 10.0
	if count > 1:
		step = minf(step, (hand_area.size.x - width) / (count - 1))
	var total := width + step * (count - 1)
	var x := (hand_area.size.x - total) * 0.5
	var y := hand_area.size.y - CardView.CARD_SIZE.y - 12.0
	for card in card_views:
		if (card == aimed_card and aim_state == AimState.DRAGGING
				and not bool(targets_of(card.card_id).get("requires_target", false))):
			x += step
			continue
		card.place(Vector2(x, y), card == hovered_card or card == aimed_card, hand_area.size.x)
		x += step


func _pointer_moved(point: Vector2) -> void:
	_pointer = point
	match aim_state:
		AimState.IDLE:
			_set_hovered_card(card_at(point))
		AimState.PRESSED:
			if point.distance_to(_press_point) > CLICK_DISTANCE:
				aim_state = AimState.DRAGGING
				_keyboard_target = -1
				_update_aim()
		AimState.DRAGGING, AimState.ARMED:
			_keyboard_target = -1
			_update_aim()


func _pointer_pressed(point: Vector2) -> void:
	_pointer = point
	match aim_state:
		AimState.IDLE:
			var card := card_at(point)
			if card != null:
				_begin_aim(card, point)
				get_viewport().set_input_as_handled()
		AimState.ARMED:
			var card := card_at(point)
			if card == aimed_card:
				cancel_aim()
				get_viewport().set_input_as_handled()
			elif card != null:
				cancel_aim()
				_begin_aim(card, point)
				get_viewport().set_input_as_handled()
			elif _release_at(point):
				get_viewport().set_input_as_handled()


func _pointer_released(point: Vector2) -> void:
	_pointer = point
	match aim_state:
		AimState.PRESSED:
			# A click: the card stays chosen until the next click picks its target.
			aim_state = AimState.ARMED
			_update_aim()
		AimState.DRAGGING:
			_release_at(point)


func _key_pressed(key: InputEventKey) -> void:
	var handled := true
	var code := key.keycode
	if code == KEY_ESCAPE and aim_state != AimState.IDLE:
		cancel_aim()
	elif code == KEY_TAB:
		if aimed_card == null:
			_pick_card(hovered_card.card_id if hovered_card != null else "", 0)
		else:
			_cycle_target(-1 if key.shift_pressed else 1)
	elif code in [KEY_ENTER, KEY_KP_ENTER] and aimed_card != null:
		_confirm()
	elif code in [KEY_LEFT, KEY_RIGHT]:
		_pick_card(aimed_card.card_id if aimed_card != null else "",
				-1 if code == KEY_LEFT else 1)
	elif code >= KEY_0 and code <= KEY_9 and not card_views.is_empty():
		var index := 9 if code == KEY_0 else code - KEY_1
		if index < card_views.size():
			select_card(card_views[index].card_id)
	else:
		handled = false
	if handled:
		get_viewport().set_input_as_handled()


func _pick_card(from_id: String, offset: int) -> void:
	if card_views.is_empty():
		return
	var index := 0
	for i in card_views.size():
		if card_views[i].card_id == from_id:
			index = posmod(i + offset, card_views.size())
	select_card(card_views[index].card_id)


func _cycle_target(offset: int) -> void:
	var candidates: Array = targets_of(aimed_card.card_id).get("candidates", [])
	if candidates.is_empty():
		return
	if _keyboard_target < 0:
		var under := candidates.find(unit_at(_pointer))
		_keyboard_target = under if under >= 0 else (0 if offset > 0 else candidates.size() - 1)
	else:
		_keyboard_target = posmod(_keyboard_target + offset, candidates.size())
	if aim_state != AimState.DRAGGING:
		aim_state = AimState.ARMED
	_update_aim()


func _confirm() -> void:
	var info := targets_of(aimed_card.card_id)
	if not bool(info.get("requires_target", false)):
		play_card(aimed_card.card_id)
		return
	var target := _aimed_unit()
	if target != "" and target in info.get("candidates", []):
		var card_id := aimed_card.card_id
		target_selected.emit(card_id, target)
		play_card(card_id, target)


func _begin_aim(card: CardView, point: Vector2) -> bool:
	var info := targets_of(card.card_id)
	if not bool(info.get("playable", false)):
		card_refused.emit(card.card_id, str(info.get("reason", "it cannot be played now")))
		return false
	aimed_card = card
	aim_state = AimState.PRESSED
	_press_point = point
	_keyboard_target = -1
	card.set_selected(true)
	hovered_card = card
	_layout_hand()
	_refresh_highlight()
	aim_started.emit(card.card_id)
	return true


func _release_at(point: Vector2) -> bool:
	var card_id := aimed_card.card_id
	var info := targets_of(card_id)
	if bool(info.get("requires_target", false)):
		var unit := unit_at(point)
		if unit != "" and unit in info.get("candidates", []):
			target_selected.emit(card_id, unit)
			return play_card(card_id, unit)
	elif in_play_area(point):
		return play_card(card_id)
	cancel_aim()
	return false


func _end_aim() -> void:
	if aimed_card != null:
		aimed_card.set_selected(false)
	aimed_card = null
	aim_state = AimState.IDLE
	_keyboard_target = -1
	_arrow.hide()
	_zone_active = false
	queue_redraw()
	for id: String in unit_views:
		var view: UnitView = unit_views[id]
		view.set_target_look(UnitView.TargetLook.NONE)
		view.set_preview([])
	hovered_card = card_at(_pointer)
	_layout_hand()
	_refresh_highlight()


func _aimed_unit() -> String:
	if aimed_card == null:
		return ""
	var candidates: Array = targets_of(aimed_card.card_id).get("candidates", [])
	if _keyboard_target >= 0 and _keyboard_target < candidates.size():
		return str(candidates[_keyboard_target])
	return unit_at(_pointer)


func _update_aim() -> void:
	if aimed_card == null:
		return
	var card_id := aimed_card.card_id
	var info := targets_of(card_id)
	var target := _aimed_unit()
	for id: String in unit_views:
		(unit_views[id] as UnitView).set_target_look(UnitView.TargetLook.NONE)
	if bool(info.get("requires_target", false)):
		var valid: bool = target != "" and target in info.get("candidates", [])
		var look := AimArrow.Look.EMPTY
		var end := _pointer
		if target != "":
			var view: UnitView = unit_views[target]
			look = AimArrow.Look.VALID if valid else AimArrow.Look.INVALID
			view.set_target_look(UnitView.TargetLook.VALID if valid
					else UnitView.TargetLook.INVALID)
			if valid:
				end = view.target_point()
		if aim_state == AimState.PRESSED:
			_arrow.hide()
		else:
			_arrow.aim(aimed_card.arrow_origin(), end, look)
		_show_preview(card_id, target if valid else "")
	else:
		_arrow.hide()
		if aim_state == AimState.DRAGGING:
			aimed_card.follow(_pointer)
			_layout_hand()
		_zone_active = aim_state in [AimState.DRAGGING, AimState.ARMED]
		queue_redraw()
		if in_play_area(_pointer) or aim_state == AimState.ARMED:
			_show_preview(card_id, "")
		else:
			_show_preview(card_id, "", true)


func _show_preview(card_id: String, target_id: String, clear: bool = false) -> void:
	var info := targets_of(card_id)
	var per_unit := {}
	var wanted: bool = not clear and not str(info.get("mode", "")) in RANDOM_MODES
	if wanted and bool(info.get("requires_target", false)) and target_id.is_empty():
		wanted = false
	if wanted:
		var key := card_id + ">" + target_id
		if not _preview_cache.has(key):
			_preview_cache[key] = bridge.preview(card_id, target_id)
		per_unit = _preview_lines(_preview_cache[key])
	for id: String in unit_views:
		var lines: Array[Dictionary] = []
		lines.assign(per_unit.get(id, []))
		(unit_views[id] as UnitView).set_preview(lines)


func _preview_lines(events: Array) -> Dictionary:
	var lines := {}
	for event: Variant in events:
		if not event is Dictionary or not event.has("unit"):
			continue
		var id := str(event.get("unit"))
		var text := ""
		var color := Color.WHITE
		match str(event.get("type")):
			"damage":
				var lost := int(event.get("hp_before", 0)) - int(event.get("hp_after", 0))
				var blocked := int(event.get("blocked", 0))
				if lost > 0 or blocked == 0:
					_add_line(lines, id, "-%d HP" % lost, Color("ff6b5a"))
				if blocked > 0:
					text = "%d blocked" % blocked
					color = Color("aab8d6")
			"heal":
				text = "+%d HP" % int(event.get("amount", 0))
				color = Color("7dff9a")
			"armor":
				text = "+%d Armor" % int(event.get("amount", 0))
				color = Color("9fc2ff")
			"status":
				var status := str(event.get("status"))
				text = "%+d %s" % [int(event.get("stacks", 0)),
						str(_names.get("statuses", {}).get(status, status.capitalize()))]
				color = Color("d6b8ff")
			"unit_died":
				text = "defeated"
				color = Color("ff8a80")
			"revived":
				text = "revived"
				color = Color("7dff9a")
		if not text.is_empty():
			_add_line(lines, id, text, color)
	return lines


func _add_line(lines: Dictionary, id: String, text: String, color: Color) -> void:
	if not lines.has(id):
		lines[id] = []
	(lines[id] as Array).append({"text": text, "color": color})


func _set_hovered_card(card: CardView) -> void:
	if card == hovered_card:
		return
	hovered_card = card
	_layout_hand()
	_refresh_highlight()


func _refresh_highlight() -> void:
	var card := aimed_card if aimed_card != null else hovered_card
	if card == null or is_battle_over():
		_set_lit("", PackedStringArray())
	else:
		_set_lit(card.card_id, units_lit_by(card.card_id))


func _set_lit(card_id: String, ids: PackedStringArray) -> void:
	if card_id == lit_card and ids == lit_units:
		return
	lit_card = card_id
	lit_units = ids
	for id: String in unit_views:
		(unit_views[id] as UnitView).set_highlighted(id in ids)
	highlight_changed.emit(card_id, ids)


func _play_rect() -> Rect2:
	if play_area != null:
		return play_area.get_global_rect()
	var rect := get_global_rect()
	if hand_area != null:
		rect.size.y = hand_area.get_global_rect().position.y - rect.position.y
	return rect


func _xy(point: Vector2) -> Array:
	return [roundi(point.x), roundi(point.y)]
