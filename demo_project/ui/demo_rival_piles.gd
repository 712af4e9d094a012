class_name DemoRivalPiles
extends RefCounted
## The hot-seat duel's pile counters, as buttons that open the battle view's pile viewer
## ([method PyBridgeBattleView.show_pile]), always as the side at the device: its own Draw,
## Discard and Exhaust, and the other side's Hand, Draw, Discard and Exhaust. What the viewer
## shows of the other side is the runtime's answer to the side at the device (its discard and
## exhaust piles are open to both; its hand and draw pile only a count). The viewer closes
## when the battle goes under the hand-over's cover.
##
## Prints [code]rival_piles[/code] (whose counters, each one's count and point) when the seat
## is shown, [code]pile[/code] when the viewer shows a pile (the runtime's answer, what the
## viewer shows and who asked) and [code]pile_closed[/code] when it closes.

## The piles a side at the device opens of its own (its hand is on the table) and of the other.
const OWN: Array[String] = ["draw", "discard", "exhaust"]
const OTHER: Array[String] = ["hand", "draw", "discard", "exhaust"]

var _battle: PyBridgeBattleView = null
var _own: Dictionary = {}
var _other: Dictionary = {}
var _other_side: String = ""
var _yours: Label = Label.new()


## Counters for [param battle]: the side at the device's in [param own_row], the other
## side's in [param other_row].
func _init(battle: PyBridgeBattleView, own_row: Container, other_row: Container) -> void:
	_battle = battle
	_yours.text = tr("Your piles")
	own_row.add_child(_yours)
	for pile in OWN:
		_own[pile] = _button(own_row, func() -> void: _battle.show_pile(pile))
		battle.card_motion.pile_anchors[pile] = _own[pile]  # the hand's cards fly to its piles
	for pile in OTHER:
		_other[pile] = _button(other_row, func() -> void: _battle.show_pile(pile, _other_side))
	battle.pile_viewer.pile_shown.connect(_on_shown)
	battle.pile_viewer.pile_closed.connect(
		func(pile: String) -> void: DemoLines.say("pile_closed", {"pile": pile})
	)


## Shows the counts of [param team] (at the device, its label in [param tint]) and of
## [param other] from the battle's state and prints [code]rival_piles[/code] once they are
## laid out.
func show_for(team: String, other: String, tint: Color) -> void:
	_other_side = other
	_yours.add_theme_color_override(&"font_color", tint.lightened(0.3))
	var said := {"side": team, "other_side": other, "own": {}, "other": {}}
	for row: String in ["own", "other"]:
		var buttons: Dictionary = _own if row == "own" else _other
		var side := _side(team if row == "own" else other)
		for pile: String in buttons:
			var count := side.pile(pile).size() if side != null else 0
			(buttons[pile] as Button).text = DemoPiles.worded(pile, _battle) % count
			said[row][pile] = {"count": count}
	for frame in 2:  # laid out with their new texts
		await _battle.get_tree().process_frame
	for row: String in ["own", "other"]:
		var buttons: Dictionary = _own if row == "own" else _other
		for pile: String in buttons:
			said[row][pile]["point"] = DemoLines.center_of(buttons[pile])
	DemoLines.say("rival_piles", said)


## The side [param team] of the battle's typed state (the side whose turn it is for
## [code]""[/code]), or null.
func _side(team: String) -> PyBridge.Side:
	return _battle.battle_state.side(team) if _battle.battle_state != null else null


func _button(row: Container, pressed: Callable) -> Button:
	var button := Button.new()
	button.flat = true
	button.focus_mode = Control.FOCUS_NONE
	button.theme_type_variation = &"DimLabel"
	button.pressed.connect(pressed)
	row.add_child(button)
	return button


func _on_shown(answer: Dictionary) -> void:
	for frame in 2:  # the grid lays its cards out first
		await _battle.get_tree().process_frame
	var viewer := _battle.pile_viewer
	DemoLines.say("pile", {"answer": answer, "shown": viewer.shown(), "viewer": viewer.viewer()})
