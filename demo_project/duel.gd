extends Control
## The demo's trading-card duel under the strict law: Captain Aya and Kit against Rival Vex's
## side, every play put on the Cut, where the rival's units answer (the runtime's enemy
## response moves, on Pass). Targets lock when a card is activated; a lost target fizzles
## the effect; "all ~" cards collect their range again; some cards choose as they resolve.
##
## Targeting, the Cut and the choices are the addon's ([PyBridgeBattleView] with a
## [PyBridgeCutView]); this script adds the rest of the screen and prints the lines tools and
## tests read ([DemoLines]): [code]ready[/code] (with [code]"scene": "duel"[/code]),
## [code]layout[/code], [code]highlight[/code], [code]aim[/code], [code]target[/code],
## [code]cancelled[/code], [code]refused[/code], [code]activated[/code] and
## [code]passed[/code] (the runtime's exact responses), [code]cut[/code] (what the Cut view
## and the markers show, beside the runtime's answer, and why End Turn waits),
## [code]cut_tooltip[/code] (an entry's tooltip), [code]choice[/code] (a choice being
## made: its candidates, picks, prompt or pile picker), [code]step[/code], [code]turn[/code],
## [code]settled[/code], [code]result[/code], [code]error[/code].

## The duel's battle document, packed from pybridge/examples/duel_battle.json.
const BATTLE_FILE := "res://battle/duel_battle.json"
## The same document in a source checkout, relative to this project (desktop editor runs).
const CHECKOUT_BATTLE_FILE := "../pybridge/examples/duel_battle.json"
const YOUR_COLOR := Color("3d8fd1")
const RIVAL_COLOR := Color("d0583a")

var _battle_text: String = ""
var _toasts: DemoToast = null
var _result: DemoResult = null

@onready var _bridge: PyBridgeClient = $Bridge
@onready var _battle: PyBridgeBattleView = $Battle
@onready var _cut: PyBridgeCutView = $Cut
@onready var _enemy_area: Control = $Battle/Field/EnemyArea
@onready var _party_area: Control = $Battle/Field/PartyArea
@onready var _turn_label: Label = $TopBar/TurnLabel
@onready var _menu_button: Button = $TopBar/MenuButton
@onready var _restart_button: Button = $TopBar/RestartButton
@onready var _log: PyBridgeBattleLog = $LogPanel/Log
@onready var _energy_label: Label = $EnergyLabel
@onready var _end_turn_button: Button = $EndTurnButton
@onready var _end_turn_why: Label = $EndTurnWhy
@onready var _toast: Label = $Toast
@onready var _overlay: CanvasLayer = $Overlay
@onready var _overlay_root: Control = $Overlay/Root
@onready var _result_label: Label = $Overlay/Root/Box/Rows/Result
@onready var _detail_label: Label = $Overlay/Root/Box/Rows/Detail
@onready var _play_again_button: Button = $Overlay/Root/Box/Rows/PlayAgainButton
@onready var _overlay_menu_button: Button = $Overlay/Root/Box/Rows/MenuButton


func _ready() -> void:
	DemoTheme.use(self, DemoTheme.build_duel(), [_overlay_root])
	DemoArt.use(_battle)
	_toasts = DemoToast.new(_toast)
	_result = DemoResult.new(_overlay, _result_label, _detail_label)
	_restart_button.pressed.connect(_open)
	_play_again_button.pressed.connect(_open)
	DemoMenu.connect_buttons(self, [_menu_button, _overlay_menu_button])
	DemoMenu.add_key(_menu_button)  # M goes back to the start screen from anywhere in the duel
	_end_turn_button.pressed.connect(_battle.end_turn)
	DemoLines.follow_failures(_bridge, _log)
	_connect_battle()
	_battle_text = DemoBattleFile.read_or_say(BATTLE_FILE, CHECKOUT_BATTLE_FILE, _log)
	if not _battle_text.is_empty():
		_open()


