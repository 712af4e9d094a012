extends "res://suite.gd"
## The pieces under the Cut view: the markers over the units (numbered picks, locked
## targets, an "all ~" range, lost targets) drawn where the units are; a choice made one
## pick at a time as the runtime answers it; and a failure the caller expects, kept quiet.


func test_markers_stand_on_their_units_numbered_by_their_place_on_the_cut() -> void:
	var view := cut_battle_view(web_client())
	await view.open_battle(duel_battle())
	var marks := view.target_marks
	(
		marks
		. show_cut(
			[
				{"id": "e1", "side": "player", "targets": ["drone"], "collected": []},
				{"id": "e2", "side": "enemy", "targets": [], "collected": ["aya", "kit"]},
			]
		)
	)
	marks.show_picks(PackedStringArray(["vex"]))
	var found := marks.marks()
	var summary := found.map(
		func(m: Dictionary) -> Array: return [m["unit"], m["kind"], m["label"], m["side"]]
	)
	check_eq(
		summary,
		[
			["vex", "pick", 1, ""],
			["drone", "locked", 1, "player"],
			["aya", "range", 2, "enemy"],
			["kit", "range", 2, "enemy"]
		],
		"every marker, with its entry's number"
	)
	var drone: Control = view.unit_views["drone"]
	var at: Array = found[1]["point"]
	check(drone.get_global_rect().has_point(Vector2(at[0], at[1])), "on the drone's view")
	marks.show_range("e2", ["kit"])
	check_eq(
		marks.marks().filter(func(m: Dictionary) -> bool: return m["kind"] == "range").size(), 1, ""
	)
	marks.show_lost("e1", "drone")
	var lost := marks.marks().filter(func(m: Dictionary) -> bool: return m["kind"] == "lost")
	check_eq([lost[0]["unit"], lost[0]["label"]], ["drone", 1], "lost, with its entry's number")
	marks.show_cut([{"id": "e1", "side": "player", "targets": [], "collected": []}])
	check_eq(marks.marks().size(), 2, "a Cut still under way keeps the lost marker (and the pick)")
	marks.clear_lost()
	check_eq(marks.marks().size(), 1, "until it is cleared")
	marks.show_lost("e1", "drone")
	marks.show_cut([])
	check_eq(marks.marks().size(), 1, "or the chain is over: an empty Cut drops it")


func test_a_choice_follows_the_runtimes_pick_answers() -> void:
	var client := web_client()
	client.open_battle(duel_battle())
	var info := client.targets("c3")
	var choice := PyBridge.Choice.for_card("c3", info)
	check_eq(choice.candidates, PackedStringArray(["drone"]), "from the targets answer")
	check(not await choice.add(client, "vex"), "a warded unit is no candidate")
	check(await choice.add(client, "drone"), "the drone is")
	check(choice.complete and choice.can_confirm, "one of one: complete")
	check_eq(choice.number_of("drone"), 1, "numbered 1")
	check_eq(choice.answer(), ["drone"], "the play's target")
	check(await choice.remove(client), "taken back")
	check_eq(choice.chosen, PackedStringArray(), "nothing chosen")
	check_eq(choice.candidates, PackedStringArray(["drone"]), "the drone again")


func test_an_expected_failure_is_kept_but_not_reported() -> void:
	var client := web_client()
	client.open_battle(duel_battle())
	var failed := []
	client.request_failed.connect(func(code: String, _m: String) -> void: failed.append(code))
	var answer: Dictionary = await client.ask(
		"pick",
		{"session": client.session, "card": "c3", "chosen": ["vex"]},
		PackedStringArray(["not_a_candidate"])
	)
	check_eq(answer, {}, "no result")
	check_eq(client.last_error.get("code"), "not_a_candidate", "the error is kept")
	check_eq(failed, [], "and not reported")
	await client.ask("pick", {"session": client.session, "card": "c3", "chosen": ["vex"]})
	check_eq(failed, ["not_a_candidate"], "unless it was not expected")
