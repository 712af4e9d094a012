class_name DemoPiles
extends HBoxContainer
## The party battle's pile counters: Draw, Discard and Exhaust, each a button that opens the
## battle view's pile viewer on its pile ([method PyBridgeBattleView.show_pile]; the keys D, S
## and X do too) and that its pile's cards fly to and from. Prints [code]piles[/code] (each
## counter's count and point) when the state changes, [code]pile[/code] when the viewer shows a
## pile (the runtime's answer and what the viewer shows) and [code]pile_closed[/code] when it
## closes.

const PILES: Array[String] = ["draw", "discard", "exhaust"]

var _battle: PyBridgeBattleView = null
var _buttons: Dictionary = {}


## Counters for [param battle], in place of [param label] (the old text counter, hidden).
func _init(battle: PyBridgeBattleView, label: Control) -> void:
	_battle = battle
	name = "PileButtons"
	position = label.position
	size = label.size
	alignment = BoxContainer.ALIGNMENT_END
	add_theme_constant_override(&"separation", 4)
	label.visible = false
	label.get_parent().add_child(self)
	for pile in PILES:
		var button := Button.new()
		button.flat = true
		button.focus_mode = Control.FOCUS_NONE
		button.theme_type_variation = &"DimLabel"
		button.pressed.connect(func() -> void: _battle.show_pile(pile))
		add_child(button)
		_buttons[pile] = button
		battle.card_motion.pile_anchors[pile] = button  # its cards fly to and from it
	battle.battle_state_changed.connect(_show_counts)
	battle.pile_viewer.pile_shown.connect(_on_shown)
	battle.pile_viewer.pile_closed.connect(
		func(pile: String) -> void: DemoLines.say("pile_closed", {"pile": pile})
	)


func _show_counts(state: PyBridge.BattleState) -> void:
	var side := state.side()  # whose turn it is: a one-sided battle's only side
	var counts := {}
	for pile in PILES:
		counts[pile] = side.pile(pile).size() if side != null else 0
		(_buttons[pile] as Button).text = worded(pile, self) % counts[pile]
	for frame in 2:  # laid out with their new texts
		await get_tree().process_frame
	var said := {}
	for pile in PILES:
		said[pile] = {"count": counts[pile], "point": DemoLines.center_of(_buttons[pile])}
	DemoLines.say("piles", said)


## A counter's words for [param pile] (with its count's %d), as [param said_by] translates.
static func worded(pile: String, said_by: Object) -> String:
	match pile:
		"hand":
			return said_by.tr("Hand %d")
		"draw":
			return said_by.tr("Draw %d")
		"discard":
			return said_by.tr("Discard %d")
	return said_by.tr("Exhaust %d")


func _on_shown(answer: Dictionary) -> void:
	for frame in 2:  # the grid lays its cards out first
		await get_tree().process_frame
	DemoLines.say("pile", {"answer": answer, "shown": _battle.pile_viewer.shown()})