func _draw() -> void:
	DemoTheme.draw_table(
		self,
		PackedColorArray([Color("10212a"), Color("1a1a30"), Color("0b0d18"), Color("0a1418")]),
		Color(0.05, 0.16, 0.16, 0.55)
	)
	var middle := _party_area.get_global_rect().position.y - 3.0
	draw_line(Vector2(24, middle), Vector2(880, middle), Color(1, 1, 1, 0.12), 2.0)
	DemoTheme.draw_side_name(self, _enemy_area, tr("RIVAL'S SIDE"), RIVAL_COLOR)
	DemoTheme.draw_side_name(self, _party_area, tr("YOUR SIDE"), YOUR_COLOR)


func _connect_battle() -> void:
	_battle.battle_started.connect(_on_battle_started)
	_battle.battle_state_changed.connect(_on_state_changed)
	_battle.layout_changed.connect(func() -> void: DemoLines.say("layout", _layout_points()))
	DemoSides.follow_plays(_battle, _bridge, _log, _toasts)
	_battle.aim_started.connect(_say_aim)
	_battle.aim_cancelled.connect(
		func(card_id: String) -> void: DemoLines.say("cancelled", {"card": card_id})
	)
	_battle.pass_answered.connect(
		func(_outcome: PyBridge.Outcome) -> void:
			DemoLines.say_raw("passed", _bridge.last_response_of("pass"))
	)
	_battle.cut_status_changed.connect(func(_status: PyBridge.CutStatus) -> void: _say_cut())
	_cut.tooltip_changed.connect(
		func(entry_id: String, _title: String, _text: String) -> void:
			var shown: Dictionary = _cut.shown()
			DemoLines.say("cut_tooltip", {"entry": entry_id, "tooltip": shown["tooltip"]})
	)
	_battle.choice_changed.connect(_say_choice)
	_battle.choice_ended.connect(
		func(choice: PyBridge.Choice, confirmed: bool) -> void:
			DemoLines.say(
				"choice_ended",
				{"source": choice.source_id(), "chosen": choice.chosen, "confirmed": confirmed}
			)
	)
	_battle.step_shown.connect(_on_step_shown)
	_battle.turn_finished.connect(
		func(state: PyBridge.BattleState) -> void:
			DemoLines.say("settled", {"turn": state.turn, "layout": _layout_points()})
	)
	_battle.tooltip_changed.connect(
		func(title: String, text: String) -> void:
			DemoLines.say("tooltip", {"title": title, "text": text})
	)


func _open() -> void:
	_result.hide()
	_log.clear()
	_cut.history.clear()
	_toasts.clear()
	_battle.open_battle_json(_battle_text)


func _on_battle_started(state: PyBridge.BattleState) -> void:
	_log.add_line(tr("The duel begins. Every play goes on the Cut."), "turn")
	_log.add_line(
		tr("Play a card, then Pass (Space): the rival may answer before it resolves."), "info"
	)
	(
		DemoLines
		. say(
			"ready",
			{
				"scene": "duel",
				"transport": _bridge.transport_name(),
				"session": _bridge.session,
				"turn": state.turn,
				"hand": DemoLines.hand_ids(state),
				"layout": _layout_points(),
			}
		)
	)


func _on_state_changed(state: PyBridge.BattleState) -> void:
	var side := state.side()  # the player's: the duel's only card-playing side
	_turn_label.text = tr("Turn %d") % state.turn
	_energy_label.text = tr("Energy %d / %d") % [side.energy, side.max_energy]
	_show_end_turn(state.is_over())
	if state.is_over() and not _result.is_shown():
		_show_result(state.result)
	queue_redraw()


func _on_step_shown(step: PyBridge.Step) -> void:
	if step.line != null:
		_log.add_lines([step.line])
	DemoLines.say(
		"step",
		{
			"line": step.line.text if step.line != null else "",
			"events": step.events.map(func(event: PyBridge.Event) -> String: return event.type),
			"ms": Time.get_ticks_msec(),
			"marks": _battle.target_marks.marks(),
			"entries": _cut.shown()["entries"],
			"status": _cut.status,
		}
	)


