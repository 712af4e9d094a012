extends "res://suite.gd"
## The counters control on the runtime's own counters (tests/godot/extensions/tally.py): a chip
## for each counter the schema lets a player see, with its label and the state's value (its
## default while the state leaves it out), following every state change of the battle view;
## the label translated by its message id.

const TALLY := {"id": "t", "type": "Tally", "amount": 3}

var view: PyBridgeBattleView = null
var counters: PyBridgeCounters = null
var emitted: Array[Dictionary] = []


func tally_battle() -> Dictionary:
	var tallies := [card("tally", "None", TALLY), card("tally2", "None", TALLY)]
	var document := small_battle(tallies, ["orc"])
	for definition: Dictionary in document["cards"]:
		definition["type"] = "skill"
	return document


func opened() -> void:
	view = battle_view(web_client())
	view.step_seconds = 0.05
	counters = PyBridgeCounters.new()
	counters.battle_view = view
	counters.counters_shown.connect(func(shown: Dictionary) -> void: emitted.append(shown))
	add_child(counters)
	check(await view.open_battle(tally_battle()), "the tally battle opens")
	await frames(2)  # the chips lay out


func value_label(counter: String) -> String:
	var chip := counters.get_node(counter) as PanelContainer
	var parts := chip.get_child(0).get_children()
	return "%s %s" % [(parts[0] as Label).text, (parts[1] as Label).text]


func test_a_chip_per_visible_counter_follows_the_state() -> void:
	await opened()
	check_eq(counters.shown().keys(), ["tally"], "the ledger (no_one) gets no chip")
	check_eq(counters.get_child_count(), 1, "one chip")
	check(not view.state.get("counters", {}).has("tally"), "the state leaves the default out")
	check_eq(value_label("tally"), "Tally 2", "the label and the default")
	check(await view.play_card("h1"), "Tally plays")
	check_eq(int(view.state["counters"]["tally"]), 5, "the runtime added 3")
	check_eq(int(view.state["counters"]["ledger"]), 3, "and to the ledger")
	check_eq(value_label("tally"), "Tally 5", "the chip shows the state's value")
	check(await view.play_card("h2"), "the second Tally plays")
	check_eq(value_label("tally"), "Tally 8", "and again")
	check_eq(counters.values, {"tally": 8}, "only the tally is shown")
	check(await view.end_turn(), "the turn ends")
	check_eq(int(view.state.get("counters", {}).get("tally", 2)), 2, "the runtime reset it")
	check_eq(value_label("tally"), "Tally 2", "the chip follows the reset")
	var seen: Array = emitted.map(func(shown: Dictionary) -> int: return shown["tally"]["value"])
	check_eq(seen.slice(0, 3), [2, 5, 8], "one report per state, in order")
	check_eq(seen[seen.size() - 1], 2, "the last after the new turn")
	var chip := counters.get_node("tally") as Control
	var point: Array = counters.shown()["tally"]["point"]
	check(chip.get_global_rect().has_point(Vector2(point[0], point[1])), "its point is on it")
	check(chip.size.x > 20 and chip.size.y > 10, "it has a size")


func test_without_a_view_it_shows_a_schema_and_a_state() -> void:
	var client := web_client()
	var schema: Dictionary = await client.ask("schema")
	counters = PyBridgeCounters.new()
	add_child(counters)
	counters.show_counters(schema["counters"], {"counters": {"tally": 7, "ledger": 4}})
	check_eq(counters.values, {"tally": 7}, "the state's value")
	check_eq(value_label("tally"), "Tally 7", "shown")
	counters.show_counters(schema["counters"], {})
	check_eq(value_label("tally"), "Tally 2", "the default when the state leaves it out")
	counters.show_counters([], {})
	await frames(1)
	check_eq(counters.get_child_count(), 0, "no counters, no chips")


func test_the_label_is_translated_by_its_message_id() -> void:
	var french := Translation.new()
	french.locale = "fr"
	french.add_message("Tally", "Pointage", "tests.tally")
	french.add_message("Ledger", "Registre", "tests.ledger")
	TranslationServer.add_translation(french)
	var before := TranslationServer.get_locale()
	await opened()
	check_eq(value_label("tally"), "Tally 2", "the English first")
	TranslationServer.set_locale("fr")
	await frames(2)
	check_eq(value_label("tally"), "Pointage 2", "the game's translation, by the message id")
	TranslationServer.set_locale(before)
	TranslationServer.remove_translation(french)
	await frames(2)
	check_eq(value_label("tally"), "Tally 2", "back to English")
