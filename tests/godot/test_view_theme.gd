extends "res://suite.gd"
## Theme items: the addon's default theme stands behind every item; a game's Theme anywhere
## above a view (or the project's) wins item by item; a theme's default font size does not
## hide the views' own sizes.

const Tooltip := preload("res://addons/pybridge_targeting/drawing/pybridge_tooltip.gd")
const CARD := PyBridgeCardView.THEME_TYPE


func test_the_default_theme_gives_every_item() -> void:
	var card := PyBridgeCardView.new()
	add_child(card)
	check_eq(card.card_size(), Vector2(124, 170), "the default card size")
	check_eq(PyBridge.ViewTheme.font_size(card, &"title_size", CARD), 15, "the default title size")
	check_eq(
		PyBridge.ViewTheme.color(card, &"frame_attack", CARD), Color("7a2a36"), "the attack frame"
	)
	var unit := PyBridgeUnitView.new()
	add_child(unit)
	check_eq(unit.size, Vector2(140, 230), "a unit sizes itself from the theme")


func test_a_game_theme_above_the_view_wins_item_by_item() -> void:
	var theme := Theme.new()
	theme.default_font_size = 30  # a game's theme usually has one: it must not hide ours
	theme.set_constant(&"width", CARD, 150)
	theme.set_color(&"frame_attack", CARD, Color.DARK_GREEN)
	theme.set_font_size(&"text_size", CARD, 9)
	var holder := Control.new()
	holder.theme = theme
	add_child(holder)
	var card := PyBridgeCardView.new()
	holder.add_child(card)
	check_eq(card.size, Vector2(150, 170), "the width from the game, the height from ours")
	check_eq(PyBridge.ViewTheme.color(card, &"frame_attack", CARD), Color.DARK_GREEN, "the frame")
	check_eq(PyBridge.ViewTheme.font_size(card, &"text_size", CARD), 9, "the text size")
	check_eq(
		PyBridge.ViewTheme.font_size(card, &"title_size", CARD), 15, "the title size stays ours"
	)
	check_eq(
		PyBridge.ViewTheme.color(card, &"frame_skill", CARD), Color("24496e"), "an item not set"
	)


func test_colours_named_from_data_fall_back() -> void:
	var card := PyBridgeCardView.new()
	add_child(card)
	check_eq(
		PyBridge.ViewTheme.color_or(card, &"frame_curse", &"frame_other", CARD),
		Color("4b3472"),
		"a card type the theme does not know uses frame_other"
	)
	var theme := Theme.new()
	theme.set_color(&"frame_curse", CARD, Color.BLACK)
	card.theme = theme
	check_eq(
		PyBridge.ViewTheme.color_or(card, &"frame_curse", &"frame_other", CARD),
		Color.BLACK,
		"unless a theme names it"
	)


func test_the_tooltip_is_styled_and_kept_on_screen() -> void:
	var tip := Tooltip.new()
	add_child(tip)
	var bounds := Rect2(0, 0, 1280, 720)
	tip.show_beside(
		"Strike", "Deal 6 damage to the selected enemy.", "", Rect2(20, 480, 120, 180), bounds
	)
	var box := tip.get_global_rect()
	check(bounds.encloses(box), "inside the screen: %s" % box)
	check(box.position.x >= 140, "right of the card: %s" % box)
	check(box.size.y < 120, "as tall as its two lines: %s" % box)
	tip.show_beside(
		"Resurrect",
		"A long text. ".repeat(30),
		"Cannot be played now",
		Rect2(1150, 480, 120, 180),
		bounds
	)
	box = tip.get_global_rect()
	check(bounds.encloses(box), "a long tip stays inside the screen: %s" % box)
	check(box.end.x <= 1150, "left of a card at the right edge: %s" % box)
	var wide := PyBridge.ViewTheme.constant(tip, &"max_width", Tooltip.THEME_TYPE)
	check(box.size.x <= wide + 0.5, "no wider than max_width %d: %s" % [wide, box])
