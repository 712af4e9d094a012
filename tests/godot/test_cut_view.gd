extends "res://suite.gd"
## The Cut on screen, with the demo's duel: an activation waits on the Cut with its range
## and markers, whose answer it awaits and which buttons work say the runtime's cut answer;
## the enemy's answer stacks on top; each resolution plays back (an "all ~" entry shows the
## range it collects again as it resolves), and a lost target fizzles its entry with the
## runtime's reason and a marker on the unit.

var view: PyBridgeBattleView = null
var steps: Array = []


func opened(document: Dictionary = {}) -> void:
	view = cut_battle_view(web_client())
	await view.open_battle(duel_battle() if document.is_empty() else document)
	view.turn_step_shown.connect(
		func(line: Dictionary, events: Array) -> void:
			steps.append([line, events, view.target_marks.marks(), view.cut_view.shown()])
	)


func marks_of(kind: String) -> Array:
	var found := []
	for mark: Dictionary in view.target_marks.marks():
		if mark["kind"] == kind:
			found.append([mark["unit"], mark["label"]])
	return found


## The lost markers shown while the last step that lost a target played back (they go when
## the chain is over).
func lost_while_resolving() -> Array:
	var found := []
	for mark: Dictionary in last_step_with("target_lost")[2]:
		if mark["kind"] == "lost":
			found.append([mark["unit"], mark["label"]])
	return found


func last_step_with(event_type: String) -> Array:
	for i in range(steps.size() - 1, -1, -1):
		for event: Dictionary in steps[i][1]:
			if event["type"] == event_type:
				return steps[i]
	return []


## The text of the card or move [param id] ([param kind] [code]cards[/code] or
## [code]moves[/code]) as the battle's state words it.
func text_of(kind: String, id: String) -> String:
	for definition: Dictionary in view.state[kind]:
		if definition["id"] == id:
			return str(definition["text"])
	return ""


## The runtime's cut answer, asked afresh (not the view's copy).
func runtime_cut() -> Dictionary:
	return await view.bridge.ask("cut", {"session": view.bridge.session})


## The prompt and buttons shown are the runtime's answer: its words, its can_respond and
## can_pass.
func check_controls(why: String) -> void:
	var answer := await runtime_cut()
	var shown := view.cut_view.shown()
	check_eq(shown["prompt"], str(answer["prompt"]), why + ": the runtime's prompt")
	check_eq(shown["respond"]["enabled"], answer["can_respond"], why + ": Respond")
	check_eq(shown["pass"]["enabled"], answer["can_pass"], why + ": Pass")


func pass_times(count: int) -> void:
	for i in count:
		await view.pass_priority()


func test_an_activation_waits_with_its_range_and_the_enemy_answers_on_top() -> void:
	await opened()
	var shown := view.cut_view.shown()
	check_eq(shown["entries"], [], "an empty Cut")
	check(not shown["pass"]["enabled"] and not shown["respond"]["enabled"], "nothing to do")
	check_eq(shown["prompt"], "Play a card to start a chain.", "asked to start a chain")
	await check_controls("an empty Cut")
	check(await view.play_card_at("c2", PackedStringArray()), "the Barrage is activated")
	shown = view.cut_view.shown()
	check_eq(
		shown["prompt"],
		"The opponent may respond. Pass to let them answer.",
		"the enemies have not answered"
	)
	await check_controls("awaiting the enemy")
	check_eq(shown["entries"].size(), 1, "one entry")
	check_eq(shown["entries"][0]["title"], "Barrage", "the card")
	check_eq(shown["entries"][0]["detail"], "Captain Aya · reaches Volatile Drone", "its range")
	check_eq(marks_of("range"), [["drone", 1]], "1 over the drone it reaches")
	check(shown["pass"]["enabled"] and not shown["respond"]["enabled"], "only Pass")
	check(not view.can_play("c3"), "no card of the hand can answer your own entry")
	check_eq(view.why_not("c3"), str(view.cut["activate_reason"]), "the runtime's reason")
	check(await view.pass_priority(), "passing gives the enemies their chance")
	shown = view.cut_view.shown()
	check_eq(
		shown["entries"].map(func(e: Dictionary) -> String: return e["title"]),
		["Signal Flare", "Barrage"],
		"the Beacon's answer on top"
	)
	check_eq(shown["entries"][0]["side"], "enemy", "the enemy's entry")
	check_eq(
		shown["prompt"],
		"Your answer: respond with a card, or pass to let it resolve.",
		"your answer"
	)
	check(shown["respond"]["enabled"], "you may respond")
	await check_controls("awaiting your answer")
	check(view.can_play("c3"), "with a card of the hand")
	await view.pass_priority()  # the flare resolves: your own answered entry is on top
	check_eq(view.cut_view.shown()["prompt"], "Pass to let it resolve.", "only Pass is left")
	check(not view.cut_view.shown()["respond"]["enabled"], "no response to your own entry")
	await check_controls("your own entry on top")


