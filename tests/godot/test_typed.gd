extends "res://suite.gd"
## The typed objects (PyBridge.BattleState, PyBridge.Unit, PyBridge.Side, PyBridge.Card,
## PyBridge.CutEntry, PyBridge.Targets, PyBridge.Event, PyBridge.LateChoice, PyBridge.AskedChoice,
## PyBridge.Step, PyBridge.LogLine, PyBridge.Outcome, PyBridge.CutStatus, PyBridge.Refusal,
## and PyBridge.Choice as a pick) built from the runtime's real answers:
## every field of the shape each mirrors ([code]schema[/code]'s [code]shapes[/code]) is a
## property holding the Variant type that field's type says, ints as [code]TYPE_INT[/code]; an
## event's params are typed by the schema's [code]field_types[/code], an extension's event too.

const RIVALS_FILE := "res://battle/rivals_battle.json"
const PEEK := {"id": "look", "type": "Peek", "count": 2}
const LATE_NODE := {"id": "hit", "type": "DealDamage", "amount": 5, "source": "Target"}

var client: PyBridgeClient = null
var schema: Dictionary = {}
var shapes: Dictionary = {}
## Shape name -> whether a typed class mirrors it (else its objects stay Dictionaries).
var classes: Dictionary = {}


func opened(battle: Dictionary) -> PyBridge.BattleState:
	client = web_client()
	read_schema(client.schema())
	return PyBridge.BattleState.from(client.open_battle(battle))


func read_schema(answer: Dictionary) -> void:
	schema = answer
	for shape: Dictionary in schema["shapes"]:
		shapes[shape["name"]] = shape
	var members: Dictionary = (
		load("res://addons/pybridge_targeting/pybridge.gd").get_script_constant_map()
	)
	for member: Variant in members.values():
		var constants: Dictionary = (member as Script).get_script_constant_map()
		for shape_name: String in constants.get("SHAPES", []):
			classes[shape_name] = true


## The Variant type a value of [param type_text] has once typed (-1: any).
func variant_type(type_text: String) -> int:
	var kind := type_text.trim_suffix("?")
	var scalars := {
		"int": TYPE_INT,
		"float": TYPE_FLOAT,
		"bool": TYPE_BOOL,
		"string": TYPE_STRING,
		"object": TYPE_DICTIONARY,
		"list<string>": TYPE_PACKED_STRING_ARRAY,
	}
	if scalars.has(kind):
		return scalars[kind]
	if kind.begins_with("list<"):
		return TYPE_ARRAY
	if kind.begins_with("map<"):
		return TYPE_DICTIONARY
	if shapes.has(kind):
		return TYPE_OBJECT if classes.has(kind) else TYPE_DICTIONARY
	return -1


## Checks every field of the shapes [param object] mirrors, and the typed objects it holds.
func check_typed(object: Object, where: String) -> void:
	var constants: Dictionary = object.get_script().get_script_constant_map()
	var left_out: Dictionary = constants.get("LEFT_OUT", {})
	var inline: Array = constants.get("INLINE", [])
	var renamed: Dictionary = constants.get("RENAMED", {})
	for shape_name: String in constants["SHAPES"]:
		var fields: Array = shapes[shape_name]["fields"].duplicate()
		for field: Dictionary in shapes[shape_name]["fields"]:
			if field["name"] in inline:
				fields.append_array(shapes[field["type"].trim_suffix("?")]["fields"])
		for field: Dictionary in fields:
			var name: String = renamed.get(field["name"], field["name"])
			if left_out.has(name) or name in inline:
				continue
			var wanted := variant_type(field["type"])
			if not check(name in object, "%s: %s has no property %s" % [where, shape_name, name]):
				continue
			var value: Variant = object.get(name)
			if wanted == TYPE_OBJECT and value == null:
				continue  # a nullable object the runtime gave none of
			if wanted >= 0:
				check_eq(typeof(value), wanted, "%s.%s (%s)" % [where, name, field["type"]])
			if value is Object:
				check_typed(value, "%s.%s" % [where, name])
			elif value is Array:
				for i in value.size():
					if value[i] is Object:
						check_typed(value[i], "%s.%s[%d]" % [where, name, i])


