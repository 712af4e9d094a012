extends "res://suite.gd"
## The battle screen's hand: the fan's math, the player's order (a drag along the hand, the
## move-card keys) that survives new states, the moves read from the piles, and the theme's
## minimum sizes of a card's text.

const HandSlot := preload("res://addons/pybridge_targeting/battle/pybridge_hand_slot.gd")
const BattleLayout := preload("res://addons/pybridge_targeting/battle/pybridge_battle_layout.gd")
const CardMotion := preload("res://addons/pybridge_targeting/battle/pybridge_card_motion.gd")

var view: PyBridgeBattleView = null


func opened() -> void:
	view = battle_view(web_client())
	await view.open_battle(demo_battle())


func hand_ids() -> PackedStringArray:
	var ids := PackedStringArray()
	for slot in view.hand_slots:
		ids.append(slot.card_id)
	return ids


func test_the_fan_turns_the_ends_outwards_and_lowers_them() -> void:
	var fan := BattleLayout.hand_fan(5, 3.0, 10.0, 1400.0)
	var angles: Array[float] = fan["angles"]
	var drops: Array[float] = fan["drops"]
	check_eq(angles[2], 0.0, "the middle card stands straight")
	check(angles[0] < angles[1] and angles[1] < 0.0, "the left half turns left: %s" % [angles])
	check(is_equal_approx(angles[0], -angles[4]), "the fan is symmetric")
	check(is_equal_approx(rad_to_deg(angles[4]), 6.0), "5 cards, 3 degrees apart: 6 at the end")
	check(drops[0] > drops[1] and drops[1] > drops[2], "the ends sit lower: %s" % [drops])
	check_eq(drops[2], 0.0, "the middle card is the highest")
	var long := BattleLayout.hand_fan(15, 3.0, 10.0, 1400.0)
	check(is_equal_approx(rad_to_deg(long["angles"][14]), 10.0), "the ends turn at most 10")
	check_eq(BattleLayout.hand_fan(1, 3.0, 10.0, 1400.0)["angles"], [0.0], "one card: straight")
	check_eq(BattleLayout.hand_fan(0, 3.0, 10.0, 1400.0)["angles"], [], "no card, no fan")


func test_a_dropped_card_takes_the_place_nearest_the_pointer() -> void:
	var lefts: Array[float] = [0.0, 80.0, 160.0, 240.0]
	check_eq(BattleLayout.drop_index(lefts, 116.0, 10.0), 0, "far left")
	check_eq(BattleLayout.drop_index(lefts, 116.0, 225.0), 2, "over the third card's middle")
	check_eq(BattleLayout.drop_index(lefts, 116.0, 900.0), 3, "beyond the right end")


func test_the_moves_are_read_from_the_piles() -> void:
	var before := {
		"hand": [{"id": "h1"}, {"id": "h2"}, {"id": "h3"}],
		"draw": [{"id": "d1"}],
		"discard": [{"id": "x1"}],
		"exhaust": [],
	}
	var after := {
		"hand": [{"id": "h2"}, {"id": "d1"}, {"id": "x1"}, {"id": "n1"}],
		"draw": [],
		"discard": [{"id": "h1"}],
		"exhaust": [{"id": "h3"}],
	}
	var moves := CardMotion.plan(before, after, "h1")
	check_eq(
		moves,
		[
			{"card": "h1", "from": "hand", "to": "discard", "played": true},
			{"card": "h3", "from": "hand", "to": "exhaust", "played": false},
			{"card": "d1", "from": "draw", "to": "hand"},
			{"card": "x1", "from": "discard", "to": "hand"},
			{"card": "n1", "from": "draw", "to": "hand"},
		],
		"left the hand first, then drawn (a card from no pile comes from the draw pile)"
	)
	var gone := CardMotion.plan({"hand": [{"id": "h1"}]}, {"hand": []})
	check_eq(gone[0]["to"], "play", "a card in no pile after (on the Cut) goes to the play area")
	check_eq(CardMotion.plan(after, after), [], "the same piles: nothing moves")


