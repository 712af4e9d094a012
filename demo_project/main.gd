extends Control
## The demo battle screen: the party of three against three enemies, the hand, energy, End Turn,
## a log of what happened, enemy intents, statuses and a win or lose screen.
##
## Targeting itself is the addon's [PyBridgeBattleView]; this script adds the rest of the screen and
## prints one machine-readable line per thing a test or a tool may want to know, each
## [code]PYBRIDGE <kind> <json>[/code]:
## [br]- [code]ready[/code]: the battle is open; its transport, units, hand and [code]layout[/code].
## [br]- [code]layout[/code]: screen points of every unit and card, End Turn, Restart, an empty
## spot, a spot in the play area and each unit's status chips (viewport pixels).
## [br]- [code]highlight[/code]: [code]{"card", "units"}[/code], the unit ids lit now.
## [br]- [code]aim[/code], [code]target[/code], [code]cancelled[/code], [code]refused[/code]: the
## aim at a card started, got a target, ended without a play, or was refused.
## [br]- [code]played[/code], [code]turn[/code]: the runtime's exact response to the play or
## end_turn request (events and state).
## [br]- [code]step[/code]: a step of the enemy turn's playback ([code]line[/code], the log
## line it shows, and [code]ms[/code], when); [code]settled[/code]: the playback ended and
## the new state shows.
## [br]- [code]tooltip[/code]: the tooltip shown now ([code]title[/code], [code]text[/code]).
## [br]- [code]intents[/code]: what each enemy's intent bubble shows now (the runtime's
## forecast: [code]title[/code], [code]label[/code] and the [code]effects[/code] behind them).
## [br]- [code]counters[/code]: what the battle counters show (the demo's Combo) each time
## the state changes: by counter, [code]{"label", "value", "point"}[/code].
## [br]- [code]choice[/code]: a choice a card's action asks as it resolves (Scry's cards, in
## the pile picker) started, or a card was picked: its candidates, picks and what the picker
## shows; [code]choice_ended[/code]: it was confirmed or cancelled.
## [br]- [code]hit[/code], [code]hit_over[/code]: a hit of a playback step (a damage event
## of a play or an enemy move) started its hit-stop shake, and the shake ended
## ([DemoHitStop], the view's playback handler: the next step waits for it).
## [br]- [code]motion[/code]: the cards drawn, played or discarded stopped flying (the moves,
## and what the hand shows: [DemoScreen]); [code]reordered[/code]: the player moved a card.
## [br]- [code]result[/code]: the battle ended; [code]error[/code]: a request failed.

## The party battle: the demo's own document, whose hand also names cards of its libraries.
const BATTLE_FILE := "res://battles/party_battle.json"
## The card libraries the battle is opened with: the cards of the demo's own extension
## (res://extensions/mechanics.py, listed in project.godot), also shown in the Workshop.
const LIBRARY_FILES: Array[String] = ["res://cards/mechanics.json"]
const PARTY_COLOR := Color("3d8fd1")
const ENEMY_COLOR := Color("d0583a")

var _battle_text: String = ""
var _library_texts := PackedStringArray()
var _toasts: DemoToast = null
var _result: DemoResult = null
var _hit_stop: DemoHitStop = null

@onready var _bridge: PyBridgeClient = $Bridge
@onready var _battle: PyBridgeBattleView = $Battle
@onready var _field: Control = $Battle/Field
@onready var _party_area: Control = $Battle/Field/PartyArea
@onready var _enemy_area: Control = $Battle/Field/EnemyArea
@onready var _turn_label: Label = $TopBar/TurnLabel
@onready var _pile_label: Label = $TopBar/PileLabel
@onready var _restart_button: Button = $TopBar/RestartButton
@onready var _menu_button: Button = $TopBar/MenuButton
@onready var _log: PyBridgeBattleLog = $LogPanel/Rows/Log
@onready var _energy_orb: Control = $EnergyOrb
@onready var _counters: PyBridgeCounters = $Counters
@onready var _end_turn_button: Button = $EndTurnButton
@onready var _toast: Label = $Toast
@onready var _overlay: CanvasLayer = $Overlay
@onready var _overlay_root: Control = $Overlay/Root
@onready var _result_label: Label = $Overlay/Root/Box/Rows/Result
@onready var _detail_label: Label = $Overlay/Root/Box/Rows/Detail
@onready var _play_again_button: Button = $Overlay/Root/Box/Rows/PlayAgainButton
@onready var _overlay_menu_button: Button = $Overlay/Root/Box/Rows/MenuButton