func _say_aim(card_id: String) -> void:
	await get_tree().process_frame  # the play area and its hint are drawn for the aim first
	var hint: Dictionary = _battle.display.zone_hint()
	var rect: Rect2 = hint["rect"]
	var box := [rect.position.x, rect.position.y, rect.size.x, rect.size.y]
	DemoLines.say(
		"aim",
		{"card": card_id, "hint": {"visible": hint["visible"], "text": hint["text"], "rect": box}}
	)


func _say_cut() -> void:
	_show_end_turn(_battle.is_battle_over())
	(
		DemoLines
		. say(
			"cut",
			{
				"answer": _battle.cut,
				"shown": _cut.shown(),
				"marks": _battle.target_marks.marks(),
				"hand": DemoLines.hand_ids(_battle.battle_state),
				"layout": _layout_points(),
				"end_turn":
				{
					"enabled": not _end_turn_button.disabled,
					"why": _end_turn_why.text,
					"tooltip": _end_turn_button.tooltip_text,
				},
			}
		)
	)


# End Turn waits while effects wait on the Cut, and says why in the runtime's words.
func _show_end_turn(over: bool) -> void:
	var reason: Variant = _battle.cut.get("end_turn_reason")
	var waits := not over and not bool(_battle.cut.get("can_end_turn", true))
	_end_turn_button.disabled = over or waits
	var why := str(reason) if waits and reason != null else ""
	_end_turn_why.text = tr("End Turn waits: %s") % why if not why.is_empty() else ""
	_end_turn_button.tooltip_text = why


func _say_choice(choice: PyBridge.Choice) -> void:
	await get_tree().process_frame  # the prompt or the picker lays out first
	(
		DemoLines
		. say(
			"choice",
			{
				"card": choice.card_id,
				"entry": choice.entry_id,
				"chooses": choice.chooses,
				"chosen": choice.chosen,
				"candidates": choice.candidates,
				"needed": choice.needed,
				"count": choice.count,
				"can_confirm": choice.can_confirm,
				"lit": _battle.lit_units,
				"arrow":
				{
					"visible": _battle.display.arrow.visible,
					"from": DemoLines.xy(_battle.display.arrow.start_point),
				},
				"marks": _battle.target_marks.marks(),
				"entries": _cut.shown()["entries"],
				"prompt": _battle.choice_prompt.shown(),
				"picker": _battle.pile_picker.shown(),
			}
		)
	)


func _show_result(result: String) -> void:
	var won := result == "victory"
	await _result.show(
		tr("Victory!") if won else tr("Defeat"),
		Color("ffd54a") if won else Color("ff6b6b"),
		tr("The rival's side is defeated.") if won else tr("Your side has fallen."),
		_play_again_button
	)
	(
		DemoLines
		. say(
			"result",
			{
				"result": result,
				"play_again": DemoLines.center_of(_play_again_button),
				"menu": DemoLines.center_of(_overlay_menu_button),
			}
		)
	)


func _layout_points() -> Dictionary:
	var points := DemoLines.duel_points(_battle, _cut, _end_turn_button, _menu_button, _enemy_area)
	points["restart"] = DemoLines.center_of(_restart_button)
	points["faces"] = _faces()
	return points


# What each unit view draws of its intent bubble (the sizes its two lines are drawn at, for
# tests to check that they fit) and its status chips.
func _faces() -> Dictionary:
	var found := {}
	for id: String in _battle.unit_views:
		var view: Control = _battle.unit_views[id]
		if not view.has_method(&"intent_lines"):
			continue
		var lines := []
		for line: Dictionary in view.call(&"intent_lines"):
			lines.append(
				{
					"text": line["text"],
					"size": line["size"],
					"width": line["width"],
					"room": line["room"]
				}
			)
		var chips := []
		for chip: Dictionary in view.call(&"status_chips"):
			chips.append(chip["label"])
		var local: Rect2 = view.call(&"intent_rect")
		var bubble := view.get_global_transform() * local
		found[id] = {
			"alive": view.call(&"is_alive"),
			"chips": chips,
			"bubble": [bubble.position.x, bubble.position.y, bubble.size.x, bubble.size.y],
			"lines": lines,
		}
	return found
