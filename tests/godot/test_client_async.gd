extends "res://suite.gd"
## The asynchronous API over a line pipe (the stdio transport's path): a request returns at
## once, its answer comes later as a signal on the main thread, in order; the synchronous API
## refuses rather than wait; the battle view keeps drawing frames while answers are out.
## The worker's thread cannot run in this single-threaded web runtime: the test plays the
## worker by calling serve_next(), one exchange at a time, when it chooses.

const RuntimePipe := preload("res://fixtures/runtime_pipe.gd")

var answers: Array = []


func piped_client(pipe: RefCounted = RuntimePipe.new()) -> PyBridgeClient:
	var client := PyBridgeClient.new()
	client.push_errors = false
	add_child(client)
	check(client.connect_pipe(pipe, false), "a pipe connects without a thread")
	client.response_received.connect(
		func(ticket: int, op: String, result: Dictionary, error: Dictionary) -> void:
			answers.append([ticket, op, result, error])
	)
	return client


func test_a_request_returns_at_once_and_its_answer_comes_later_in_order() -> void:
	var client := piped_client()
	check(client.is_async() and client.transport_name() == "stdio", "the pipe answers later")
	var first := client.send("version")
	var second := client.send("no_such_op")
	check(second > first, "tickets grow")
	check_eq(client.waiting(), 2, "both wait")
	check_eq(client.stdio_worker.waiting(), 2, "both are queued for the worker")
	await frames(2)
	check_eq(answers, [], "nothing is answered before the worker writes")
	client.stdio_worker.serve_next()
	check_eq(answers, [], "the answer reaches the main thread deferred")
	await frames(1)
	check_eq(answers.size(), 1, "then the first answer arrives")
	check_eq(answers[0][0], first, "for the first ticket")
	check_eq(str(answers[0][2].get("version", "")).is_empty(), false, "with the version")
	client.stdio_worker.serve_next()
	await frames(1)
	check_eq(answers[1][0], second, "the second answer follows")
	check_eq(answers[1][3].get("code"), "unknown_op", "a failure carries its error")
	check_eq(client.waiting(), 0, "nothing waits")


func test_the_synchronous_api_refuses_instead_of_waiting() -> void:
	var client := piped_client()
	var failed := []
	client.request_failed.connect(func(code: String, _m: String) -> void: failed.append(code))
	check_eq(client.version(), {}, "version() gives nothing over the pipe")
	check_eq(failed, [PyBridgeClient.WOULD_BLOCK], "and says it would block")
	check_eq(client.stdio_worker.waiting(), 0, "nothing was written")


func test_ask_awaits_while_frames_go_on() -> void:
	var client := piped_client()
	var worker := client.stdio_worker
	var frames_seen := [0]
	# The worker answers three frames later, as a slow process would.
	var tick := func() -> void:
		frames_seen[0] += 1
		if frames_seen[0] == 3:
			worker.serve_next()
	get_tree().process_frame.connect(tick)
	var result: Dictionary = await client.ask("version")
	get_tree().process_frame.disconnect(tick)
	check(not str(result.get("version", "")).is_empty(), "ask() gives the result")
	check(frames_seen[0] >= 3, "frames went on while it waited (%d)" % frames_seen[0])


func test_an_open_with_libraries_goes_on_one_line_as_the_files_hold_them() -> void:
	var pipe := RuntimePipe.new()
	var client := piped_client(pipe)
	var worker := client.stdio_worker
	var battle: Dictionary = PyBridgeClient.integral(demo_battle())
	battle["piles"]["hand"].append({"id": "lib1", "card": "lantern"})
	var library := {
		"format": "pybridge/cards@1",
		"cards": [{"id": "lantern", "name": "Lantern", "target": "None", "text": "A light."}],
	}
	# Pretty-printed, as a project's files hold them: the line protocol still gets one line.
	var texts := PackedStringArray([JSON.stringify(library, "  ")])
	var tick := func() -> void:
		if worker.waiting() > 0:
			worker.serve_next()
	get_tree().process_frame.connect(tick)
	var state: Dictionary = await client.ask_open(JSON.stringify(battle, "  "), texts)
	get_tree().process_frame.disconnect(tick)
	check_eq(pipe.written.size(), 1, "one line was written")
	var line := pipe.written[0]
	check(not "\n" in line and '"libraries":[' in line, "the open, with its library")
	var hand := []
	for card: Dictionary in state.get("piles", {}).get("hand", []):
		hand.append(str(card.get("card")))
	check_eq(hand[hand.size() - 1], "lantern", "the hand names the library's card")


func test_stopping_answers_what_is_still_queued() -> void:
	var client := piped_client()
	var ticket := client.send("version")
	client.disconnect_transport()
	await frames(1)
	check_eq(answers.size(), 1, "the queued request is answered")
	check_eq(answers[0][0], ticket, "as itself")
	check_eq(answers[0][3].get("code"), "transport_unavailable", "with no runtime")


func test_the_battle_view_plays_over_the_pipe_and_drops_stale_answers() -> void:
	var client := piped_client()
	var worker := client.stdio_worker
	var view := battle_view(client)
	var serving := [true]
	var serve := func() -> void:
		while serving[0] and view.is_inside_tree():
			if worker.waiting() > 0:
				worker.serve_next()
			await get_tree().process_frame
	serve.call()
	var opened: bool = await view.open_battle(demo_battle())
	check(opened, "the battle opens over the pipe")
	check_eq(view.hand_slots.size(), 12, "with its hand")
	check(bool(view.targets_of("h1").get("playable")), "and each card's answer")
	var played := [false]
	view.card_played.connect(func(_c: String, _t: String, _r: Dictionary) -> void: played[0] = true)
	view.play_card("h3")
	check(not played[0], "a play goes out and the frame goes on")
	for i in 30:
		if played[0]:
			break
		await frames(1)
	check(played[0], "and comes back")
	check_eq(int(view.state.get("energy")), 2, "Defend cost 1 energy")
	# Two states in a row: the answers for the first arrive after the second was asked for.
	serving[0] = false
	await frames(1)
	var older := view.state.duplicate(true)
	older["energy"] = 1
	var newer := view.state.duplicate(true)
	newer["energy"] = 0
	view.apply_state(older)
	view.apply_state(newer)
	while worker.waiting() > 0:
		worker.serve_next()
	await frames(3)
	check_eq(int(view.state.get("energy")), 0, "the later state shows, the earlier is dropped")