func _ready() -> void:
	DemoTheme.use(self, DemoTheme.build(), [_overlay_root])
	DemoArt.use(_battle)
	DemoScreen.follow(_battle)
	_toasts = DemoToast.new(_toast)
	_result = DemoResult.new(_overlay, _result_label, _detail_label)
	_restart_button.pressed.connect(_open)
	_play_again_button.pressed.connect(_open)
	DemoMenu.connect_buttons(self, [_menu_button, _overlay_menu_button])
	_end_turn_button.pressed.connect(_on_end_turn_pressed)
	# Each hit the view plays back waits for its hit-stop shake and thud.
	_hit_stop = DemoHitStop.new(_battle)
	add_child(_hit_stop)
	_battle.step_handler = _hit_stop.play_step
	DemoPiles.new(_battle, _pile_label)  # the counters open the pile viewer; cards fly to them
	DemoLines.follow_failures(_bridge, _log)
	_battle.battle_started.connect(_on_battle_started)
	_battle.battle_state_changed.connect(_on_state_changed)
	_battle.battle_state_changed.connect(
		func(_state: PyBridge.BattleState) -> void: _hit_stop.stop()
	)
	_battle.layout_changed.connect(_on_layout_changed)
	_battle.highlight_changed.connect(_on_highlight_changed)
	_battle.aim_started.connect(
		func(card_id: String) -> void: DemoLines.say("aim", {"card": card_id})
	)
	_battle.target_selected.connect(_on_target_selected)
	_battle.aim_cancelled.connect(_on_aim_cancelled)
	_battle.play_refused.connect(_on_play_refused)
	_battle.card_play_answered.connect(_on_card_play_answered)
	_battle.turn_end_answered.connect(_on_turn_end_answered)
	_battle.step_shown.connect(_on_step_shown)
	_battle.turn_finished.connect(
		func(state: PyBridge.BattleState) -> void:
			DemoLines.say("settled", {"turn": state.turn, "layout": _layout_points()})
	)
	_battle.tooltip_changed.connect(
		func(title: String, text: String) -> void:
			DemoLines.say("tooltip", {"title": title, "text": text})
	)
	_battle.choice_changed.connect(_say_choice)
	_counters.counters_shown.connect(
		func(shown: Dictionary) -> void: DemoLines.say("counters", shown)
	)
	_battle.choice_ended.connect(
		func(choice: PyBridge.Choice, confirmed: bool) -> void:
			DemoLines.say(
				"choice_ended",
				{"card": choice.card_id, "chosen": choice.chosen, "confirmed": confirmed}
			)
	)
	for path: String in [BATTLE_FILE] + LIBRARY_FILES:
		if not FileAccess.file_exists(path):
			_log.add_line(tr("The document %s is missing.") % path, "error")
			DemoLines.say("error", {"code": "missing_battle", "message": path})
			return
	_battle_text = FileAccess.get_file_as_string(BATTLE_FILE)
	for path in LIBRARY_FILES:
		_library_texts.append(FileAccess.get_file_as_string(path))
	_open()


