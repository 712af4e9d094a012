@tool
extends RefCounted
## Setting a [PyBridgeBattleView] up: what it does when it is ready, the overlays it adds over
## its battle (the target markers, the choice prompt, the pile picker and viewer), the Cut
## view's buttons wired to it, and the warnings the editor shows for what is missing.

const BattleInput := preload("res://addons/pybridge_targeting/battle/pybridge_battle_input.gd")
const ChoicePrompt := preload("res://addons/pybridge_targeting/battle/pybridge_choice_prompt.gd")
const PilePicker := preload("res://addons/pybridge_targeting/battle/pybridge_pile_picker.gd")
const PileViewer := preload("res://addons/pybridge_targeting/battle/pybridge_pile_viewer.gd")
const Relay := preload("res://addons/pybridge_targeting/battle/pybridge_relay.gd")
const TargetMarks := preload("res://addons/pybridge_targeting/drawing/pybridge_target_marks.gd")


## Sets [param view] up when it is ready: its input actions, its aim display and overlays, its
## bridge (the [code]Bridge[/code] autoload when none is assigned), and the battle it opens on
## ready; false (reported) when it lacks a bridge or an area.
static func start(view: PyBridgeBattleView) -> bool:
	BattleInput.register_defaults()
	view.display.build()
	add_overlays(view)
	if view.bridge == null:
		view.bridge = view.get_node_or_null("/root/Bridge") as PyBridgeClient
	if view.bridge == null:
		push_error("PyBridgeBattleView: no bridge: assign a PyBridgeClient or enable the plugin")
		return false
	if view.party_area == null or view.enemy_area == null or view.hand_area == null:
		push_error("PyBridgeBattleView: assign party_area, enemy_area and hand_area")
		return false
	var blocked := BattleInput.blocked_mouse_warning(view)
	if not blocked.is_empty():
		push_warning("PyBridgeBattleView: " + blocked)
	# After the parents' _ready(), so that they have connected to battle_opened.
	if view.open_on_ready and view.battle_resource != null:
		view.open_battle_resource.call_deferred(view.battle_resource, view.battle_libraries)
	elif view.open_on_ready and not view.battle_file.is_empty():
		view.open_battle_file.call_deferred(view.battle_file)
	return true


## Adds the overlays to [param view] and connects its [member PyBridgeBattleView.cut_view].
static func add_overlays(view: PyBridgeBattleView) -> void:
	view.target_marks = TargetMarks.new(view)
	view.target_marks.name = "TargetMarks"
	view.target_marks.set_anchors_preset(Control.PRESET_FULL_RECT)
	view.add_child(view.target_marks)
	view.choice_prompt = ChoicePrompt.new()
	view.choice_prompt.name = "ChoicePrompt"
	view.choice_prompt.confirm_pressed.connect(view.aim.confirm_choice)
	view.choice_prompt.cancel_pressed.connect(view.aim.cancel)
	view.add_child(view.choice_prompt)
	view.pile_picker = PilePicker.new(view)
	Relay.relay(view.pile_picker, view)
	view.pile_picker.name = "PilePicker"
	view.add_child(view.pile_picker)
	view.pile_viewer = PileViewer.new(view)
	view.pile_viewer.name = "PileViewer"
	view.add_child(view.pile_viewer)
	view.cut_flow.marks = view.target_marks
	view.cut_flow.picker = view.pile_picker
	view.display.target_marks = view.target_marks
	view.display.choice_prompt = view.choice_prompt
	if view.cut_view != null:
		view.cut_view.pass_pressed.connect(view.pass_priority)
		view.cut_view.respond_pressed.connect(view.respond)


## The editor's warnings for [param view]: no bridge, areas not assigned, no battle file to
## open, a Control above it that stops the mouse.
static func warnings(view: PyBridgeBattleView) -> PackedStringArray:
	var found := PackedStringArray()
	if view.bridge == null and not ProjectSettings.has_setting("autoload/Bridge"):
		found.append(
			(
				"No bridge: assign a PyBridgeClient node to 'bridge', or enable the "
				+ "PyBridge Targeting plugin, which adds the Bridge autoload."
			)
		)
	if view.party_area == null or view.enemy_area == null or view.hand_area == null:
		found.append(
			(
				"Assign 'party_area', 'enemy_area' and 'hand_area': the Controls the "
				+ "units and the hand are laid out in."
			)
		)
	if view.open_on_ready and view.battle_file.is_empty() and view.battle_resource == null:
		found.append(
			(
				"'open_on_ready' is on but 'battle_file' and 'battle_resource' are empty: set "
				+ "a battle, or turn it off and call open_battle() yourself."
			)
		)
	elif not view.battle_file.is_empty() and not FileAccess.file_exists(view.battle_file):
		found.append("'battle_file' %s does not exist." % view.battle_file)
	var blocked := BattleInput.blocked_mouse_warning(view)
	if not blocked.is_empty():
		found.append(blocked)
	return found
