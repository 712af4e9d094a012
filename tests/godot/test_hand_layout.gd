extends "res://suite.gd"
## The hand: cards stay whole and side by side until the hand is too long, then shrink, then
## overlap; no title is ever cut by the next card; the raised card stays on screen.

const BattleLayout := preload("res://addons/pybridge_targeting/battle/pybridge_battle_layout.gd")
const CARD := Vector2(116, 170)
## The demo's card names, the longest ones among them.
const NAMES: PackedStringArray = [
	"Strike",
	"Meteor Strike",
	"Defend",
	"Mend",
	"Shield Ally",
	"Prayer",
	"Inspire",
	"Wild Shot",
	"Hex",
	"Quartermaster",
	"Execute",
	"Resurrect",
	"Coup de Grace",
	"Second Wind",
	"Sap"
]


func test_a_short_hand_keeps_whole_cards_side_by_side() -> void:
	var row := BattleLayout.hand_row(5, CARD, 1256, 190, 6, 0.75, 12)
	check_eq(row["scale"], 1.0, "scale of five cards")
	var points: Array[Vector2] = row["points"]
	for i in range(1, points.size()):
		check_eq(points[i].x - points[i - 1].x, CARD.x + 6, "step between cards %d" % i)
	check(is_equal_approx(points[0].x + points[4].x + CARD.x, 1256), "the row is centred")
	check_eq(points[0].y, 190.0 - CARD.y - 12, "cards sit on the bottom, less the margin")
	check_eq(row["visible"], [CARD.x, CARD.x, CARD.x, CARD.x, CARD.x], "all of each card shows")


func test_a_long_hand_shrinks_before_it_overlaps() -> void:
	var row := BattleLayout.hand_row(12, CARD, 1256, 190, 6, 0.75, 12)
	var scale: float = row["scale"]
	check(scale < 1.0 and scale >= 0.75, "twelve cards shrink (scale %s)" % scale)
	var points: Array[Vector2] = row["points"]
	check(points[11].x + CARD.x * scale <= 1256.5, "the last card ends inside the area")
	for i in range(1, points.size()):
		check(points[i].x - points[i - 1].x >= CARD.x * scale - 0.01, "card %d not covered" % i)
	var crowded := BattleLayout.hand_row(30, CARD, 1256, 190, 6, 0.75, 12)
	check_eq(crowded["scale"], 0.75, "thirty cards stop shrinking at the minimum")
	check((crowded["visible"][0] as float) < CARD.x, "and then overlap")
	check_eq(crowded["visible"][29], CARD.x, "the last card shows whole")


func test_no_title_is_cut_in_hands_of_one_to_twelve_cards() -> void:
	# The demo's hand is 1256 px wide; a hand of 760 px holds eight cards before they overlap.
	for setting: Array in [[1256.0, 12], [1000.0, 12], [760.0, 8]]:
		var width: float = setting[0]
		for count in range(1, int(setting[1]) + 1):
			var row := BattleLayout.hand_row(count, CARD, width, 190, 6, 0.75, 12)
			for i in count:
				var card := PyBridgeCardView.new()
				add_child(card)
				card.show_card({"id": "c", "name": NAMES[(i + count) % NAMES.size()]})
				card.set_visible_width(row["visible"][i])
				var title := card.title_rect()
				var shown := minf(card.size.x, row["visible"][i])
				check(
					title.position.x >= 0.0 and title.end.x <= shown,
					(
						"%d cards in %d px: %s ends at %.1f, %.1f shows"
						% [count, width, card.card["name"], title.end.x, shown]
					)
				)
				card.free()


func test_long_names_shrink_and_wrap_before_they_are_cut() -> void:
	var card := PyBridgeCardView.new()
	add_child(card)
	card.show_card({"id": "c", "name": "Quartermaster"})
	check(card.title_rect().end.x <= card.size.x, "Quartermaster fits the card")
	card.show_card({"id": "c", "name": "The Very Long Name Of A Card"})
	check_eq(card.title_lines().size(), 2, "a long name of several words takes two lines")
	check(card.title_rect().end.x <= card.size.x, "both lines fit")
	card.show_card({"id": "c", "name": "Jab"})
	check_eq(card.title_lines(), PackedStringArray(["Jab"]), "a short name takes one line")