func _draw() -> void:
	var w := size.x
	var h := size.y
	var m := DemoHitStop.SHAKE_PIXELS * 2.0  # a shaken screen shows no edge
	draw_polygon(
		PackedVector2Array(
			[Vector2(-m, -m), Vector2(w + m, -m), Vector2(w + m, h + m), Vector2(-m, h + m)]
		),
		PackedColorArray([Color("1d1738"), Color("241a33"), Color("0d0a14"), Color("0b0d18")])
	)
	var floor_top := 380.0
	draw_polygon(
		PackedVector2Array(
			[Vector2(0, floor_top), Vector2(1000, floor_top), Vector2(1000, 452), Vector2(0, 452)]
		),
		PackedColorArray([Color("231d3a"), Color("2b1f36"), Color("141019"), Color("11131d")])
	)
	draw_rect(Rect2(0, 52, w, 2), Color(1, 1, 1, 0.06))
	var font := get_theme_default_font()
	_draw_team_label(font, _party_area, tr("YOUR PARTY"), PARTY_COLOR)
	_draw_team_label(font, _enemy_area, tr("ENEMIES"), ENEMY_COLOR)
	var gap := _gap_point()
	var versus := tr("VS")
	var vs_width := font.get_string_size(versus, HORIZONTAL_ALIGNMENT_LEFT, -1, 40).x
	draw_string(
		font,
		gap + Vector2(-vs_width * 0.5, 14),
		versus,
		HORIZONTAL_ALIGNMENT_LEFT,
		-1,
		40,
		Color(1, 1, 1, 0.08)
	)
	for id: String in _battle.unit_views:
		var view: Control = _battle.unit_views[id]
		var foot := view.get_global_rect()
		var center := Vector2(foot.get_center().x, foot.position.y + 196)
		draw_set_transform(center, 0.0, Vector2(1.0, 0.22))
		draw_circle(Vector2.ZERO, 62, Color(0, 0, 0, 0.35))
		draw_set_transform(Vector2.ZERO)
	var tray := StyleBoxFlat.new()
	tray.bg_color = Color(0.03, 0.02, 0.06, 0.55)
	tray.set_corner_radius_all(24)
	draw_style_box(tray, Rect2(-20, 522, w + 40, 240))


func _open() -> void:
	_result.hide()
	_log.clear()
	_toasts.clear()
	_battle.open_battle_json(_battle_text, _library_texts)


func _on_battle_started(state: PyBridge.BattleState) -> void:
	var version: Dictionary = await _bridge.ask("version")
	_log.add_line(
		(
			tr("Rules by pybridge %s over the %s transport.")
			% [version.get("version", "?"), _bridge.transport_name()]
		),
		"info"
	)
	var party: Array[String] = []
	var enemies: Array[String] = []
	for unit: PyBridge.Unit in state.units:
		(party if unit.team == "player" else enemies).append(tr(unit.name, "unit.name"))
	_log.add_line(tr("%s face %s.") % [_join_names(party), _join_names(enemies)], "turn")
	_log.add_line(
		tr("Drag a card onto a glowing unit, or click a card and then its target."), "info"
	)
	(
		DemoLines
		. say(
			"ready",
			{
				"transport": _bridge.transport_name(),
				"session": _bridge.session,
				"viewport": DemoLines.xy(get_viewport_rect().size),
				"window": DemoLines.xy(Vector2(DisplayServer.window_get_size())),
				"turn": state.turn,
				"energy": state.side().energy,
				"units": _units_summary(state),
				"hand": DemoLines.hand_ids(state),
				"layout": _layout_points(),
			}
		)
	)


## The typed state: the turn, the player side's energy, the result.
func _on_state_changed(state: PyBridge.BattleState) -> void:
	var side := state.side()
	_turn_label.text = tr("Turn %d") % state.turn
	_energy_orb.set("energy", side.energy)
	_energy_orb.set("max_energy", side.max_energy)
	_end_turn_button.disabled = state.is_over()
	if state.is_over() and not _result.is_shown():
		_show_result(state.result)
	queue_redraw()
	var shown := {}
	for id: String in _battle.unit_views:
		var view := _battle.unit_views[id] as PyBridgeUnitView
		if view != null and not view.intent.is_empty():
			shown[id] = {
				"title": view.intent.get("title"),
				"label": view.intent.get("label"),
				"effects": view.intent.get("effects", [])
			}
	DemoLines.say("intents", shown)


func _on_layout_changed() -> void:
	queue_redraw()
	DemoLines.say("layout", _layout_points())


func _on_highlight_changed(card_id: String, unit_ids: PackedStringArray) -> void:
	DemoLines.say("highlight", {"card": card_id, "units": unit_ids})


func _on_target_selected(card_id: String, unit_id: String) -> void:
	DemoLines.say("target", {"card": card_id, "unit": unit_id})


func _on_aim_cancelled(card_id: String) -> void:
	(
		DemoLines
		. say(
			"cancelled",
			{
				"card": card_id,
				"energy": _battle.battle_state.side().energy,
				"hand": DemoLines.hand_ids(_battle.battle_state),
			}
		)
	)


