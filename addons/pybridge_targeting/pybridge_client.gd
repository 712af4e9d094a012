@tool
@icon("res://addons/pybridge_targeting/icons/pybridge_client.svg")
class_name PyBridgeClient
extends "res://addons/pybridge_targeting/transport/pybridge_client_base.gd"
## Speaks the pybridge JSON protocol to the Python targeting runtime.
##
## The transport is picked at run time, the first that works: the [code]PyBridgeNative[/code]
## GDExtension class (desktop builds with the native library), the page's
## [code]pybridge_call[/code] function through [JavaScriptBridge] (web exports that load Python
## with Pyodide), or a [code]pybridge serve --stdio[/code] child process. The WebSocket
## transport ([constant WEBSOCKET], chosen explicitly, with [member server_url]) plays one seat
## of a [code]pybridge serve --ws[/code] match ([PyBridge.WebSocketLink], docs/online.md).
## [br][br]
## [b]Two ways to ask.[/b] The asynchronous API works on every transport and never holds up a
## frame: [method send] queues a request and returns its ticket, the answer arrives as
## [signal response_received]; [method ask] is the same as a coroutine
## ([code]var result := await bridge.ask("targets", {...})[/code]). Over stdio the request is
## written and its answer awaited on a worker thread (StdioWorker). The synchronous
## API ([method request] and the helpers [method targets], [method play]...) answers at once
## and is served by the extension and web transports, whose calls take microseconds; over
## stdio it would wait on another process, so it fails with [code]would_block[/code] instead.
## [br][br]
## Every helper returns the response's [code]result[/code], or an empty [Dictionary] when the
## request failed. A failure never crashes the game: it is emitted as [signal request_failed],
## reported with [method @GlobalScope.push_error] and kept, typed, in [member last_refusal].
## [b]Typed answers[/b] (ints as ints): [method battle_state], [method typed_targets],
## [method cut_entries], [method events_of], [method ask_typed], [method typed_answer].

## How requests reach the runtime.
enum Transport {
	AUTO,  ## Pick the first available: extension, web, stdio.
	EXTENSION,  ## The [code]PyBridgeNative[/code] GDExtension class.
	WEB,  ## [code]window.pybridge_call[/code] through [JavaScriptBridge].
	STDIO,  ## A [code]pybridge serve --stdio[/code] child process (asynchronous only).
	NONE,  ## Nothing reachable.
	WEBSOCKET,  ## A seat of a [code]pybridge serve --ws[/code] match (never picked by AUTO).
}

const Connection := preload("res://addons/pybridge_targeting/transport/pybridge_connection.gd")
const LocalRuntime := preload("res://addons/pybridge_targeting/transport/pybridge_local_runtime.gd")
const Relay := preload("res://addons/pybridge_targeting/battle/pybridge_relay.gd")
const Replies := preload("res://addons/pybridge_targeting/transport/pybridge_replies.gd")
const RequestQueue := preload("res://addons/pybridge_targeting/transport/pybridge_request_queue.gd")
const StdioWorker := preload("res://addons/pybridge_targeting/transport/pybridge_stdio_worker.gd")
const ThinkLoop := preload("res://addons/pybridge_targeting/transport/pybridge_think_loop.gd")
const TypedAnswers := preload("res://addons/pybridge_targeting/transport/pybridge_typed_answers.gd")
const Wire := preload("res://addons/pybridge_targeting/transport/pybridge_wire.gd")
## The GDExtension class that embeds Python.
const EXTENSION_CLASS := LocalRuntime.EXTENSION_CLASS
## The page function a web export defines (see pybridge/web.py).
const WEB_FUNCTION := LocalRuntime.WEB_FUNCTION
## The error code of a synchronous request over a transport that answers later.
const WOULD_BLOCK := Wire.WOULD_BLOCK

## The transport to use. [constant AUTO] tries them in order.
@export var preferred_transport: Transport = Transport.AUTO
## The program started for the stdio transport.
@export var stdio_command: String = "pybridge"
## Its arguments.
@export var stdio_arguments: PackedStringArray = PackedStringArray(["serve", "--stdio"])
## Report failures with [method @GlobalScope.push_error] as well as the signal.
@export var push_errors: bool = true:
	set(value):
		push_errors = value
		if _replies != null:
			_replies.push_errors = value
