class_name DemoScreen
extends RefCounted
## What the party battle's screen shows of its hand, its cards' motion and its art, for the
## [code]motion[/code] and [code]reordered[/code] lines (demo_project/README.md): the hand's
## order and fan, whether every card stands at its place, the smallest text sizes on screen,
## and which units and cards show a picture.


## Prints [code]motion[/code] when [param view]'s cards stopped flying ([param moves]), and
## [code]reordered[/code] when the player moved a card of its hand.
static func follow(view: PyBridgeBattleView) -> void:
	view.motion_finished.connect(
		func(moves: Array) -> void:
			var shown := report(view)
			shown["moves"] = moves
			DemoLines.say("motion", shown)
	)
	view.hand_reordered.connect(
		func(ids: PackedStringArray) -> void:
			DemoLines.say("reordered", {"hand": ids, "layout": view.layout_points()})
	)


## [code]hand[/code] (card ids, left to right), [code]fan[/code] (per card: [code]angle[/code]
## in degrees and [code]y[/code], the top of its place), [code]at_rest[/code],
## [code]card_font[/code] (the smallest text size drawn on a hand card, in screen pixels),
## [code]floater_font[/code] (a floating number's size), [code]minimum[/code] (the theme's
## minimum sizes), [code]art[/code] ([code]units[/code], [code]cards[/code]: the ids that
## show a picture) and [code]anchors[/code] (where the cards of each pile fly to and from).
static func report(view: PyBridgeBattleView) -> Dictionary:
	var hand := []
	var fan := {}
	var at_rest := true
	var card_font := 0.0
	for slot in view.hand_slots:
		hand.append(slot.card_id)
		fan[slot.card_id] = {
			"angle": snappedf(rad_to_deg(slot.base_angle), 0.01),
			"y": roundi(slot.base_rect().position.y)
		}
		at_rest = at_rest and slot.at_rest()
		var drawn := int(slot.view.get(&"smallest_font_size"))
		if drawn > 0:
			var on_screen := drawn * slot.base_scale
			card_font = on_screen if card_font == 0.0 else minf(card_font, on_screen)
	var floater := 0
	var units := []
	for id: String in view.unit_views:
		var unit := view.unit_views[id] as PyBridgeUnitView
		if unit != null:
			floater = unit.floater_font_size()
			if unit.unit.get("art") is Texture2D:
				units.append(id)
	var cards := []
	for slot in view.hand_slots:
		var card := slot.view as PyBridgeCardView
		if card != null and card.card.get("art") is Texture2D:
			cards.append(slot.card_id)
	var anchors := {}
	for pile: String in ["draw", "discard", "exhaust"]:
		anchors[pile] = DemoLines.xy(view.card_motion.anchor_point(pile))
	var type := PyBridgeCardView.THEME_TYPE
	return {
		"hand": hand,
		"fan": fan,
		"at_rest": at_rest,
		"card_font": card_font,
		"floater_font": floater,
		"minimum":
		{
			"text": PyBridge.ViewTheme.font_size(view, &"text_min_size", type),
			"mode": PyBridge.ViewTheme.font_size(view, &"mode_min_size", type),
			"floater":
			PyBridge.ViewTheme.font_size(view, &"floater_min_size", PyBridgeUnitView.THEME_TYPE),
		},
		"art": {"units": units, "cards": cards},
		"anchors": anchors,
	}
