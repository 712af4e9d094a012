extends Control
## The demo's hot-seat duel: two players share the screen, Captain Aya and Kit against Vex and
## Rook, each side with its own hand, draw pile and energy, under the strict law. The side that
## acts now (the runtime's [code]cut[/code] answer names it: the turn side, or on the Cut the
## side holding priority) sees its own hand; the other side's hand is a count of card backs.
## Whenever the runtime hands the action to the other side, the screen is covered by a
## hand-over ("Pass the device to Vex") until that player takes it, so neither sees the
## other's cards.
## [br][br]
## The opening cover also offers a duel against the AI: then Vex's side is played by the
## search AI ([method PyBridgeClient.think], deciding from its own view only), with no cover:
## its hand stays card backs, a "Vex is thinking..." indicator ([PyBridgeThinkingIndicator])
## shows while it thinks, a slice a frame, and its plays are shown as they happen. Its budget
## is a setting ([member ai_budgets]: the button beside it cycles through them).
##
## Targeting, the Cut and the choices are the addon's ([PyBridgeBattleView] with its
## [member PyBridgeBattleView.side], and a [PyBridgeCutView]). It prints the lines tools and
## tests read ([DemoLines]): [code]ready[/code] (with [code]"scene": "rivals"[/code]),
## [code]handover[/code] (the device goes to a side), [code]seat[/code] (whose hand shows, the
## banner, the other hand's count, the layout), [code]highlight[/code], [code]aim[/code],
## [code]target[/code], [code]refused[/code], [code]activated[/code], [code]passed[/code] and
## [code]turn[/code] (the runtime's exact responses), [code]cut[/code], [code]step[/code],
## [code]settled[/code], [code]result[/code], [code]error[/code]; against the AI also
## [code]thinking[/code] (each slice searched, with the frame drawn and the indicator) and
## [code]ai_move[/code] (the AI's move, the operation sent and the runtime's exact response).

const HandSlot := preload("res://addons/pybridge_targeting/battle/pybridge_hand_slot.gd")
## The battle document, packed from pybridge/examples/rivals_battle.json.
const BATTLE_FILE := "res://battle/rivals_battle.json"
## The same document in a source checkout, relative to this project (desktop editor runs).
const CHECKOUT_BATTLE_FILE := "../pybridge/examples/rivals_battle.json"
## Each team's colour, as the Cut view colours its entries.
const TEAM_COLORS := {"player": Color("3d8fd1"), "enemy": Color("d0583a")}
## The side the AI plays in a duel against it, and the side at the device then.
const AI_SIDE := "enemy"
const HUMAN_SIDE := "player"

## The AI's budgets to choose from, in iterations of search a move. The default (70) is what
## fits about 200 ms a move on a desktop: [code]python -m pybridge.ai.match --bench-ms 200
## --games 0[/code].
@export var ai_budgets: PackedInt32Array = PackedInt32Array([15, 70, 200])
## The budget chosen from [member ai_budgets].
@export var ai_budget_index: int = 1
## Iterations the AI searches a frame: the page keeps drawing while it thinks.
@export_range(1, 100) var ai_slice: int = 4

var _battle_text: String = ""
var _toasts: DemoToast = null
var _result: DemoResult = null
## The side the device goes to ("" while no hand-over waits).
var _handing_to: String = ""
## True while the hand of the side that took the device is being shown.
var _seating: bool = false
## Whether Vex's side is played by the AI (kept through Restart and Play again).
var _vs_ai: bool = false
## True while the AI thinks of its moves or makes them.
var _ai_moving: bool = false
## Renewed by each new duel: an AI move of an older one is dropped.
var _duel: int = 0
## True until the first side takes the device: the opening cover offers the AI.
var _opening: bool = true
var _ticker: Timer = null
## The pile counters of both sides, opening the pile viewer as the side at the device.
var _piles: DemoRivalPiles = null