## The server of the WebSocket transport ([code]ws://127.0.0.1:8765[/code]).
@export var server_url: String = ""
## The match [code]open[/code] joins over WebSocket ([code]""[/code]: it creates one).
@export var online_match: String = ""

## The transport in use: [constant AUTO] until the first request connects one.
var transport: Transport:
	get:
		return _link.transport
## The session of the battle this client opened, or [code]""[/code].
var session: String = ""
## The last failure, the runtime's whole error; empty after a success ([member last_refusal]).
var last_error: Dictionary:
	get:
		return _replies.last_error
	set(value):
		_replies.last_error = value
## The last failure typed (its code, message, a player's reason); null after a success.
var last_refusal: PyBridge.Refusal:
	get:
		return PyBridge.Refusal.from(_replies.last_error)
## The exact text of the last response (numbers keep their integer spelling).
var last_response_text: String = ""
## The worker that serves the stdio transport (null on the others).
var stdio_worker: StdioWorker:
	get:
		return _link.stdio_worker
## The link that serves the WebSocket transport (null on the others): its seat, token, match.
var online: PyBridge.WebSocketLink:
	get:
		return _link.online
## Whether [method think] is thinking of a move now.
var thinking: bool:
	get:
		return _thinker.thinking
## How far the move [method think] thinks of is, from 0 to 1 (its iterations searched).
var think_progress: float:
	get:
		return _thinker.progress

var _link: Connection = Connection.new(_answered)
var _replies: Replies = Replies.new(transport_name)
var _queue: RequestQueue = RequestQueue.new()
var _thinker: ThinkLoop = ThinkLoop.new(ask, add_child.bind(false, Node.INTERNAL_MODE_BACK))
var _typed: TypedAnswers = TypedAnswers.new()


func _init() -> void:
	for part: Object in [_link, _replies, _thinker]:  # they tell; the client tells the game
		Relay.relay(part, self)
	request_succeeded.connect(_typed.note)  # a schema answer types the events from then on


## [param value] with every whole float turned into an int, recursively. Godot's JSON parser
## reads every number as a float and would send [code]40[/code] back as [code]40.0[/code],
## which the runtime refuses where it expects an integer.
static func integral(value: Variant) -> Variant:
	return Wire.integral(value)


func _exit_tree() -> void:
	disconnect_transport()


func _process(delta: float) -> void:
	if online != null:
		online.poll(delta)


## Connects a transport now (requests do it on demand) and returns the one in use.
func connect_transport() -> Transport:
	return _link.connect_transport(
		preferred_transport, stdio_command, stdio_arguments, server_url, online_match
	)


## Talks over [param pipe] (any object with [code]store_line[/code], [code]flush[/code],
## [code]get_line[/code]) as the stdio transport does: on a worker thread when
## [param threaded], else each [method StdioWorker.serve_next] call answers one request.
func connect_pipe(pipe: Object, threaded: bool = true) -> bool:
	return _link.connect_pipe(pipe, threaded)


## Closes the stdio child and frees the extension object; the next request reconnects.
## Requests still waiting are answered with [code]transport_unavailable[/code].
func disconnect_transport() -> void:
	_link.close()


## The name of the transport in use ([code]"extension"[/code], [code]"web"[/code],
## [code]"stdio"[/code] or [code]"none"[/code]).
func transport_name() -> String:
	return String(Transport.find_key(connect_transport())).to_lower()


## Whether the transport answers later (stdio, WebSocket): only [method send], [method ask].
func is_async() -> bool:
	return connect_transport() in [Transport.STDIO, Transport.WEBSOCKET]


## Over WebSocket, the seat to resume on [code]open[/code] instead of taking a new one: the
## match and the token its [code]open[/code] gave ([member PyBridge.WebSocketLink.token]).
func resume_seat(match_name: String, token: String) -> void:
	online_match = match_name
	connect_transport()
	_link.resume(match_name, token)


## How many [method send] requests wait for their answer.
func waiting() -> int:
	return _queue.size()


# -- the asynchronous API -----------------------------------------------------------------


## Sends [code]{"op": op, ...fields}[/code] and returns at once with the request's ticket;
## the answer comes as [signal response_received] with that ticket (every transport).
func send(op: String, fields: Dictionary = {}) -> int:
	var ticket := _queue.take_id()
	return _send_text(ticket, op, Wire.request_text(op, fields, ticket))