## Checks every event of [param events] typed by the schema: each field of its type holds the
## Variant type its field type says (null where the runtime gave none), its unit after too.
func check_events(events: Array[PyBridge.Event], raw: Array) -> void:
	var types := PyBridge.Event.types_by_event(schema)
	check_eq(events.size(), raw.size(), "every event typed")
	for i in events.size():
		var event := events[i]
		check_eq(event.type, str(raw[i]["type"]), "its type")
		check_typed(event, "event %d" % i)
		var field_types: Dictionary = types[event.type]
		for field: String in event.params:
			var wanted := variant_type(field_types.get(field, "any"))
			var value: Variant = event.params[field]
			if value != null and wanted >= 0:
				check_eq(typeof(value), wanted, "%s.%s" % [event.type, field])


func test_a_one_sided_state_is_typed_with_one_side_made_from_its_own_fields() -> void:
	var state := await opened(demo_battle())
	check_typed(state, "state")
	check_eq(state.turn, 1, "the turn, an int")
	check_eq(state.sides.size(), 1, "one side")
	var side := state.side()
	check_eq(side.team, "player", "the player's")
	check_eq(side.energy, 3, "its energy, an int")
	check(side.hand.size() > 0 and side.hand[0] is PyBridge.Card, "its hand: typed cards")
	var knight := state.unit("knight")
	check(knight != null and typeof(knight.hp) == TYPE_INT and knight.hp > 0, "a unit's hp")
	check_eq(state.units.size(), (client.state()["units"] as Array).size(), "every unit")
	var enemy := state.units[state.units.size() - 1]
	check(not enemy.intent.is_empty(), "an enemy's intent")
	check_eq(typeof(enemy.intent["forecast"]["acts"]), TYPE_BOOL, "its forecast, as the runtime")


func test_two_card_playing_sides_are_typed_per_side() -> void:
	var state := await opened(JSON.parse_string(FileAccess.get_file_as_string(RIVALS_FILE)))
	check_typed(state, "rivals")
	check_eq(state.sides.size(), 2, "two sides")
	check_eq(state.turn_side, "player", "whose turn")
	check_eq(state.side("enemy").team, "enemy", "the enemy side")
	check_eq(state.side("enemy").hand.size(), 5, "its hand")
	check_eq(state.side("enemy").hand_at_turn_end, "keep", "what it does with its hand")
	check(state.side().find_card("a1") != null, "the turn side's card")
	check_eq(state.side("player").pile("draw"), state.side("player").draw, "a pile by name")
	check_eq(state.side("player").pile("nowhere"), [] as Array[PyBridge.Card], "none")


func test_a_view_has_card_backs() -> void:
	await opened(JSON.parse_string(FileAccess.get_file_as_string(RIVALS_FILE)))
	var view := PyBridge.BattleState.from(
		client.request("view", {"session": client.session, "viewer": "player"})["view"]
	)
	check_typed(view, "view")
	check_eq(view.view.get("viewer"), "player", "whose view")
	var backs := view.side("enemy").hand.filter(func(c: PyBridge.Card) -> bool: return c.is_back())
	check_eq(backs.size(), 5, "the other side's hand: card backs")


func test_a_targets_answer_and_the_events_of_a_play_and_an_enemy_turn_are_typed() -> void:
	var state := await opened(demo_battle())
	var card_id := state.side().hand[0].id
	var answer := PyBridge.Targets.from(client.targets(card_id))
	check_typed(answer, "targets")
	check_eq(answer.count, 1, "count, an int")
	check(answer.playable and answer.candidates.size() > 0, "a card it can aim")
	var played := client.play(card_id, answer.candidates[0] if answer.requires_target else "")
	var events := PyBridge.Event.list_from(played["events"], schema)
	check_events(events, played["events"])
	check_eq(events[0].get_int("energy_before"), 3, "the energy before, an int")
	var hit := events.filter(func(e: PyBridge.Event) -> bool: return e.unit_after != null)
	check(hit.size() > 0, "an event tells its unit after it")
	check_eq(typeof(hit[0].unit_after.hp), TYPE_INT, "its hp, an int")
	check_eq(hit[0].unit_after.id, hit[0].get_text("unit"), "its id: the event's unit")
	var turn := client.end_turn()
	check_events(PyBridge.Event.list_from(turn["events"], schema), turn["events"])
	check_typed(PyBridge.BattleState.from(turn["state"]), "after the turn")


