extends "res://suite.gd"
## A card that takes several units picks them one at a time: each pick is numbered on its
## unit, the runtime's pick answer decides what may be picked next (never a unit twice), a
## chosen unit clicked again is taken back, the card plays when the choice is full, an "up
## to" card is confirmed early, the keys do all of it, and cancel puts it back.

const HIT := {"id": "hit", "type": "DealDamage", "amount": 2, "source": "Target"}

var view: PyBridgeBattleView = null
var played: Array = []
var cancelled: Array = []


func opened() -> void:
	var cards := [
		card("twin", "SingleEnemy", HIT, {"target_count": 2}),
		card("volley", "SingleEnemy", HIT, {"target_count": 3, "up_to": true}),
		card("jab", "SingleEnemy", HIT),
	]
	view = battle_view(web_client())
	await view.open_battle(small_battle(cards, ["goblin", "orc", "troll"]))
	view.card_played.connect(
		func(card_id: String, _target: String, result: Dictionary) -> void:
			played.append([card_id, result])
	)
	view.aim_cancelled.connect(func(card_id: String) -> void: cancelled.append(card_id))


func click(kind: String, id: String) -> void:
	var at := point_of(view, kind, id)
	view.aim.pointer_pressed(at)
	view.aim.pointer_released(at)
	await frames(1)


func hit_units(result: Dictionary) -> Array:
	var hit := []
	for event: Dictionary in result["events"]:
		if event["type"] == "damage":
			hit.append(event["unit"])
	return hit


func runtime_pick(card_id: String, chosen: Array) -> Dictionary:
	return view.bridge.request(
		"pick", {"session": view.bridge.session, "card": card_id, "chosen": chosen}
	)


func test_each_pick_is_numbered_and_the_runtime_says_what_is_left() -> void:
	await opened()
	await click("cards", "h1")
	check_eq(view.aim.candidates(), PackedStringArray(["goblin", "orc", "troll"]), "all three")
	check(view.choice_prompt.visible, "the prompt shows a choice of two")
	check_eq(view.choice_prompt.shown()["text"], "Twin: choose 2 (0 chosen)", "its words")
	await click("units", "orc")
	check_eq(view.aim.choice.chosen, PackedStringArray(["orc"]), "the orc is picked")
	var answer := runtime_pick("h1", ["orc"])
	check_eq(view.aim.candidates(), PackedStringArray(answer["candidates"]), "the runtime's rest")
	check(not "orc" in view.aim.candidates(), "never chosen twice")
	check_eq(view.lit_units, view.aim.candidates(), "the candidates left are lit")
	var marks := view.target_marks.marks()
	check_eq(marks.size(), 1, "one marker")
	check_eq(
		[marks[0]["unit"], marks[0]["kind"], marks[0]["label"]], ["orc", "pick", 1], "1 on the orc"
	)
	check(not played.size(), "nothing is played with one of two")
	await click("units", "orc")
	check_eq(view.aim.choice.chosen, PackedStringArray(), "clicked again, the orc is taken back")
	await click("units", "troll")
	await click("units", "goblin")
	check_eq(view.target_marks.marks().size(), 0, "the play cleared the markers")
	check_eq(played.size(), 1, "the second pick plays it")
	check_eq(hit_units(played[0][1]), ["troll", "goblin"], "in picking order")
	check(not view.choice_prompt.visible, "the prompt is gone")