@onready var _bridge: PyBridgeClient = $Bridge
@onready var _battle: PyBridgeBattleView = $Battle
@onready var _cut: PyBridgeCutView = $Cut
@onready var _enemy_area: Control = $Battle/Field/EnemyArea
@onready var _party_area: Control = $Battle/Field/PartyArea
@onready var _turn_label: Label = $TopBar/TurnLabel
@onready var _banner: Label = $TopBar/Banner
@onready var _menu_button: Button = $TopBar/MenuButton
@onready var _restart_button: Button = $TopBar/RestartButton
@onready var _log: PyBridgeBattleLog = $LogPanel/Log
@onready var _backs_label: Label = $OtherHand/Rows/Label
@onready var _backs: DemoCardBacks = $OtherHand/Rows/Backs
@onready var _own_piles: Container = $OwnPiles
@onready var _other_piles: Container = $OtherHand/Rows/Piles
@onready var _energy_label: Label = $EnergyLabel
@onready var _end_turn_button: Button = $EndTurnButton
@onready var _toast: Label = $Toast
@onready var _handover: CanvasLayer = $Handover
@onready var _handover_root: Control = $Handover/Root
@onready var _handover_title: Label = $Handover/Root/Box/Rows/Title
@onready var _handover_detail: Label = $Handover/Root/Box/Rows/Detail
@onready var _handover_button: Button = $Handover/Root/Box/Rows/TakeButton
@onready var _ai_row: Control = $Handover/Root/Box/Rows/AiRow
@onready var _ai_button: Button = $Handover/Root/Box/Rows/AiRow/AiButton
@onready var _budget_button: Button = $Handover/Root/Box/Rows/AiRow/BudgetButton
@onready var _rules_label: Label = $TopBar/Rules
@onready var _thinking: PyBridgeThinkingIndicator = $Thinking
@onready var _overlay: CanvasLayer = $Overlay
@onready var _overlay_root: Control = $Overlay/Root
@onready var _result_label: Label = $Overlay/Root/Box/Rows/Result
@onready var _detail_label: Label = $Overlay/Root/Box/Rows/Detail
@onready var _play_again_button: Button = $Overlay/Root/Box/Rows/PlayAgainButton
@onready var _overlay_menu_button: Button = $Overlay/Root/Box/Rows/MenuButton


func _ready() -> void:
	DemoTheme.use(self, DemoTheme.build_duel(), [_overlay_root, _handover_root])
	DemoArt.use(_battle)
	_toasts = DemoToast.new(_toast)
	_result = DemoResult.new(_overlay, _result_label, _detail_label)
	_restart_button.pressed.connect(_open)
	_play_again_button.pressed.connect(_open)
	DemoMenu.connect_buttons(self, [_menu_button, _overlay_menu_button])
	DemoMenu.add_key(_menu_button)
	_handover_button.pressed.connect(_take_device)
	_ai_button.pressed.connect(_choose_ai)
	_budget_button.pressed.connect(_next_budget)
	_show_budget()
	_bridge.thinking_changed.connect(func(_thinking_now: bool) -> void: _say_thinking())
	_bridge.think_progressed.connect(func(_searched: int, _of: int) -> void: _say_thinking())
	_end_turn_button.pressed.connect(_battle.end_turn)
	DemoLines.follow_failures(_bridge, _log)
	_connect_battle()
	_piles = DemoRivalPiles.new(_battle, _own_piles, _other_piles)
	_battle_text = DemoBattleFile.read_or_say(BATTLE_FILE, CHECKOUT_BATTLE_FILE, _log)
	if not _battle_text.is_empty():
		_open()


func _input(event: InputEvent) -> void:
	if _ai_moving:
		_hold_while_ai_moves(event)
		return
	# While the device changes hands no key reaches the battle behind the cover: Enter or
	# Space takes the device, A plays against the AI (on the opening cover), M still goes
	# back to the menu.
	if not _handover.visible or not event is InputEventKey:
		return
	var key := event as InputEventKey
	get_viewport().set_input_as_handled()
	if not key.pressed or key.echo:
		return
	if key.keycode in [KEY_ENTER, KEY_KP_ENTER, KEY_SPACE]:
		_take_device()
	elif key.keycode == KEY_A and _ai_row.visible:
		_choose_ai()
	elif key.keycode == KEY_M:
		DemoMenu.back(self)


## While the AI moves the player's input waits, except the top bar (Menu, Restart), M and
## Escape (which skips the playback of the AI's move).
func _hold_while_ai_moves(event: InputEvent) -> void:
	if event is InputEventMouseButton and (event as InputEventMouseButton).position.y < 48.0:
		return
	if event is InputEventKey and (event as InputEventKey).keycode in [KEY_M, KEY_ESCAPE]:
		return
	if event is InputEventMouseButton or event is InputEventKey:
		get_viewport().set_input_as_handled()


