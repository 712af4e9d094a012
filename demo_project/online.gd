extends Control
## The rivals duel played online: this screen is one seat of a [code]pybridge serve --ws[/code]
## match (docs/online.md), the other seat another screen anywhere the server is reachable.
## The lobby takes the server's address and creates a match (this seat is Captain Aya's
## side) or joins one by its name (Vex's side); a seat left by Menu, or by reloading the page,
## can be resumed with its token. The other side's hand shows as card backs, and its plays
## are revealed as the server reports them: their log lines, then their events played back.
##
## Targeting, the Cut and the choices are the addon's ([PyBridgeBattleView] with its
## [member PyBridgeBattleView.side] set to this seat, a [PyBridgeCutView]), over the
## [PyBridgeClient]'s WebSocket transport. It prints the lines tools and tests read
## ([DemoLines]): [code]ready[/code] ([code]"scene": "online"[/code], its [code]lobby[/code]
## points), [code]joined[/code] (the match, seat and whether it resumed), [code]seat[/code]
## (the hand, the other hand's count, the layout), [code]revealed[/code] (the other side's
## play), [code]connection[/code] (the socket closed), [code]resumed[/code],
## [code]highlight[/code], [code]activated[/code], [code]passed[/code], [code]turn[/code],
## [code]cut[/code], [code]refused[/code], [code]result[/code], [code]error[/code].

const HandSlot := preload("res://addons/pybridge_targeting/battle/pybridge_hand_slot.gd")
## Each team's colour, as the Cut view colours its entries.
const TEAM_COLORS := {"player": Color("3d8fd1"), "enemy": Color("d0583a")}
## The server's address until another is typed.
const DEFAULT_SERVER := "ws://127.0.0.1:8765"
## Where a web page keeps its seat across a reload (this tab's own storage).
const STORAGE_KEY := "pybridge_online_seat"

## The seat this game holds in a match ({server, match, seat, token}), kept while the game
## runs so Menu and back resumes it (on the web, the tab's storage keeps it across a reload).
static var saved: Dictionary = {}

var _seat: String = ""
var _queue: Array[Dictionary] = []
var _revealing: bool = false
var _toasts: DemoToast = null
var _result: DemoResult = null

@onready var _bridge: PyBridgeClient = $Bridge
@onready var _battle: PyBridgeBattleView = $Battle
@onready var _cut: PyBridgeCutView = $Cut
@onready var _enemy_area: Control = $Battle/Field/EnemyArea
@onready var _party_area: Control = $Battle/Field/PartyArea
@onready var _rules: Label = $TopBar/Rules
@onready var _turn_label: Label = $TopBar/TurnLabel
@onready var _banner: Label = $TopBar/Banner
@onready var _menu_button: Button = $TopBar/MenuButton
@onready var _leave_button: Button = $TopBar/RestartButton
@onready var _log: PyBridgeBattleLog = $LogPanel/Log
@onready var _backs_label: Label = $OtherHand/Rows/Label
@onready var _backs: DemoCardBacks = $OtherHand/Rows/Backs
@onready var _energy_label: Label = $EnergyLabel
@onready var _end_turn_button: Button = $EndTurnButton
@onready var _toast: Label = $Toast
@onready var _lobby: CanvasLayer = $Lobby
@onready var _lobby_root: Control = $Lobby/Root
@onready var _server_field: LineEdit = $Lobby/Root/Box/Rows/Server
@onready var _match_field: LineEdit = $Lobby/Root/Box/Rows/Match
@onready var _create_button: Button = $Lobby/Root/Box/Rows/Buttons/CreateButton
@onready var _join_button: Button = $Lobby/Root/Box/Rows/Buttons/JoinButton
@onready var _resume_button: Button = $Lobby/Root/Box/Rows/ResumeButton
@onready var _status: Label = $Lobby/Root/Box/Rows/Status
@onready var _overlay: CanvasLayer = $Overlay
@onready var _overlay_root: Control = $Overlay/Root
@onready var _result_label: Label = $Overlay/Root/Box/Rows/Result
@onready var _detail_label: Label = $Overlay/Root/Box/Rows/Detail
@onready var _play_again_button: Button = $Overlay/Root/Box/Rows/PlayAgainButton
@onready var _overlay_menu_button: Button = $Overlay/Root/Box/Rows/MenuButton


