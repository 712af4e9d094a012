extends "res://suite.gd"
## The battle view on the demo battle: what it lights is what the runtime says a play
## affects (nothing for a card that cannot be played), the game's card scene takes the
## built-in card's place, and the enemy turn plays back the runtime's own numbers.

const TurnPlayback := preload("res://addons/pybridge_targeting/battle/pybridge_turn_playback.gd")
const CUSTOM_CARD := preload("res://fixtures/custom_card.tscn")
const NOT_A_CARD := preload("res://fixtures/not_a_card.tscn")
const CUSTOM_UNIT := preload("res://fixtures/custom_unit.tscn")


func opened(card_scene: PackedScene = null, unit_scene: PackedScene = null) -> PyBridgeBattleView:
	var view := battle_view(web_client())
	view.card_scene = card_scene
	view.unit_scene = unit_scene
	view.step_seconds = 0.05
	var ok: bool = await view.open_battle(demo_battle())
	check(ok, "the demo battle opens")
	return view


func test_hover_lights_what_a_play_affects_and_nothing_when_it_cannot_be_played() -> void:
	var view: PyBridgeBattleView = await opened()
	check_eq(view.units_lit_by("h11"), PackedStringArray(["goblin"]), "Execute lights its victim")
	check_eq(
		view.units_lit_by("h1"),
		PackedStringArray(view.targets_of("h1")["candidates"]),
		"Strike lights its candidates"
	)
	check_eq(view.units_lit_by("h10"), PackedStringArray(), "Quartermaster lights no unit")
	await view.play_card("h2")  # Meteor Strike: 2 of 3 energy
	check_eq(view.targets_of("h12").get("playable"), false, "Resurrect now costs too much")
	check_eq(view.units_lit_by("h12"), PackedStringArray(), "and lights nothing")
	var lit := []
	view.highlight_changed.connect(
		func(card: String, ids: PackedStringArray) -> void: lit.append([card, ids])
	)
	view.aim.hovered = view.hand_slot("h12")
	view.display.refresh()
	check_eq(lit, [["h12", PackedStringArray()]], "hovering it lights nothing")
	var data := view.card_data("h12")
	check_eq(data["playable"], false, "its card is shown unplayable")
	check("energy" in str(data["reason"]), "with the runtime's reason: %s" % data["reason"])


func test_the_games_card_scene_takes_the_built_in_cards_place() -> void:
	var view: PyBridgeBattleView = await opened(CUSTOM_CARD)
	var card := view.card_view("h1")
	check(card != null and card.get_script() == CUSTOM_CARD.instantiate().get_script(), "custom")
	check_eq(str(card.get("shown").get("name")), "Strike", "it was shown its card")
	check_eq(view.hand_slot("h1").card_size, Vector2(90, 130), "at its own size")
	check_eq((card.get_node("Name") as Label).text, "Strike", "it draws it its own way")
	view.select_card("h1")
	check(bool(card.get("selected")), "it is told it is aimed")
	var points := view.layout_points()
	check_eq(points["cards"].size(), 12, "the hand lays custom cards out too")


func test_a_unit_scene_with_only_show_unit_still_aims_and_plays() -> void:
	var view: PyBridgeBattleView = await opened(null, CUSTOM_UNIT)
	var goblin: Control = view.unit_views["goblin"]
	check_eq((goblin.get_node("Name") as Label).text, "Goblin 18/18", "it shows its unit")
	check_eq(goblin.size, Vector2(120, 160), "at its own size")
	check_eq(goblin.get("shown")["statuses"], [], "with the unit's data")
	var orc: Dictionary = view.unit_views["orc"].get("shown")
	check_eq(orc["statuses"][0]["name"], "Thorns", "statuses come named from the state")
	check_eq(orc["intent"]["title"], "Smash 9", "the intent is the runtime's forecast")
	view.select_card("h1")
	view.aim.cycle_target(1)
	check_eq(view.aim.aimed_unit(), "orc", "a custom unit can be aimed at")
	view.aim.confirm()
	await frames(1)
	check_eq(int(view.unit_views["orc"].get("shown")["hp"]), 32, "and the play shows on it")


func test_a_scene_without_the_interface_falls_back_to_the_built_in_card() -> void:
	var view: PyBridgeBattleView = await opened(NOT_A_CARD)
	check(view.card_view("h1") is PyBridgeCardView, "the built-in card")