func test_the_cut_entries_of_a_state_and_of_the_cut_answer_are_typed() -> void:
	var state := await opened(duel_battle())
	var activated := {}
	for instance: PyBridge.Card in state.side().hand:
		var answer := PyBridge.Targets.from(client.targets(instance.id))
		if answer.playable and answer.count == 1 and answer.late_choice == null:
			var fields := {"session": client.session, "card": instance.id}
			if answer.requires_target:
				fields["target"] = answer.candidates[0]
			activated = client.request("activate", fields)
			break
	check(not activated.is_empty(), "a card went on the Cut")
	var after := PyBridge.BattleState.from(activated.get("state", {}))
	check_typed(after, "state on the Cut")
	check_eq(after.cut.size(), 1, "one entry")
	check(after.cut[0].card is PyBridge.Card, "its card")
	var cut: Dictionary = client.request("cut", {"session": client.session})
	for data: Dictionary in cut["cut"]:
		var entry := PyBridge.CutEntry.from(data)
		check_typed(entry, "cut answer's entry")
		check_eq(entry.id, after.cut[0].id, "the same entry")


func test_an_extensions_event_arrives_typed_with_no_gdscript_of_its_own() -> void:
	var document := small_battle([card("peek", "None", PEEK)], ["orc"])
	document["piles"]["draw"] = [{"id": "d1", "card": "peek"}, {"id": "d2", "card": "peek"}]
	await opened(document)
	var asked := client.request("play", {"session": client.session, "card": "h1"})
	check(asked.is_empty() and client.last_error.get("code") == "choice_needed", "it asks")
	var choice: Dictionary = client.last_error["choice"]
	var fields := {"session": client.session, "card": "h1", "choices": {choice["key"]: ["d2"]}}
	var played := client.request("play", fields)
	var events := PyBridge.Event.list_from(played["events"], schema)
	check_events(events, played["events"])
	var peeked := events.filter(func(e: PyBridge.Event) -> bool: return e.type == "peeked")
	if check_eq(peeked.size(), 1, "the extension's event"):
		check_eq(peeked[0].get_int("looked"), 2, "looked, an int")
		check_eq(typeof(peeked[0].params["looked"]), TYPE_INT, "as TYPE_INT")
		check_eq(peeked[0].get_ids("kept"), PackedStringArray(["d2"]), "kept, a list of ids")
		check_eq(peeked[0].get_text("node"), "look", "its node")


func test_the_battle_view_hands_out_the_typed_state_targets_and_events() -> void:
	var view := battle_view(web_client())
	view.step_seconds = 0.05
	var states: Array[PyBridge.BattleState] = []
	view.battle_state_changed.connect(func(s: PyBridge.BattleState) -> void: states.append(s))
	var shown: Array[PyBridge.Event] = []
	view.event_shown.connect(func(e: PyBridge.Event, _step: PyBridge.Step) -> void: shown.append(e))
	var raw := []
	view.playback_event_shown.connect(func(e: Dictionary, _step: Dictionary) -> void: raw.append(e))
	check(await view.open_battle(demo_battle()), "the battle opens")
	read_schema(view.schema)
	check_eq(states.size(), 1, "a typed state when it opened")
	check(view.battle_state == states[0], "the view's typed state")
	check_typed(view.battle_state, "the view's state")
	check_eq(view.unit("knight").hp, int(view.state["units"][0]["hp"]), "a unit by id")
	var card_id := view.battle_state.side().hand[0].id
	var answer := view.typed_targets(card_id)
	check_typed(answer, "the view's targets")
	check_eq(answer.candidates, PackedStringArray(view.targets_of(card_id)["candidates"]), "same")
	var played := []
	view.card_played.connect(func(_c: String, _t: String, r: Dictionary) -> void: played.append(r))
	check(await view.play_card(card_id, answer.candidates[0]), "it plays")
	check_events(view.events_of(played[0]), played[0]["events"])
	check_eq(states.size(), 2, "a typed state after the play")
	await view.end_turn()
	check(raw.size() > 0, "the enemy turn played back")
	check_eq(shown.size(), raw.size(), "each event shown typed too")
	check_events(shown, raw)
	check_eq(view.cut_entries(), [] as Array[PyBridge.CutEntry], "nothing on the Cut")