func _ready() -> void:
	DemoTheme.use(self, DemoTheme.build_duel(), [_overlay_root, _lobby_root])
	DemoArt.use(_battle)
	_toasts = DemoToast.new(_toast)
	_result = DemoResult.new(_overlay, _result_label, _detail_label)
	_play_again_button.hide()  # a new match is made in the lobby
	DemoMenu.connect_buttons(self, [_menu_button, _overlay_menu_button], _to_menu)
	DemoMenu.add_key(_menu_button)
	_leave_button.pressed.connect(_leave)
	_end_turn_button.pressed.connect(_battle.end_turn)
	_create_button.pressed.connect(_enter.bind("create"))
	_join_button.pressed.connect(_enter.bind("join"))
	_resume_button.pressed.connect(_enter.bind("resume"))
	for field: LineEdit in [_server_field, _match_field]:
		var name := "server" if field == _server_field else "match"
		field.focus_entered.connect(func() -> void: DemoLines.say("focus", {"field": name}))
		field.text_changed.connect(
			func(text: String) -> void: DemoLines.say("field", {"field": name, "text": text})
		)
	_bridge.request_failed.connect(_on_request_failed)
	_bridge.update_received.connect(_on_update)
	_bridge.seat_resumed.connect(_on_resumed)
	_bridge.connection_closed.connect(_on_closed)
	_connect_battle()
	_battle.hide()
	if saved.is_empty():
		saved = _stored_seat()
	_server_field.text = str(saved.get("server", DEFAULT_SERVER))
	_resume_button.visible = not saved.is_empty()
	if not saved.is_empty():
		_resume_button.text = (
			tr("Resume match %s as %s (R)") % [saved["match"], _team_name(str(saved["seat"]))]
		)
	_create_button.grab_focus()
	await get_tree().process_frame
	(
		DemoLines
		. say(
			"ready",
			{
				"scene": "online",
				"saved": {"match": saved.get("match", ""), "seat": saved.get("seat", "")},
				"lobby":
				{
					"server": DemoLines.center_of(_server_field),
					"match": DemoLines.center_of(_match_field),
					"create": DemoLines.center_of(_create_button),
					"join": DemoLines.center_of(_join_button),
					"resume": DemoLines.center_of(_resume_button),
				},
			}
		)
	)


func _unhandled_key_input(event: InputEvent) -> void:
	var key := event as InputEventKey
	if key == null or not key.pressed or key.echo or not _lobby.visible:
		return
	if key.keycode == KEY_R and _resume_button.visible:
		_enter("resume")


func _draw() -> void:
	DemoTheme.draw_table(
		self,
		PackedColorArray([Color("1a1630"), Color("231a2e"), Color("0b0d18"), Color("0e1222")]),
		Color(0.09, 0.1, 0.2, 0.55)
	)
	if _battle.battle_state == null:
		return
	for team: String in TEAM_COLORS:
		var area := _party_area if team == "player" else _enemy_area
		var text := tr("%s'S SIDE") % DemoSides.name_of(_battle, team).to_upper()
		if team == _seat:
			text += "  ·  " + tr("YOU")
		DemoTheme.draw_side_name(self, area, text, TEAM_COLORS[team])