func _on_play_refused(card_id: String, refusal: PyBridge.Refusal) -> void:
	var reason := refusal.said()
	DemoLines.say("refused", {"card": card_id, "reason": reason, "code": refusal.code})
	var card_name := str(_battle.names().get("cards", {}).get(card_id, card_id))
	_toasts.flash(tr("%s can't be played: %s") % [card_name, reason], 1.6)


func _on_card_play_answered(
	_card_id: String, _target_id: String, outcome: PyBridge.Outcome
) -> void:
	DemoLines.say_raw("played", _bridge.last_response_of("play"))
	_log.add_lines(outcome.log_lines)


func _on_turn_end_answered(_outcome: PyBridge.Outcome) -> void:
	DemoLines.say_raw("turn", _bridge.last_response_of("end_turn"))


func _on_step_shown(step: PyBridge.Step) -> void:
	if step.line != null:
		_log.add_lines([step.line])
	var text := step.line.text if step.line != null else ""
	DemoLines.say("step", {"line": text, "ms": Time.get_ticks_msec()})


func _say_choice(choice: PyBridge.Choice) -> void:
	await get_tree().process_frame  # the picker lays out first
	(
		DemoLines
		. say(
			"choice",
			{
				"card": choice.card_id,
				"chooses": choice.chooses,
				"chosen": choice.chosen,
				"candidates": choice.candidates,
				"can_confirm": choice.can_confirm,
				"picker": _battle.pile_picker.shown(),
			}
		)
	)


func _on_end_turn_pressed() -> void:
	_battle.end_turn()


func _show_result(result: String) -> void:
	var won := result == "victory"
	await _result.show(
		tr("Victory!") if won else tr("Defeat"),
		Color("ffd54a") if won else Color("ff6b6b"),
		tr("All enemies are defeated.") if won else tr("Your party has fallen.")
	)
	DemoLines.say(
		"result",
		{
			"result": result,
			"play_again": DemoLines.xy(_play_again_button.get_global_rect().get_center())
		}
	)


func _layout_points() -> Dictionary:
	var points := _battle.layout_points()
	points["end_turn"] = DemoLines.xy(_end_turn_button.get_global_rect().get_center())
	points["restart"] = DemoLines.xy(_restart_button.get_global_rect().get_center())
	points["menu"] = DemoLines.xy(_menu_button.get_global_rect().get_center())
	points["empty"] = DemoLines.xy(_gap_point())
	points["play"] = DemoLines.xy(_gap_point())
	var chips := {}
	for id: String in _battle.unit_views:
		var view := _battle.unit_views[id] as PyBridgeUnitView
		if view == null:
			continue
		for chip in view.status_chips():
			if not chips.has(id):
				chips[id] = {}
			chips[id][chip["id"]] = DemoLines.xy(
				view.get_global_transform() * (chip["rect"] as Rect2).get_center()
			)
	points["statuses"] = chips
	return points


func _gap_point() -> Vector2:
	var left := _party_area.get_global_rect()
	var right := _enemy_area.get_global_rect()
	return Vector2((left.end.x + right.position.x) * 0.5, left.get_center().y)


func _draw_team_label(font: Font, area: Control, text: String, color: Color) -> void:
	var rect := area.get_global_rect()
	var width := font.get_string_size(text, HORIZONTAL_ALIGNMENT_LEFT, -1, 15).x
	var at := Vector2(rect.get_center().x - width * 0.5, rect.position.y + 2)
	draw_rect(Rect2(rect.position.x + 20, at.y - 5, rect.size.x - 40, 2), Color(color, 0.35))
	draw_string(
		font, at + Vector2(0, 16), text, HORIZONTAL_ALIGNMENT_LEFT, -1, 15, color.lightened(0.25)
	)


func _units_summary(state: PyBridge.BattleState) -> Dictionary:
	var units := {}
	for unit: PyBridge.Unit in state.units:
		units[unit.id] = {
			"team": unit.team,
			"hp": unit.hp,
			"max_hp": unit.max_hp,
			"armor": unit.armor,
			"statuses": unit.statuses,
		}
	return units


func _join_names(names: Array[String]) -> String:
	if names.size() <= 1:
		return "".join(names)
	return tr("%s and %s") % [", ".join(names.slice(0, names.size() - 1)), names[names.size() - 1]]