func test_a_playback_step_is_typed_for_the_step_handler_and_its_signals() -> void:
	var view := battle_view(web_client())
	view.step_seconds = 0.05
	var handled: Array[PyBridge.Step] = []
	view.step_handler = func(step: PyBridge.Step) -> void: handled.append(step)
	var deprecated := []
	view.playback_handler = func(step: Dictionary) -> void: deprecated.append(step)
	var typed: Array[PyBridge.Step] = []
	view.step_shown.connect(func(step: PyBridge.Step) -> void: typed.append(step))
	var raw := []
	view.playback_step_shown.connect(func(step: Dictionary) -> void: raw.append(step))
	var of_events: Array[PyBridge.Step] = []
	view.event_shown.connect(
		func(_e: PyBridge.Event, step: PyBridge.Step) -> void: of_events.append(step)
	)
	check(await view.open_battle(demo_battle()), "the battle opens")
	read_schema(view.schema)
	await view.end_turn()
	check(typed.size() > 2, "the enemy turn plays back step by step")
	check_eq(typed.size(), raw.size(), "each step typed too")
	check_eq(handled, typed, "the typed hook is given each step")
	check_eq(deprecated.size(), 0, "it wins over the deprecated Dictionary hook")
	var lines := 0
	for i in typed.size():
		var step := typed[i]
		check_typed(step, "step %d" % i)
		check_eq([step.op, step.index, step.count], ["end_turn", i, raw.size()], "where it is")
		check_events(step.events, raw[i]["events"])
		var line: Dictionary = raw[i]["line"]
		if line.is_empty():
			check(step.line == null, "no line")
			continue
		lines += 1
		check(step.line is PyBridge.LogLine, "its line, typed")
		check_eq(step.line.text, str(line["text"]), "its line's English")
		check_eq(typeof(step.line.event), TYPE_INT, "the event it tells, an int")
		var said := PyBridge.Sentences.say(line.get("message"), str(line["text"]))
		check_eq(step.sentence(), said, "its line as a sentence")
	check(lines > 0, "steps with log lines")
	check(not of_events.is_empty(), "events were shown")
	check(of_events.all(func(step: PyBridge.Step) -> bool: return step in typed), "their steps")


func test_a_late_choice_and_its_pick_are_typed() -> void:
	var late := card("late", "SingleEnemy", LATE_NODE, {"choose_on_resolve": true})
	await opened(small_battle([late], ["orc", "imp"], "strict"))
	var answer := PyBridge.Targets.from(client.targets("h1"))
	check_typed(answer, "targets")
	if not check(answer.late_choice is PyBridge.LateChoice, "a late choice, typed"):
		return
	check_eq(answer.late_choice.chooses, "units", "it chooses units")
	check_eq(answer.late_choice.candidates, PackedStringArray(["orc", "imp"]), "of these")
	var choice := PyBridge.Choice.for_card("h1", client.targets("h1"))
	check(await choice.refresh(client), "the runtime answers its pick")
	check(await choice.add(client, "imp"), "a pick")
	check_typed(choice, "the pick")
	check_eq([choice.needed, choice.count, choice.complete], [1, 1, true], "ints and flags")
	var fields := {"session": client.session, "card": "h1"}
	check(not client.request("activate", fields).is_empty(), "on the Cut")
	var cut: Dictionary = client.request("cut", {"session": client.session})
	var entry := PyBridge.CutEntry.from(cut["cut"][0])
	check_typed(entry, "the entry")
	check(entry.late_choice is PyBridge.LateChoice, "the entry's late choice, typed")