func test_the_hand_is_fanned_and_each_point_clicks_its_card() -> void:
	await opened()
	var slots := view.hand_slots
	check_eq(slots.size(), 12, "the demo hand")
	check(slots[0].base_angle < 0.0 and slots[11].base_angle > 0.0, "the ends turn outwards")
	check(slots[0].base_position.y > slots[6].base_position.y, "the ends sit lower than the middle")
	for id: String in view.layout_points()["cards"]:
		var at := point_of(view, "cards", id)
		var under := view.card_at(at)
		check(under != null and under.card_id == id, "the point of %s is on it" % id)
	var hovered := view.hand_slot("h6")
	await until(func() -> bool: return not view.card_motion.is_moving())
	view.aim.pointer_moved(point_of(view, "cards", "h6"))
	check(view.aim.hovered == hovered, "hovered")
	check_eq(hovered.view.rotation, 0.0, "a raised card stands straight")
	check(hovered.view.scale.x > 1.0, "and grows")


func test_a_card_dragged_along_the_hand_takes_its_new_place_and_keeps_it() -> void:
	await opened()
	var reordered: Array = []
	var played: Array = []
	view.hand_reordered.connect(func(ids: PackedStringArray) -> void: reordered.append(ids))
	view.card_played.connect(
		func(id: String, _t: String, _r: Dictionary) -> void: played.append(id)
	)
	var from := point_of(view, "cards", "h2")
	var to := point_of(view, "cards", "h5")
	for input: Array in [["press", from], ["move", to], ["release", to]]:
		send(input[0], input[1])
	check_eq(
		hand_ids().slice(0, 5), ids(["h1", "h3", "h4", "h5", "h2"]), "Meteor Strike moved right"
	)
	check(not reordered.is_empty(), "the view told the game")
	check_eq(played, [], "nothing was played")
	check_eq(view.state["piles"]["hand"].size(), 12, "the state's hand is untouched")
	# A drag up out of the hand (aiming at a unit) leaves the order alone.
	var knight_point := point_of(view, "units", "knight")
	send("press", point_of(view, "cards", "h4"))
	send("move", point_of(view, "cards", "h1"))
	send("move", knight_point)
	check_eq(hand_ids().slice(0, 5), ids(["h1", "h3", "h4", "h5", "h2"]), "back in its place")
	send("release", knight_point)
	await until(func() -> bool: return not view.is_busy())
	check_eq(played, ["h4"], "Mend was played on the Knight")
	check_eq(hand_ids().slice(0, 4), ids(["h1", "h3", "h5", "h2"]), "the order survives the state")
	# The keys move the aimed card.
	view.select_card("h3")
	send_key(KEY_LEFT, true)
	check_eq(hand_ids().slice(0, 2), ids(["h3", "h1"]), "Shift+Left moves the aimed card left")


func test_a_drawn_card_flies_in_and_goes_to_the_right_end() -> void:
	await opened()
	view.hand_order.shift(view.hand_slot("h12"), -11)
	check_eq(hand_ids()[0], "h12", "Resurrect moved to the left end")
	await until(func() -> bool: return not view.card_motion.is_moving())  # the opening deal
	var finished: Array = []
	view.motion_finished.connect(func(moves: Array) -> void: finished.append(moves))
	await view.play_card("h10")  # Quartermaster: a Strike from the draw pile into the hand
	check(view.card_motion.is_moving(), "the cards fly")
	await until(func() -> bool: return not finished.is_empty())
	var moves: Array = finished[-1]
	var drawn := moves.filter(func(move: Dictionary) -> bool: return move["to"] == "hand")
	var left := moves.filter(func(move: Dictionary) -> bool: return move["from"] == "hand")
	check_eq(left.size(), 1, "one card left the hand: %s" % [moves])
	check(left[0]["card"] == "h10" and left[0]["played"], "the played card")
	check_eq(drawn.size(), 1, "one card came in")
	check_eq(hand_ids()[0], "h12", "the player's order survives")
	check_eq(hand_ids()[-1], drawn[0]["card"], "the drawn card goes to the right end")
	for slot in view.hand_slots:
		check(slot.at_rest(), "%s stands at its place" % slot.card_id)
	check(not view.card_motion.is_moving(), "nothing flies")