func test_an_all_effect_shows_the_range_it_collects_again_as_it_resolves() -> void:
	await opened()
	await view.play_card_at("c2", PackedStringArray())
	await view.pass_priority()  # the flare answers
	await view.pass_priority()  # the flare resolves: the Hound enters
	check_eq(view.cut_view.history[0]["title"], "Signal Flare", "the flare resolved")
	check_eq(view.cut_view.history[0]["outcome"], "resolved", "without failing")
	await view.pass_priority()  # the Barrage resolves
	var step := last_step_with("recollected")
	check(not step.is_empty(), "a step told the range collected again")
	var ranges := []
	for mark: Dictionary in step[2]:
		if mark["kind"] == "range":
			ranges.append(mark["unit"])
	check_eq(ranges, ["drone", "hound"], "the Hound that entered on the Cut is in it")
	check_eq(step[3]["entries"][0]["state"], "resolving", "the Cut shows it resolving")
	check_eq(
		step[3]["entries"][0]["detail"],
		"Captain Aya · reaches Volatile Drone, War Hound",
		"its entry names the new range"
	)
	check_eq(view.cut_view.shown()["entries"], [], "then the Cut is empty")
	check_eq(marks_of("range"), [], "and so are the markers")
	check_eq(step[3]["status"], "Resolving 2 of 2: Barrage…", "the chain's progress as it plays")
	check_eq(step[3]["prompt"], "", "not the prompt of before the pass")
	check(not step[3]["pass"]["enabled"], "Pass waits for the playback")
	check_eq(view.cut_view.status, "Chain resolved.", "the chain is over")
	check_eq(view.cut_view.shown()["chains"], ["Chain 1"], "both entries under one heading")
	check_eq(
		view.cut_view.history.map(
			func(item: Dictionary) -> Array: return [item["chain"], item["label"]]
		),
		[[1, 1], [1, 2]],
		"numbered by their place in their chain"
	)
	await view.play_card_at("c3", PackedStringArray(["drone"]))
	check_eq(view.cut_view.status, "", "a new chain starts")
	await pass_times(3)
	check_eq(view.cut_view.shown()["chains"], ["Chain 2", "Chain 1"], "a heading per chain")


func test_an_entry_tooltip_reads_the_rivals_move_before_it_resolves() -> void:
	await opened()
	await view.play_card_at("c2", PackedStringArray())
	await view.pass_priority()  # the flare answers
	var flare: Dictionary = view.cut["cut"][-1]
	var tip: Dictionary = view.cut_view.entry_tip(str(flare["id"]))
	check_eq([tip["title"], tip["text"]], ["Signal Flare", text_of("moves", "flare")], "its text")
	check_eq(tip["note"], "Source: Signal Beacon", "and its source (it targets no one)")
	await view.play_card_at("c3", PackedStringArray(["drone"]))  # a Strike in answer
	var strike: Dictionary = view.cut["cut"][-1]
	tip = view.cut_view.entry_tip(str(strike["id"]))
	check_eq(tip["text"], text_of("cards", "strike"), "the card's text")
	check_eq(
		tip["note"], "Source: Captain Aya\nLocked targets: Volatile Drone", "its locked target"
	)
	check_eq(view.cut_view.entry_tip("e99"), {}, "no tooltip for an entry not on the Cut")


func test_a_lost_target_fizzles_the_entry_with_the_runtimes_reason() -> void:
	await opened()
	await view.play_card_at("c2", PackedStringArray())
	await pass_times(3)  # the Beacon's flare answers the Barrage and burns out
	await view.play_card_at("c3", PackedStringArray(["drone"]))
	check_eq(marks_of("locked"), [["drone", 1]], "the Strike's locked target")
	await pass_times(3)  # the drone answers: it blows itself up
	var failed: Dictionary = view.cut_view.history[0]
	check_eq(failed["outcome"], "failed", "the Strike fizzled")
	check_eq(
		failed["lines"],
		["Volatile Drone is lost as a target: it has fallen.", "Strike fails: its target is lost."],
		"with the runtime's words"
	)
	check_eq(lost_while_resolving(), [["drone", 1]], "a lost marker on the drone as it fizzled")
	check_eq(marks_of("lost"), [], "gone with the chain: nothing covers the fallen drone")
	check_eq(view.cut_view.history[1]["title"], "Self-Destruct", "the drone's answer resolved")
	await view.play_card_at("c6", PackedStringArray(["vex"]))  # refused: Vex is warded
	check_eq(marks_of("lost"), [], "a refused play changes nothing")