## [method send] as a coroutine: [code]await bridge.ask(op, fields)[/code] gives the result
## ([code]{}[/code] on failure, see [signal request_failed]; at once over extension and web).
## A failure coded in [param expected] is an answer the caller handles (a [code]pass[/code]
## that needs a choice first): kept in [member last_error], neither reported nor emitted.
func ask(op: String, fields: Dictionary = {}, expected := PackedStringArray()) -> Dictionary:
	if not is_async():
		return request(op, fields, expected)
	var ticket := _queue.take_id()
	_send_text(ticket, op, Wire.request_text(op, fields, ticket), expected)
	return await RequestQueue.await_ticket(response_received, ticket)


## Asks every request of [param requests] ([code][[op, fields], ...][/code]) at once and gives
## their results in the same order, as a coroutine (over stdio they are all queued before the
## first answer is awaited).
func ask_all(requests: Array) -> Array[Dictionary]:
	return await RequestQueue.ask_all(requests, is_async(), request, send, response_received)


## Opens the battle document [param battle_json] (its exact text) as this client's session,
## as a coroutine, with the card libraries [param libraries_json] (their exact texts) whose
## cards its piles may name; gives its state, or [code]{}[/code] when the runtime refused it.
func ask_open(battle_json: String, libraries_json := PackedStringArray()) -> Dictionary:
	if not is_async():
		return open_battle_json(battle_json, libraries_json)
	close_battle()
	var ticket := _queue.take_id()
	_send_text(ticket, "open", Wire.open_text(battle_json, ticket, libraries_json))
	var result: Dictionary = await RequestQueue.await_ticket(response_received, ticket)
	session = str(result.get("session", ""))
	return result.get("state", {})


## Asks the search AI for the move of the side that acts now ([code]think[/code],
## docs/protocol.md), decided from that side's view only, as a coroutine: at most
## [param slice] of the [param iterations] are searched a frame, so the page keeps drawing
## while it thinks ([member thinking], [member think_progress], [signal think_progressed]).
## One [param seed] and budget give one move; [param fields] adds to the request. Gives
## [code]{"done": true, "decision", "move", ...}[/code] (the move in the request's ids), or
## [code]{}[/code] when the runtime refused or [method stop_thinking] stopped it.
func think(iterations: int, seed: int, slice := 4, fields: Dictionary = {}) -> Dictionary:
	if not is_inside_tree():
		return _replies.fail(
			"not_in_tree", "think() spreads over frames: add the client to the tree", ""
		)
	return await _thinker.run(session, iterations, seed, slice, fields)


## Stops the move [method think] thinks of now (it gives [code]{}[/code]).
func stop_thinking() -> void:
	_thinker.stop()


# -- the synchronous API (extension and web transports) ------------------------------------


## Sends one raw request text and returns the raw response text ([code]""[/code] when no
## transport answered; a [code]would_block[/code] error over stdio).
func call_json(request_json: String) -> String:
	connect_transport()
	return _link.call_json(request_json)


## Sends [code]{"op": op, ...fields}[/code] and returns the result, or [code]{}[/code] on
## failure (see [signal request_failed]; a failure whose code is in [param expected] is kept
## in [member last_error] only, as in [method ask]).
func request(op: String, fields: Dictionary = {}, expected := PackedStringArray()) -> Dictionary:
	last_response_text = call_json(Wire.request_text(op, fields, _queue.take_id()))
	return _replies.receive(op, last_response_text, expected)


## The exact text of the last response to [param op] ([code]""[/code] before the first), e.g.
## to log a play's events with their integers intact.
func last_response_of(op: String) -> String:
	return _replies.last_of(op)


## [code]{"version", "protocol", "ops"}[/code] of the runtime.
func version() -> Dictionary:
	return request("version")


## Opens [param battle] (a battle document) as this client's session, with the card
## libraries [param libraries] (library documents) whose cards its piles may name, and
## returns its state.
func open_battle(battle: Dictionary, libraries: Array[Dictionary] = []) -> Dictionary:
	return open_battle_json(JSON.stringify(integral(battle)), Wire.texts(libraries))


## Opens the battle document [param battle_json] (its exact text, e.g. a file's contents) as
## this client's session, with the card libraries [param libraries_json] (their exact texts),
## and returns its state.
func open_battle_json(battle_json: String, libraries_json := PackedStringArray()) -> Dictionary:
	close_battle()
	last_response_text = call_json(Wire.open_text(battle_json, _queue.take_id(), libraries_json))
	var result := _replies.receive("open", last_response_text)
	session = str(result.get("session", ""))
	return result.get("state", {})


