@tool
extends RefCounted
## How a [PyBridgeBattleView] hands its parts their context: each part is given, when it is
## made, exactly the other parts and nodes it works with and Callables for the few questions
## it asks the view, never the view itself; what a part tells, it tells by its own signals,
## which the view relays as its own (battle/pybridge_relay.gd) or, for a request to the view
## ([code]..._asked[/code]), this wiring connects to what answers it. The view's members such a
## part used are read here instead (tests/test_addon_api.py counts what each part reads).

const BattleData := preload("res://addons/pybridge_targeting/battle/pybridge_battle_data.gd")
const BattleAim := preload("res://addons/pybridge_targeting/battle/pybridge_battle_aim.gd")
const BattleInput := preload("res://addons/pybridge_targeting/battle/pybridge_battle_input.gd")
const CutFlow := preload("res://addons/pybridge_targeting/battle/pybridge_cut_flow.gd")
const AimDisplay := preload("res://addons/pybridge_targeting/drawing/pybridge_aim_display.gd")
const BattleStage := preload("res://addons/pybridge_targeting/battle/pybridge_battle_stage.gd")
const Relay := preload("res://addons/pybridge_targeting/battle/pybridge_relay.gd")
const TurnPlayback := preload("res://addons/pybridge_targeting/battle/pybridge_turn_playback.gd")


## A playback of [param result] (the answer to [param op]) on [param view], its signals
## relayed as the view's.
static func playback(view: PyBridgeBattleView, result: Dictionary, op: String) -> TurnPlayback:
	var units: Array = view.state.get("units", [])
	var made := TurnPlayback.new(result, op, view, units, view.schema)
	made.step_seconds = view.step_seconds
	made.quiet_seconds = view.step_seconds * 0.4
	made.cut_seconds = view.cut_step_seconds
	made.skipped = not view.play_back_turns
	made.step_handler = view.step_handler
	made.playback_handler = view.playback_handler
	made.handler_timeout = view.playback_handler_timeout
	made.show_unit = view.show_unit_data
	made.show_step = view.show_step
	made.lunge = view.lunge
	made.display = view.display
	made.hand = view.hand_area
	Relay.relay(made, view)
	return made


## The input of [param view] (made when the view is: its aim, hand order and display first):
## what it asks to do, the view does.
static func input(view: PyBridgeBattleView) -> BattleInput:
	var made := BattleInput.new(view.aim, view.hand_order, view.display)
	made.playing_back = view.is_playing_back
	made.busy = view.is_busy
	made.has_cut = func() -> bool: return view.cut_view != null
	made.pile_input = func(event: InputEvent) -> Variant:
		if view.pile_picker == null or not view.pile_picker.visible:
			return null
		return view.pile_picker.handle(event)
	made.skip_asked.connect(view.skip_playback)
	made.pass_asked.connect(view.pass_priority)
	made.respond_asked.connect(view.respond)
	made.end_turn_asked.connect(view.end_turn)
	made.pile_asked.connect(view.show_pile)
	return made


## The aim of [param view] (made when the view is: its stage, display and Cut flow first),
## given to its display.
static func aim(view: PyBridgeBattleView, stage: BattleStage) -> BattleAim:
	var made := BattleAim.new(stage, view.display, view.cut_flow)
	made.client = _client_of(view)
	made.targets_of = view.targets_of
	made.in_play_area = view.in_play_area
	made.play_asked.connect(view.play_card_at)
	made.busy_asked.connect(view.busy_with)
	view.cut_flow.aim = made
	view.display.aim = made
	return made


## The aim display of [param view], drawn on the view (made when the view is, after its stage
## and Cut flow; the aim, the target marks and the choice prompt are given to it when they
## are made).
static func display(view: PyBridgeBattleView, stage: BattleStage) -> AimDisplay:
	var made := AimDisplay.new(view, stage, view.cut_flow)
	made.layout_hand = view.layout_hand
	made.in_play_area = view.in_play_area
	made.play_rect = view.play_rect
	made.battle_over = view.is_battle_over
	made.playing_back = view.is_playing_back
	made.battle_open = _battle_open_of(view)
	made.units_lit_by = view.units_lit_by
	made.card_tip = view.card_tip
	made.targets_of = view.targets_of
	made.client = _client_of(view)
	made.party_area = func() -> Control: return view.party_area
	made.cut_view = _cut_view_of(view)
	return made


## The Cut's flow of [param view] (made when the view is, after its stage; the aim, the
## target marks and the pile picker are given to it when they are made).
static func cut_flow(view: PyBridgeBattleView, stage: BattleStage) -> CutFlow:
	var made := CutFlow.new(stage, view, Signal(view, &"choice_ended"))
	made.client = _client_of(view)
	made.fields_of = view.request_fields
	made.busy = view.is_busy
	made.battle_open = _battle_open_of(view)
	made.settle_play = view.settle_play
	made.play_back = view.play_back
	made.targets_of = view.targets_of
	made.cut_view = _cut_view_of(view)
	made.data = func() -> BattleData: return view.data
	made.play_rect = view.play_rect
	made.play_asked.connect(view.play_card_at)
	made.busy_asked.connect(view.busy_with)
	return made


# The questions several parts ask the view, each answered anew when asked (the view's client,
# its state and its Cut view may change after a part is made).


# The client of [param view].
static func _client_of(view: PyBridgeBattleView) -> Callable:
	return func() -> PyBridgeClient: return view.bridge


# Whether [param view] shows a battle.
static func _battle_open_of(view: PyBridgeBattleView) -> Callable:
	return func() -> bool: return not view.state.is_empty()


# The Cut view of [param view], if it has one.
static func _cut_view_of(view: PyBridgeBattleView) -> Callable:
	return func() -> PyBridgeCutView: return view.cut_view