func test_protection_gained_on_the_cut_loses_the_target() -> void:
	var hide := {
		"id": "hide",
		"name": "Hide",
		"target": "Self",
		"response": true,
		"behavior":
		{
			"start": "ward",
			"nodes": [{"id": "ward", "type": "ApplyStatus", "status": "ward", "source": "Self"}]
		}
	}
	var jab := card(
		"jab", "SingleEnemy", {"id": "hit", "type": "DealDamage", "amount": 1, "source": "Target"}
	)
	var ward := {"id": "ward", "name": "Ward", "protection": "all"}
	await opened(small_battle([jab], ["orc"], "strict", [hide], [ward]))
	await view.play_card_at("h1", PackedStringArray(["orc"]))
	await view.pass_priority()
	await view.pass_priority()
	await view.pass_priority()
	check_eq(
		view.cut_view.history[0]["lines"],
		["Orc is lost as a target: it is protected.", "Jab fails: its target is lost."],
		"protected"
	)
	check_eq(lost_while_resolving(), [["orc", 1]], "marked lost as it resolved")


func test_end_turn_waits_for_the_cut_and_the_keys_pass() -> void:
	await opened()
	await view.play_card_at("c2", PackedStringArray())
	var refused := []
	view.request_refused.connect(func(op: String, why: String) -> void: refused.append([op, why]))
	check(not await view.end_turn(), "no turn ends while effects wait")
	var answer := await runtime_cut()
	check(str(answer["end_turn_reason"]).contains("wait on the Cut"), "the runtime's reason")
	check_eq(refused, [["end_turn", answer["end_turn_reason"]]], "and it says so in its words")
	var space := InputEventKey.new()
	space.keycode = KEY_SPACE
	space.pressed = true
	Input.parse_input_event(space)
	await frames(3)
	while view.is_busy():
		await frames(1)
	check_eq(view.cut_view.shown()["entries"].size(), 2, "Space passed: the flare answered")


func test_under_soft_rules_a_lost_target_does_not_fizzle_the_entry() -> void:
	var hide := {
		"id": "hide",
		"name": "Hide",
		"target": "Self",
		"response": true,
		"behavior":
		{
			"start": "ward",
			"nodes": [{"id": "ward", "type": "ApplyStatus", "status": "ward", "source": "Self"}]
		}
	}
	var jab := card(
		"jab", "SingleEnemy", {"id": "hit", "type": "DealDamage", "amount": 1, "source": "Target"}
	)
	var ward := {"id": "ward", "name": "Ward", "protection": "all"}
	await opened(small_battle([jab], ["orc"], "soft", [hide], [ward]))
	check(await view.play_card_at("h1", PackedStringArray(["orc"])), "the Jab is activated")
	await pass_times(3)  # the orc hides; the Jab resolves without its target
	var item: Dictionary = view.cut_view.history[0]
	check_eq(item["title"], "Jab", "the Jab left the Cut")
	check_eq(item["outcome"], "resolved", "soft rules: a lost target skips, the entry resolves")
	check_eq(
		item["lines"], ["Orc is lost as a target: it is protected."], "the runtime's line, no fail"
	)
	check_eq(lost_while_resolving(), [["orc", 1]], "the lost target is marked as it resolves")
	check_eq(marks_of("lost"), [], "until the chain is over")


func test_a_target_that_left_the_field_fizzles_the_entry_under_strict_rules() -> void:
	var retreat := {
		"id": "retreat",
		"name": "Retreat",
		"target": "Self",
		"response": true,
		"behavior":
		{"start": "away", "nodes": [{"id": "away", "type": "Withdraw", "source": "Self"}]}
	}
	var jab := card(
		"jab", "SingleEnemy", {"id": "hit", "type": "DealDamage", "amount": 1, "source": "Target"}
	)
	await opened(small_battle([jab], ["orc"], "strict", [retreat]))
	check(await view.play_card_at("h1", PackedStringArray(["orc"])), "the Jab is activated")
	check_eq(marks_of("locked"), [["orc", 1]], "the Jab's locked target")
	await pass_times(3)  # the orc answers by withdrawing to the reserve; the Jab resolves
	var state: Dictionary = await view.bridge.ask("state", {"session": view.bridge.session})
	var zones := {}
	for unit: Dictionary in state.get("state", state).get("units", []):
		zones[unit["id"]] = unit.get("zone", "field")
	check_eq(zones.get("orc"), "reserve", "the orc is in the reserve")
	var item: Dictionary = view.cut_view.history[0]
	check_eq([item["title"], item["outcome"]], ["Jab", "failed"], "the Jab fizzled")
	check_eq(
		item["lines"],
		["Orc is lost as a target: it left the field.", "Jab fails: its target is lost."],
		"with the runtime's reason: it left the field"
	)