func _draw() -> void:
	DemoTheme.draw_table(
		self,
		PackedColorArray([Color("1a1630"), Color("231a2e"), Color("0b0d18"), Color("0e1222")]),
		Color(0.09, 0.1, 0.2, 0.55)
	)
	var middle := _party_area.get_global_rect().position.y - 3.0
	draw_line(Vector2(24, middle), Vector2(880, middle), Color(1, 1, 1, 0.12), 2.0)
	if _battle.battle_state == null:
		return
	for team: String in TEAM_COLORS:
		var area := _party_area if team == "player" else _enemy_area
		var text := tr("%s'S SIDE") % DemoSides.name_of(_battle, team).to_upper()
		if team == _battle.side and not _battle.visible:
			text = ""
		elif team == _battle.side:
			text += "  ·  " + tr("AT THE DEVICE")
		elif _vs_ai and team == AI_SIDE:
			text += "  ·  " + tr("PLAYED BY THE AI")
		DemoTheme.draw_side_name(self, area, text, TEAM_COLORS[team])


func _connect_battle() -> void:
	_battle.battle_started.connect(_on_battle_started)
	_battle.battle_state_changed.connect(_on_state_changed)
	DemoSides.follow_plays(_battle, _bridge, _log, _toasts)
	_battle.aim_started.connect(
		func(card_id: String) -> void: DemoLines.say("aim", {"card": card_id})
	)
	_battle.pass_answered.connect(
		func(_outcome: PyBridge.Outcome) -> void:
			DemoLines.say_raw("passed", _bridge.last_response_of("pass"))
	)
	_battle.cut_status_changed.connect(func(_status: PyBridge.CutStatus) -> void: _say_cut())
	_battle.step_shown.connect(
		func(step: PyBridge.Step) -> void:
			if step.line != null:
				_log.add_lines([step.line])
			var text := step.line.text if step.line != null else ""
			DemoLines.say("step", {"line": text, "events": step.events.size()})
	)
	_battle.turn_finished.connect(
		func(state: PyBridge.BattleState) -> void: DemoLines.say("settled", {"turn": state.turn})
	)


func _open() -> void:
	_duel += 1
	_bridge.stop_thinking()
	_ai_moving = false
	_result.hide()
	_handover.hide()
	_opening = true
	_handing_to = ""
	_log.clear()
	_cut.history.clear()
	_toasts.clear()
	_battle.side = ""  # nobody's hand until a player takes the device
	_battle.hide()
	_battle.open_battle_json(_battle_text)


func _on_battle_started(_state: PyBridge.BattleState) -> void:
	if _vs_ai:
		_log.add_line(tr("Duel against the AI: %s's side thinks for itself.") % _ai_name(), "turn")
	else:
		_log.add_line(tr("Hot-seat duel: two players share this screen."), "turn")
	_log.add_line(
		tr("Each plays from their own hand; the other may answer on the Cut, then Pass."), "info"
	)
	var sides := {}
	for team: String in TEAM_COLORS:
		sides[team] = DemoSides.name_of(_battle, team)
	(
		DemoLines
		. say(
			"ready",
			{
				"scene": "rivals",
				"transport": _bridge.transport_name(),
				"session": _bridge.session,
				"turn": _battle.battle_state.turn,
				"sides": sides,
				"ai": _vs_ai,
			}
		)
	)


func _on_state_changed(state: PyBridge.BattleState) -> void:
	_turn_label.text = tr("Turn %d") % state.turn
	if state.is_over():
		_handover.hide()
		_battle.show()
		_show_seat()
		if not _result.is_shown():
			_show_result(state.result)
		return
	if _seating:
		return  # the side that took the device: shown once its hand is
	if _vs_ai:
		if _battle.side != HUMAN_SIDE:
			_seat_player()
			return
		_show_seat()
		_ai_turn.call_deferred()
		return
	# Who acts now is the runtime's answer; a different side than the one at the device
	# means the device changes hands.
	var acting := str(_battle.cut.get("side", ""))
	if acting != _battle.side:
		_begin_handover(acting)
	elif not _handover.visible:
		_show_seat()


func _begin_handover(team: String) -> void:
	_handing_to = team
	_battle.hide()  # the hand of the side that just acted goes under the cover too
	var name := DemoSides.name_of(_battle, team)
	_handover_title.text = tr("Pass the device to %s") % name
	_handover_title.add_theme_color_override("font_color", TEAM_COLORS.get(team, Color.WHITE))
	_handover_detail.text = (
		_whose_move(team) + "\n" + tr("%s's hand stays hidden until then.") % name
	)
	_handover_button.text = tr("I am %s: show my hand (Enter)") % name
	# The opening cover offers the duel against the AI (nothing has been played yet).
	_ai_row.visible = _opening and team == HUMAN_SIDE
	_handover.show()
	_handover_button.grab_focus()
	queue_redraw()
	await get_tree().process_frame
	if _handing_to != team:
		return
	(
		DemoLines
		. say(
			"handover",
			{
				"side": team,
				"name": name,
				"title": _handover_title.text,
				"detail": _handover_detail.text,
				"take": DemoLines.center_of(_handover_button),
				"battle_visible": _battle.is_visible_in_tree(),
				"ai": DemoLines.center_of(_ai_button) if _ai_row.visible else [],
				"budget": DemoLines.center_of(_budget_button) if _ai_row.visible else [],
				"budget_text": _budget_button.text,
			}
		)
	)