func test_an_up_to_card_is_confirmed_early_and_cancel_puts_a_card_back() -> void:
	await opened()
	view.select_card("h2")  # the keys' way: its first candidate is aimed
	view.aim.confirm()  # picks the goblin
	await frames(1)
	check_eq(view.aim.choice.chosen, PackedStringArray(["goblin"]), "the goblin is picked")
	check(view.aim.choice.can_confirm and not view.aim.choice.complete, "one may confirm it")
	check(view.choice_prompt.shown()["confirm"]["enabled"], "Confirm is enabled")
	check_eq(view.choice_prompt.shown()["text"], "Volley: choose 1 to 3 (1 chosen)", "its words")
	check_eq(view.aim.aimed_unit(), "", "the keys aim at nothing: Enter confirms")
	view.aim.confirm()
	await frames(1)
	check_eq(hit_units(played[0][1]), ["goblin"], "played at the goblin alone")
	view.select_card("h1")
	view.aim.confirm()
	await frames(1)
	view.aim.undo()
	await frames(1)
	check_eq(view.aim.choice.chosen, PackedStringArray(), "undo takes the pick back")
	view.aim.confirm()
	await frames(1)
	check(view.aim.choice != null, "the Volley is still choosing")
	Input.parse_input_event(key(KEY_ESCAPE))
	await frames(2)
	check_eq(cancelled, ["h1"], "Escape puts the card back")
	check(view.aim.choice == null and view.target_marks.marks().is_empty(), "with its picks")
	check_eq(played.size(), 1, "and plays nothing")


func test_the_keys_pick_confirm_and_undo() -> void:
	await opened()
	Input.parse_input_event(key(KEY_1))
	await frames(2)
	Input.parse_input_event(key(KEY_TAB))
	await frames(2)
	check_eq(view.aim.aimed_unit(), "orc", "Tab aims the next candidate")
	Input.parse_input_event(key(KEY_ENTER))
	await frames(2)
	check_eq(view.aim.choice.chosen, PackedStringArray(["orc"]), "Enter picks it")
	Input.parse_input_event(key(KEY_BACKSPACE))
	await frames(2)
	check_eq(view.aim.choice.chosen, PackedStringArray(), "Backspace takes it back")
	Input.parse_input_event(key(KEY_ENTER))
	await frames(2)
	Input.parse_input_event(key(KEY_ENTER))
	await frames(2)
	check_eq(played.size(), 1, "two Enters pick two and play")
	check_eq(hit_units(played[0][1]), ["goblin", "orc"], "the first two candidates in turn")


func test_each_band_names_how_many_units_its_card_takes_in_the_runtimes_words() -> void:
	await opened()
	for card_id: String in ["h1", "h2", "h3"]:
		var info: Dictionary = view.bridge.request(
			"targets", {"session": view.bridge.session, "card": card_id}
		)
		var band: String = view.card_view(card_id).mode_text()
		var count := str(info["count_label"])
		var wanted := "Single enemy" if count.is_empty() else "Single enemy " + count
		check_eq(band, wanted, card_id + ": the mode and the runtime's count label")
	check(view.card_view("h1").mode_text().ends_with("2"), "the Twin takes two")
	check(view.card_view("h2").mode_text().ends_with("up to 3"), "the Volley up to three")


func test_a_refused_unpick_keeps_the_pick_the_runtime_last_accepted() -> void:
	await opened()
	await click("cards", "h1")
	await click("units", "orc")
	var choice := view.aim.choice
	choice.chosen = PackedStringArray(["orc", "ghost"])  # a pick the runtime never accepted
	check(not await choice.remove(view.bridge, "orc"), "the runtime refuses [ghost]")
	check(not choice.refused.is_empty(), "with its error")
	check_eq(choice.chosen, PackedStringArray(["orc", "ghost"]), "the orc is put back")
	check_eq(choice.prompt_text("Twin"), "Twin: choose 2 (2 chosen)", "the prompt's words")


func test_a_single_target_card_still_plays_on_its_first_pick() -> void:
	await opened()
	await click("cards", "h3")
	check(not view.choice_prompt.visible, "no prompt for one unit")
	await click("units", "troll")
	check_eq(hit_units(played[0][1]), ["troll"], "the jab hits the troll at once")


func key(code: Key) -> InputEventKey:
	var event := InputEventKey.new()
	event.keycode = code
	event.pressed = true
	return event