## Creates, joins or resumes a seat ([param how]) on the server the lobby names.
func _enter(how: String) -> void:
	if _battle.is_busy():
		return
	var server := _server_field.text.strip_edges()
	_bridge.disconnect_transport()
	_bridge.server_url = server
	_bridge.online_match = _match_field.text.strip_edges() if how == "join" else ""
	# Which seat the server gives: the creator's is the first, a joiner's the free one.
	_seat = {"create": "player", "join": "enemy"}.get(how, str(saved.get("seat", "")))
	if how == "resume":
		_bridge.resume_seat(str(saved["match"]), str(saved["token"]))
	_status.text = tr("Connecting to %s...") % server
	DemoLines.say("connecting", {"server": server, "how": how, "match": _bridge.online_match})
	_battle.side = _seat
	if not await _battle.open_battle_json("{}"):
		_status.text = tr("No seat: %s") % str(_bridge.last_error.get("message", ""))
		DemoLines.say("no_seat", _bridge.last_error)
		return
	var link := _bridge.online
	if link.seat != _seat:  # the server gave another seat than asked for
		_seat = link.seat
		await _battle.show_side(_seat)
	saved = {"server": server, "match": link.match_name, "seat": _seat, "token": link.token}
	_store_seat(saved)
	_lobby.hide()
	_battle.show()
	_rules.text = tr("online · match %s") % link.match_name
	_log.add_line(
		tr("Match %s: you play %s's side.") % [link.match_name, DemoSides.name_of(_battle, _seat)],
		"turn"
	)
	DemoLines.say(
		"joined",
		{"match": link.match_name, "seat": _seat, "resumed": how == "resume", "step": link.step}
	)
	_show_seat()


func _leave() -> void:
	# Leaving gives the seat up for good: no Resume for it any more.
	saved = {}
	_store_seat({})
	_to_menu()


func _to_menu() -> void:
	_bridge.disconnect_transport()
	DemoMenu.back(self)


func _connect_battle() -> void:
	_battle.battle_state_changed.connect(_on_state_changed)
	DemoSides.follow_plays(_battle, _bridge, _log, _toasts)
	_battle.pass_answered.connect(
		func(outcome: PyBridge.Outcome) -> void:
			_log.add_lines(outcome.log_lines)
			DemoLines.say_raw("passed", _bridge.last_response_of("pass"))
	)
	_battle.cut_status_changed.connect(
		func(_status: PyBridge.CutStatus) -> void:
			DemoLines.say("cut", {"answer": _battle.cut, "shown": _cut.shown()})
	)


## An update of the match: this seat's own intents are answered to the view already; the
## other side's plays are revealed in the order they happened.
func _on_update(update: Dictionary) -> void:
	if str(update.get("by", "")) == _seat:
		return
	_queue.append(update)
	if _revealing:
		return
	_revealing = true
	while not _queue.is_empty():
		while _battle.is_busy():
			await get_tree().process_frame
		var next: Dictionary = _queue.pop_front()
		_log.add_lines(next.get("log", []))
		var texts: Array[String] = []
		for line: Variant in next.get("log", []):
			texts.append(str(line.get("text", "")) if line is Dictionary else str(line))
		DemoLines.say(
			"revealed",
			{
				"by": next.get("by"),
				"step": next.get("step"),
				"log": texts,
				"events": next.get("events", []).size()
			}
		)
		await _battle.play_back(next)
	_revealing = false


func _on_resumed(view: Dictionary) -> void:
	_queue.clear()  # the view is newer than any update still waiting
	_log.add_line(tr("Connected again: the seat is yours."), "info")
	_toasts.flash(tr("Connected again."), 1.2)
	DemoLines.say("resumed", {"match": _bridge.online.match_name, "seat": _seat})
	await _battle.apply_state(view)


func _on_closed(code: int, reason: String) -> void:
	DemoLines.say("connection", {"code": code, "reason": reason})
	if code == PyBridge.WebSocketLink.TAKEN_OVER:
		_toasts.flash(tr("This seat is played elsewhere now."), 4.0)
	elif not _lobby.visible:
		_toasts.flash(tr("Connection lost: connecting again..."), 2.0)


func _on_state_changed(state: PyBridge.BattleState) -> void:
	_turn_label.text = tr("Turn %d") % state.turn
	_show_seat()
	if state.is_over() and not _result.is_shown():
		_show_result(state.result)