func _take_device() -> void:
	if _handing_to.is_empty() or _battle.is_busy():
		return
	var team := _handing_to
	_handing_to = ""
	_opening = false
	_seating = true
	await _battle.show_side(team)  # under the cover until its hand is there
	_seating = false
	_handover.hide()
	_battle.show()
	_show_seat()


## Plays against the AI from now on (the opening cover's choice): Aya's side takes the device
## and keeps it; Vex's side is the AI's.
func _choose_ai() -> void:
	if not _opening or _handing_to != HUMAN_SIDE:
		return
	_vs_ai = true
	_rules_label.text = tr("against the AI · strict law")
	await _take_device()
	_ai_turn()


## Cycles the AI's budget through [member ai_budgets].
func _next_budget() -> void:
	ai_budget_index = (ai_budget_index + 1) % ai_budgets.size()
	_show_budget()
	DemoLines.say("budget", {"iterations": _budget(), "text": _budget_button.text})


func _show_budget() -> void:
	_budget_button.text = tr("%s thinks: %d iterations a move (B)") % [_ai_name(), _budget()]
	var key := InputEventKey.new()
	key.keycode = KEY_B
	_budget_button.shortcut = Shortcut.new()
	_budget_button.shortcut.events = [key]


func _budget() -> int:
	return ai_budgets[clampi(ai_budget_index, 0, ai_budgets.size() - 1)]


## Shows the hand of the side at the device in a duel against the AI (no cover: the AI never
## looks at the screen).
func _seat_player() -> void:
	_seating = true
	await _battle.show_side(HUMAN_SIDE)
	_seating = false
	_battle.show()
	_show_seat()
	_ai_turn.call_deferred()


## Lets the AI make its moves while it acts (the runtime's [code]cut[/code] answer names who
## does), one after the other, each once the view has shown the one before.
func _ai_turn() -> void:
	if _ai_moving or not _vs_ai:
		return
	_ai_moving = true
	var duel := _duel
	while duel == _duel and _acting_is_ai():
		while _battle.is_busy() and duel == _duel:
			await _next_frame()
		if duel != _duel or not _acting_is_ai() or not await _ai_move(duel):
			break
	if duel == _duel:
		_ai_moving = false
		_show_seat()


# The next frame drawn, on a timer of the scene's own: a wait of a scene left for the menu is never
# resumed (one waiting on the tree would be, and fail).
func _next_frame() -> void:
	if _ticker == null:
		_ticker = Timer.new()
		_ticker.one_shot = true
		_ticker.wait_time = 0.001
		add_child(_ticker)
	var frame := Engine.get_frames_drawn()
	while Engine.get_frames_drawn() == frame:  # a timer may end within the frame it began in
		_ticker.start()
		await _ticker.timeout


func _acting_is_ai() -> bool:
	return _vs_ai and not _battle.is_battle_over() and str(_battle.cut.get("side", "")) == AI_SIDE


## One move of the AI: it thinks a slice a frame, then its move is made with the runtime's
## own operation and shown as the player's moves are. False when nothing was made.
func _ai_move(duel: int) -> bool:
	_banner.text = tr("%s is thinking...") % _ai_name()
	_thinking.text = _banner.text
	var thought: Dictionary = await _bridge.think(_budget(), randi(), ai_slice, {"side": AI_SIDE})
	if duel != _duel or thought.is_empty():
		return false
	var move: Dictionary = thought.get("move", {})
	var kind := str(move.get("kind", ""))
	var fields := {"session": _bridge.session, "side": AI_SIDE}
	if move.get("card") != null:
		fields["card"] = move["card"]
	if move.get("target") != null:
		fields["target"] = move["target"]
	# A card goes on the Cut as the player's do, so the player may answer it; the AI's
	# search counts it played at once (docs/ai.md).
	var op := "activate" if kind == "play" else kind
	_banner.text = _ai_move_words()
	var result: Dictionary = await _bridge.ask(op, fields)
	DemoLines.say_raw(
		"ai_move",
		(
			'{"op":%s,"move":%s,"decision":%s,"response":%s}'
			% [
				JSON.stringify(op),
				JSON.stringify(move),
				JSON.stringify(thought.get("decision", {})),
				_bridge.last_response_of(op)
			]
		)
	)
	if duel != _duel or result.is_empty():
		return false
	if op == "activate":
		_log.add_lines(result.get("log", []))
		await _battle.settle_play(result, op)
	else:
		await _battle.play_back(result, op)
	return duel == _duel