func test_a_choice_an_action_asks_is_typed() -> void:
	var document := small_battle([card("peek", "None", PEEK)], ["orc"])
	document["piles"]["draw"] = [{"id": "d1", "card": "peek"}, {"id": "d2", "card": "peek"}]
	await opened(document)
	client.request("play", {"session": client.session, "card": "h1"})
	check_eq(client.last_error.get("code"), "choice_needed", "it asks")
	var choice := PyBridge.Choice.for_asked(client.last_error)
	check_typed(choice.asked_choice, "the asked choice")
	check_eq(choice.asked_choice.options, PackedStringArray(["d1", "d2"]), "its options")
	check_eq(typeof(choice.asked_choice.maximum), TYPE_INT, "how many, an int")
	check(not choice.asked_choice.prompt_text().is_empty(), "its prompt, said")
	check_eq(choice.answer_key(), choice.asked_choice.key, "where the answer goes")
	check(await choice.refresh(client), "the runtime answers its first pick")
	check(await choice.add(client, "d2"), "a pick")
	check_typed(choice, "its pick")


func test_the_client_gives_its_answers_typed() -> void:
	read_schema(web_client().schema())
	client = web_client()  # a client that has asked no schema: ask_typed asks it
	var first: Variant = await client.ask_typed("open", {"battle": duel_battle()})
	check(first is PyBridge.BattleState, "an open answer's state, typed")
	client.open_battle(duel_battle())
	var typed := client.battle_state()
	check_typed(typed, "battle_state()")
	check_eq(typed.turn, 1, "its turn, an int")
	var card_id := ""
	var answer: PyBridge.Targets = null
	for instance: PyBridge.Card in typed.side().hand:  # a card it can put on the Cut now
		answer = client.typed_targets(instance.id)
		card_id = instance.id
		if answer.playable and answer.count == 1 and answer.late_choice == null:
			break
	check_typed(answer, "typed_targets()")
	check_eq(answer.candidates, PackedStringArray(client.targets(card_id)["candidates"]), "same")
	check(client.typed_targets("nowhere") == null, "a refused question: null")
	var asked: PyBridge.Targets = await client.ask_typed(
		"targets", {"session": client.session, "card": card_id}
	)
	check_eq(asked.mode, answer.mode, "ask_typed: the same answer, typed")
	var fields := {"session": client.session, "card": card_id}
	if answer.requires_target:
		fields["target"] = answer.candidates[0]
	var outcome: PyBridge.Outcome = await client.ask_typed("activate", fields)
	check_typed(outcome, "ask_typed(activate): an outcome")
	check(not outcome.events.is_empty(), "the card went on the Cut")
	var raw: Dictionary = JSON.parse_string(client.last_response_of("activate"))["result"]
	check_events(outcome.events, raw["events"])
	check_eq(outcome.log_lines.size(), raw["log"].size(), "its log lines")
	check_eq(outcome.state.cut.size(), 1, "and the state after it")
	check_eq(client.events_of(raw).size(), raw["events"].size(), "events_of(), the same events")
	var entries := client.cut_entries()
	check_eq(entries.size(), 1, "one entry on the Cut")
	check_typed(entries[0], "cut_entries()")
	var status: PyBridge.CutStatus = await client.ask_typed("cut", {"session": client.session})
	check_typed(status, "ask_typed(cut): the Cut's status")
	check_eq(status.entries.size(), 1, "with its entry")
	var ticket := client.send("state", {"session": client.session})
	var answered: Array = await client.response_received
	check_eq(answered[0], ticket, "its answer")
	var later: Variant = client.typed_answer(answered[1], answered[2])
	check(later is PyBridge.BattleState, "typed_answer() reads a response_received's result")
	check_eq((later as PyBridge.BattleState).cut.size(), 1, "with the entry")