## Shows this seat's banner, the other side's hand as card backs and the energies, and
## prints the [code]seat[/code] line.
func _show_seat() -> void:
	if _seat.is_empty() or _battle.battle_state == null:
		return
	var other := DemoSides.other_of(_battle, _seat)
	var mine := DemoSides.of(_battle, _seat)
	var acting := str(_battle.cut.get("side", ""))
	if _battle.is_battle_over():
		_banner.text = tr("The match is over")
	elif acting == _seat:
		_banner.text = _whose_move()
	else:
		_banner.text = tr("%s is playing...") % DemoSides.name_of(_battle, other)
	_banner.add_theme_color_override(
		"font_color", (TEAM_COLORS.get(acting, Color.WHITE) as Color).lightened(0.3)
	)
	_backs.show_hand_of(_battle, other, TEAM_COLORS.get(other, Color.GRAY), _backs_label)
	_energy_label.text = tr("Energy %d / %d") % [mine.energy, mine.max_energy]
	_end_turn_button.disabled = (
		acting != _seat
		or _battle.is_battle_over()
		or not bool(_battle.cut.get("can_end_turn", true))
	)
	queue_redraw()
	await get_tree().process_frame  # the hand lays out first
	var hand: Array[Dictionary] = []
	for card: PyBridge.Card in mine.hand:
		hand.append({"id": card.id, "card": card.card if not card.is_back() else null})
	DemoLines.say(
		"seat",
		{
			"side": _seat,
			"acting": acting,
			"banner": _banner.text,
			"hand": hand,
			"shown": _battle.hand_slots.map(func(slot: HandSlot) -> String: return slot.card_id),
			"backs": _backs.count,
			"backs_text": _backs_label.text,
			"energy": _energy_label.text,
			"step": _bridge.online.step if _bridge.online != null else 0,
			"hp": _hit_points(),
			"layout": _layout_points(),
		}
	)


## Every unit's hit points as this seat sees them ({unit id: hp}).
func _hit_points() -> Dictionary:
	var points := {}
	for unit: PyBridge.Unit in _battle.battle_state.units:
		points[unit.id] = unit.hp
	return points


func _whose_move() -> String:
	if _battle.cut.get("cut", []).is_empty():
		return tr("Your turn")
	return tr("Your answer on the Cut")


## A seat's name before any state is shown (the lobby's Resume).
func _team_name(team: String) -> String:
	return {"player": tr("Captain Aya's side"), "enemy": tr("Vex's side")}.get(team, team)


func _on_request_failed(code: String, message: String) -> void:
	DemoLines.say("error", {"code": code, "message": message})
	_log.add_line(tr("Refused: %s") % message, "error")


func _show_result(result: String) -> void:
	# The format's result is the player team's: victory when no enemy stands.
	var winner := "player" if result == "victory" else "enemy"
	saved = {}  # the match is over: nothing to resume
	_store_seat({})
	var loser := DemoSides.name_of(_battle, DemoSides.other_of(_battle, winner))
	await _result.show(
		(
			tr("You win!")
			if winner == _seat
			else tr("%s's side wins.") % DemoSides.name_of(_battle, winner)
		),
		(TEAM_COLORS[winner] as Color).lightened(0.35),
		tr("Every unit of %s's side has fallen.") % loser,
		_overlay_menu_button
	)
	(
		DemoLines
		. say(
			"result",
			{
				"result": result,
				"seat": _seat,
				"title": _result_label.text,
				"menu": DemoLines.center_of(_overlay_menu_button),
			}
		)
	)


func _layout_points() -> Dictionary:
	return DemoLines.duel_points(_battle, _cut, _end_turn_button, _menu_button, _enemy_area)


## The seat the web page's tab kept (its session storage survives a reload, and is the tab's
## own: another tab of the same page holds the other seat).
static func _stored_seat() -> Dictionary:
	if not OS.has_feature("web"):
		return {}
	var text: Variant = JavaScriptBridge.eval(
		"window.sessionStorage.getItem('%s') || ''" % STORAGE_KEY, true
	)
	var found: Variant = JSON.parse_string(str(text)) if str(text) != "" else null
	if found is Dictionary and found.has("token") and found.has("match"):
		return found
	return {}


static func _store_seat(seat: Dictionary) -> void:
	if not OS.has_feature("web"):
		return
	if seat.is_empty():
		JavaScriptBridge.eval("window.sessionStorage.removeItem('%s')" % STORAGE_KEY, true)
		return
	# The JSON text as a JS string literal (JSON.stringify of a String quotes and escapes it).
	var literal := JSON.stringify(JSON.stringify(seat))
	JavaScriptBridge.eval("window.sessionStorage.setItem('%s', %s)" % [STORAGE_KEY, literal], true)