func _say_thinking() -> void:
	(
		DemoLines
		. say(
			"thinking",
			{
				"thinking": _bridge.thinking,
				"progress": _bridge.think_progress,
				"frame": Engine.get_frames_drawn(),
				"indicator": _thinking.shown(),
			}
		)
	)


## The name of the side the AI plays.
func _ai_name() -> String:
	return DemoSides.name_of(_battle, AI_SIDE) if _battle.battle_state != null else tr("Vex")


## The banner's words while the AI makes its move: its turn, or its answer on the Cut.
func _ai_move_words() -> String:
	if _battle.cut.get("cut", []).is_empty():
		return tr("%s's move") % _ai_name()
	return tr("%s answers on the Cut") % _ai_name()


## Shows whose hand is at the device, the banner, the other side's hand as card backs and
## the energy of the side at the device, and prints the [code]seat[/code] line.
func _show_seat() -> void:
	var team := _battle.side
	var other := DemoSides.other_of(_battle, team)
	var seat := DemoSides.of(_battle, team)
	var acting := str(_battle.cut.get("side", ""))
	_banner.text = _whose_move(team)
	if _vs_ai and acting == AI_SIDE and not _battle.is_battle_over():
		_banner.text = _ai_move_words()
	_banner.add_theme_color_override(
		"font_color", (TEAM_COLORS.get(team, Color.WHITE) as Color).lightened(0.3)
	)
	_backs.show_hand_of(_battle, other, TEAM_COLORS.get(other, Color.GRAY), _backs_label)
	_energy_label.text = tr("Energy %d / %d") % [seat.energy, seat.max_energy]
	_end_turn_button.disabled = (
		_battle.is_battle_over()
		or not bool(_battle.cut.get("can_end_turn", true))
		or (_vs_ai and acting == AI_SIDE)
	)
	queue_redraw()
	_piles.show_for(team, other, TEAM_COLORS.get(team, Color.WHITE))
	await get_tree().process_frame  # the hand lays out first
	DemoLines.say(
		"seat",
		{
			"side": team,
			"acting": _battle.cut.get("side", ""),
			"banner": _banner.text,
			"hand": _battle.hand_slots.map(func(slot: HandSlot) -> String: return slot.card_id),
			"other": other,
			"backs": _backs.count,
			"backs_text": _backs_label.text,
			"energy": _energy_label.text,
			"layout": _layout_points(),
		}
	)
	# Against the AI: the player's move awaits (or the duel is over) once the AI is done.
	var ready_for_player := str(_battle.cut.get("side", "")) == HUMAN_SIDE and not _ai_moving
	if _vs_ai and not _battle.is_busy() and (ready_for_player or _battle.is_battle_over()):
		DemoLines.say(
			"your_move", {"over": _battle.is_battle_over(), "turn": _battle.battle_state.turn}
		)


## The banner's words for [param team] at the device: its turn, or its priority on the Cut.
func _whose_move(team: String) -> String:
	var name := DemoSides.name_of(_battle, team)
	if _battle.cut.get("cut", []).is_empty():
		return tr("%s's side: your turn") % name
	return tr("%s's side: your answer on the Cut") % name


func _say_cut() -> void:
	_end_turn_button.disabled = not bool(_battle.cut.get("can_end_turn", true))
	DemoLines.say("cut", {"answer": _battle.cut, "shown": _cut.shown()})


func _show_result(result: String) -> void:
	# The format's result is the player team's: victory when no enemy stands.
	var winner := "player" if result == "victory" else "enemy"
	var loser := DemoSides.name_of(_battle, DemoSides.other_of(_battle, winner))
	await _result.show(
		tr("%s's side wins!") % DemoSides.name_of(_battle, winner),
		(TEAM_COLORS[winner] as Color).lightened(0.35),
		tr("Every unit of %s's side has fallen.") % loser,
		_play_again_button
	)
	(
		DemoLines
		. say(
			"result",
			{
				"result": result,
				"title": _result_label.text,
				"detail": _detail_label.text,
				"play_again": DemoLines.center_of(_play_again_button),
				"menu": DemoLines.center_of(_overlay_menu_button),
			}
		)
	)


func _layout_points() -> Dictionary:
	var points := DemoLines.duel_points(_battle, _cut, _end_turn_button, _menu_button, _enemy_area)
	points["restart"] = DemoLines.center_of(_restart_button)
	return points