func test_the_enemy_turn_plays_back_the_runtimes_numbers_step_by_step() -> void:
	var view: PyBridgeBattleView = await opened()
	var before := {}
	for unit: Dictionary in view.state["units"]:
		before[unit["id"]] = unit.duplicate(true)
	var shown := []
	view.turn_step_shown.connect(
		func(line: Dictionary, events: Array) -> void:
			shown.append([line, events, Time.get_ticks_msec()])
	)
	var answers := []
	view.turn_ended.connect(func(result: Dictionary) -> void: answers.append(result))
	var started := Time.get_ticks_msec()
	await view.end_turn()
	var result: Dictionary = answers[0]
	check_eq(
		shown.map(func(s: Array) -> Variant: return s[0]), result["log"], "every line, in order"
	)
	var events := []
	for step: Array in shown:
		events.append_array(step[1])
	check_eq(events, result["events"], "every event once, in order")
	check(Time.get_ticks_msec() - started >= 0.05 * 3 * 1000, "the steps took their time")
	# What the steps showed adds up to the final state the runtime sent.
	var units := before.duplicate(true)
	TurnPlayback.apply(units, result["events"])
	for unit: Dictionary in result["state"]["units"]:
		var played: Dictionary = units[unit["id"]]
		check_eq(played["hp"], unit["hp"], "%s's HP after the playback" % unit["id"])
		check_eq(played["statuses"], unit["statuses"], "%s's statuses" % unit["id"])
	check_eq(view.state, result["state"], "the view settles on the new state")
	check(not view.is_playing_back() and not view.is_busy(), "and takes input again")


func test_a_skipped_playback_shows_the_rest_at_once() -> void:
	var view: PyBridgeBattleView = await opened()
	view.step_seconds = 2.0
	var shown := []
	view.turn_step_shown.connect(func(line: Dictionary, _events: Array) -> void: shown.append(line))
	var settled := []
	view.turn_settled.connect(func(state: Dictionary) -> void: settled.append(state))
	var answers := []
	view.turn_ended.connect(func(result: Dictionary) -> void: answers.append(result))
	view.end_turn()
	await frames(3)
	check(view.is_playing_back(), "the playback runs")
	check(shown.size() < 4, "a few steps in (%d)" % shown.size())
	var started := Time.get_ticks_msec()
	view.skip_playback()
	while settled.is_empty() and Time.get_ticks_msec() - started < 3000:
		await frames(1)
	check(not settled.is_empty(), "skipping settles the turn")
	# Sooner than the next step would have come (a wall-clock bound kept loose: slow frames).
	check(Time.get_ticks_msec() - started < view.step_seconds * 1000, "at once")
	check_eq(shown, answers[0]["log"], "every line of the turn was still shown, in order")


func test_steps_follow_the_log_lines() -> void:
	var result := {
		"events": [{"type": "a"}, {"type": "b"}, {"type": "c"}, {"type": "d"}],
		"log": [{"text": "one", "event": 1}, {"text": "two", "event": 3}]
	}
	var steps := TurnPlayback.steps_of(result)
	check_eq(steps.size(), 2, "one step per line")
	check_eq(steps[0]["events"].size(), 3, "events before the first line go with it")
	check_eq(steps[1]["events"], [{"type": "d"}], "the rest with the second")
	check_eq(TurnPlayback.steps_of({"events": [{"type": "a"}], "log": []}).size(), 1, "no log")
	var intent := {"move": "bite", "target": "y", "forecast": {"label": "5"}}
	var units := {
		"x": {"id": "x", "hp": 9, "armor": 3, "statuses": {"burn": 2}},
		"y": {"id": "y", "hp": 4, "intent": intent},
	}
	var changed := (
		TurnPlayback
		. apply(
			units,
			[
				{"type": "damage", "unit": "x", "unit_after": {"hp": 5, "armor": 0}},
				{"type": "unit_died", "unit": "x"},
				{"type": "any", "unit": "x", "unit_after": {"statuses": {}, "zone": "reserve"}},
				{"type": "heal", "unit": "nobody", "unit_after": {"hp": 1}},
				{
					"type": "any",
					"unit": "y",
					"unit_after": {"hp": 3, "intent": {"move": "bite", "target": "y"}}
				},
			]
		)
	)
	check_eq(changed, PackedStringArray(["x", "y"]), "the changed units")
	check_eq(
		units["x"],
		{"id": "x", "hp": 5, "armor": 0, "statuses": {}, "zone": "reserve"},
		"what its events say it looks like after them, whatever their type"
	)
	check_eq(units["y"]["intent"], intent, "the same intent keeps the forecast it was drawn with")
	TurnPlayback.apply(units, [{"type": "any", "unit": "y", "unit_after": {"intent": null}}])
	check_eq(units["y"]["intent"], null, "a spent intent goes")