func test_an_outcome_and_its_log_lines_are_typed() -> void:
	var state := await opened(demo_battle())
	var types := PyBridge.Event.types_by_event(schema)
	var card_id := state.side().hand[0].id
	var answer := client.typed_targets(card_id)
	var played := client.play(card_id, answer.candidates[0] if answer.requires_target else "")
	var outcome := PyBridge.Outcome.from(played, types)
	check_typed(outcome, "the play's outcome")
	check_events(outcome.events, played["events"])
	check_eq(outcome.log_lines.size(), (played["log"] as Array).size(), "every log line")
	var first := outcome.log_lines[0]
	check_eq(first.text, str(played["log"][0]["text"]), "its English")
	check_eq(typeof(first.event), TYPE_INT, "the event it tells, an int")
	check_eq(first.sentence(), PyBridge.Sentences.say(played["log"][0]["message"], first.text), "")
	check(outcome.state is PyBridge.BattleState, "the state after it")
	check_eq(outcome.session, "", "no session but open's")
	var turn := PyBridge.Outcome.from(client.end_turn(), types)
	check_typed(turn, "the turn's outcome")
	check_eq(turn.state.turn, 2, "the next turn")
	check(not turn.events_of_type(turn.events[0].type).is_empty(), "its events by type")


func test_a_refusal_is_typed_and_read_by_its_code() -> void:
	var state := await opened(demo_battle())
	var strike := ""
	for instance: PyBridge.Card in state.side().hand:
		if instance.card == "strike":
			strike = instance.id
	check(client.last_refusal == null, "no refusal after a success")
	check(client.play(strike, "knight").is_empty(), "Strike at the Knight is refused")
	var refusal := client.last_refusal
	check_typed(refusal, "the refusal")
	check_eq(refusal.code, "not_a_candidate", "its code")
	check_eq(refusal.where, "target", "the field it names")
	check_eq(refusal.reason_message["id"], "refusal.not_a_target", "its sentence")
	check_eq(refusal.said(), PyBridge.Sentences.said_error(client.last_error), "said")
	check(refusal.message.contains("knight"), "the developer's message names the unit")
	check(client.play("nowhere").is_empty(), "an unknown card")
	check_eq([client.last_refusal.code, client.last_refusal.reason], ["unknown_card", ""], "")
	check_eq(client.last_refusal.said(), client.last_refusal.message, "said: its message")


func test_a_refusal_that_asks_a_choice_carries_it_typed() -> void:
	var document := small_battle([card("peek", "None", PEEK)], ["orc"])
	document["piles"]["draw"] = [{"id": "d1", "card": "peek"}, {"id": "d2", "card": "peek"}]
	await opened(document)
	client.request("play", {"session": client.session, "card": "h1"})
	var refusal := client.last_refusal
	check_typed(refusal, "choice_needed")
	check_eq(refusal.code, "choice_needed", "its code")
	check(refusal.choice is PyBridge.AskedChoice, "the choice, typed")
	check_eq(refusal.choice.options, PackedStringArray(["d1", "d2"]), "its options")


func test_the_cut_status_is_typed() -> void:
	await opened(duel_battle())
	var fields := {"session": client.session, "card": "c2"}  # the Barrage, no target
	check(not client.request("activate", fields).is_empty(), "on the Cut")
	var answer: Dictionary = client.request("cut", {"session": client.session})
	var status := PyBridge.CutStatus.from(answer)
	check_typed(status, "the cut answer")
	check_eq(status.entries.size(), 1, "one entry")
	check_eq(status.entries[0].card.card, "barrage", "its card")
	check_eq([status.can_pass, status.can_end_turn], [true, false], "what may be done now")
	check_eq(status.end_turn_reason, str(answer["end_turn_reason"]), "why not")
	check_eq(status.said_prompt(), PyBridge.Sentences.say(answer["prompt_message"], ""), "")