## Closes this client's session (without waiting for the answer over stdio).
func close_battle() -> void:
	if not session.is_empty():
		(send if is_async() else request).call("close", {"session": session})
		session = ""


## The battle's current state (docs/format.md).
func state() -> Dictionary:
	return request("state", {"session": session}).get("state", {})


## What [param card_id] may target: mode and its facts, requires_target, candidates, range,
## affects (what it lights), playable, reason.
func targets(card_id: String) -> Dictionary:
	return request("targets", {"session": session, "card": card_id})


## What playing [param card_id] at [param target_id] would do, without playing it:
## [code]{"events", "marks"}[/code], the marks being the runtime's words per unit id
## ([code][{"text", "kind"}][/code]).
func preview(card_id: String, target_id: String = "") -> Dictionary:
	return request("preview", Wire.card_fields(session, card_id, target_id))


## The runtime's whole vocabulary (target modes and their facts, sources, node types with
## their fields and ports, events, keywords with their text...).
func schema() -> Dictionary:
	return request("schema")


## The contract checker's diagnostics for a battle or card library [param document]:
## [code]{"diagnostics", "summary"}[/code].
func lint(document: Dictionary) -> Dictionary:
	return request("lint", {"document": document})


## The generated player-facing text of the card instance [param card_id] of this session,
## beside its authored text: [code]{"card", "name", "text", "authored"}[/code].
func describe_card(card_id: String) -> Dictionary:
	return request("describe", {"session": session, "card": card_id})


## The generated text of a card [param definition] (not in any battle).
func describe_definition(definition: Dictionary) -> Dictionary:
	return request("describe", {"definition": definition})


## Plays [param card_id] (at [param target_id] for arrow modes); returns
## [code]{"events", "log", "state"}[/code] ([code]log[/code]: the runtime's battle-log lines),
## or [code]{}[/code] when the runtime refused the play.
func play(card_id: String, target_id: String = "") -> Dictionary:
	return request("play", Wire.card_fields(session, card_id, target_id))


## Ends the turn (the enemies act, if the battle has moves); returns
## [code]{"events", "log", "state"}[/code].
func end_turn() -> Dictionary:
	return request("end_turn", {"session": session})


## The battle's current state, typed; null when the request failed.
func battle_state() -> PyBridge.BattleState:
	return TypedAnswers.state_of(state())


## What [param card_id] may target, typed (see [method targets]); null when refused.
func typed_targets(card_id: String) -> PyBridge.Targets:
	return TypedAnswers.targets_of(targets(card_id))


## The [code]cut[/code] answer's entries (bottom first, with their late choices), typed.
func cut_entries() -> Array[PyBridge.CutEntry]:
	return TypedAnswers.cut_entries_of(request("cut", {"session": session}))


## The events of [param result] (a [method play], [method end_turn]... answer), typed by the
## runtime's [code]schema[/code] (kept from its last answer, else asked here).
func events_of(result: Dictionary) -> Array[PyBridge.Event]:
	if not _typed.has_schema() and not is_async():
		schema()
	return _typed.events_of(result)


## [method ask] with its answer typed, a coroutine on every transport: a [PyBridge.BattleState]
## (open, state, view), [PyBridge.Targets] (targets), [PyBridge.CutStatus] (cut) or
## [PyBridge.Outcome] (play, end_turn, pass, activate, respond, resolve), else as it is.
func ask_typed(op: String, fields: Dictionary = {}) -> Variant:
	if op in TypedAnswers.INTENTS and not _typed.has_schema():
		await ask("schema")
	return typed_answer(op, await ask(op, fields))


## [param result], the answer to [param op] (a [signal response_received]'s), typed as
## [method ask_typed] gives it; null when the request failed.
func typed_answer(op: String, result: Dictionary) -> Variant:
	return _typed.answer_of(op, result)


func _send_text(ticket: int, op: String, text: String, expected := PackedStringArray()) -> int:
	_queue.wait(ticket, op, expected)
	connect_transport()
	_link.push(ticket, op, text)
	return ticket


func _answered(ticket: int, text: String) -> void:
	var asked := _queue.done(ticket)
	last_response_text = text
	var result := _replies.receive(asked[0], text, asked[1])
	response_received.emit(ticket, asked[0], result, last_error.duplicate())