func test_a_card_in_flight_owns_only_its_place() -> void:
	view = battle_view(web_client())
	view.card_motion.pile_anchors["draw"] = Vector2(1100, 20)  # a draw count at the top
	await view.open_battle(demo_battle())
	check(view.card_motion.is_moving(), "the opening hand is being dealt")
	view.aim.pointer_moved(point_of(view, "cards", "h5"))
	check(view.aim.hovered == view.hand_slot("h5"), "a flying card can be hovered")
	var above := view.card_at(Vector2(point_of(view, "cards", "h5").x, 120))
	check(above == null, "the field above it is not the card (it flies in from far away)")


func test_a_hand_that_left_without_a_move_is_dropped_without_a_flight() -> void:
	await opened()
	await until(func() -> bool: return not view.card_motion.is_moving())
	var ended: Array = []
	view.motion_finished.connect(func(moves: Array) -> void: ended.append(moves))
	var other := Control.new()  # another side's card, shown no more (a hot-seat handover)
	view.hand_area.add_child(other)
	var none: Array[Dictionary] = []
	var arrived: Array[HandSlot] = []
	view.card_motion.run(none, {"v1": other}, arrived)
	check(other.is_queued_for_deletion(), "its view is freed")
	check(not view.card_motion.is_moving(), "no flight (and no empty tween) starts")
	check_eq(ended, [[]], "the state's motion is over at once")


func test_card_text_never_drops_below_the_minimum_sizes() -> void:
	await opened()
	await frames(2)
	var theme_min := mini(
		PyBridge.ViewTheme.font_size(view, &"text_min_size", PyBridgeCardView.THEME_TYPE),
		PyBridge.ViewTheme.font_size(view, &"mode_min_size", PyBridgeCardView.THEME_TYPE)
	)
	for slot in view.hand_slots:
		var card := slot.view as PyBridgeCardView
		var on_screen := card.smallest_font_size * slot.base_scale
		check(on_screen >= theme_min, "%s: %s px" % [slot.card_id, on_screen])
	var long := view.hand_slot("h2").view as PyBridgeCardView
	long.show_card(
		{
			"id": "x",
			"name": "X",
			"text": "Deal 5 damage to every enemy and to each of their allies. ".repeat(4)
		}
	)
	check(long.raised_height() > long.card_size().y, "a long text asks for a taller card")
	var rect := long.text_rect()
	check(rect.end.y < long.size.y - 15.0, "the text ends above the owner's name: %s" % rect)


# An input event of the select action at [param point]: press, move (with the button held)
# or release.
func send(kind: String, point: Vector2) -> void:
	if kind == "move":
		var motion := InputEventMouseMotion.new()
		motion.position = point
		motion.button_mask = MOUSE_BUTTON_MASK_LEFT
		view._unhandled_input(motion)
		return
	var button := InputEventMouseButton.new()
	button.button_index = MOUSE_BUTTON_LEFT
	button.position = point
	button.pressed = kind == "press"
	view._unhandled_input(button)


func ids(list: Array) -> PackedStringArray:
	return PackedStringArray(list)


func send_key(code: Key, shift: bool = false) -> void:
	var key := InputEventKey.new()
	key.keycode = code
	key.shift_pressed = shift
	key.pressed = true
	view._unhandled_input(key)


func until(condition: Callable, limit: int = 600) -> void:
	for i in limit:
		if condition.call():
			return
		await get_tree().process_frame
