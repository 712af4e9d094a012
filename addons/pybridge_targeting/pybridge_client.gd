@tool
@icon("res://addons/pybridge_targeting/icons/pybridge_client.svg")
class_name PyBridgeClient
extends Node
## Speaks the pybridge JSON protocol to the Python targeting runtime.
##
## The transport is picked at run time, the first that works: the [code]PyBridge[/code]
## GDExtension class (desktop builds with the native library), the page's
## [code]pybridge_call[/code] function through [JavaScriptBridge] (web exports that load Python
## with Pyodide), or a [code]pybridge serve --stdio[/code] child process. The WebSocket
## transport ([constant WEBSOCKET], chosen explicitly, with [member server_url]) plays one seat
## of a [code]pybridge serve --ws[/code] match ([PyBridgeWebSocketLink], docs/online.md).
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
## reported with [method @GlobalScope.push_error] and kept in [member last_error] (the
## runtime's whole error: its code, message and where, and what else it carries).

## A request failed. [param code] is the protocol's error code ([code]not_a_candidate[/code],
## [code]not_enough_energy[/code], ...) or [code]transport_unavailable[/code] /
## [code]bad_response[/code] / [code]would_block[/code] when no runtime answered properly.
signal request_failed(code: String, message: String)
## A request succeeded; [param op] is the operation and [param result] its result.
signal request_succeeded(op: String, result: Dictionary)
## The answer to the request [method send] numbered [param ticket]: [param result] on
## success, else empty with [param error] ([code]{code, message, where}[/code]). Always
## emitted on the main thread, after [method send] returned.
signal response_received(ticket: int, op: String, result: Dictionary, error: Dictionary)
## Over WebSocket: the server sent an [param update] of the match
## ([code]{"step", "by", "result", "events", "log", "state"}[/code], as this seat sees it),
## after an intent of either seat.
signal update_received(update: Dictionary)
## Over WebSocket: the connection dropped and the seat was resumed with its token;
## [param view] is the seat's current state.
signal seat_resumed(view: Dictionary)
## Over WebSocket: the connection closed ([param code] 4001: the seat went elsewhere).
signal connection_closed(code: int, reason: String)
## [method think] began ([param is_thinking] true) or ended (false) thinking of a move.
signal thinking_changed(is_thinking: bool)
## [method think] searched another slice: [param searched] of [param iterations] iterations.
signal think_progressed(searched: int, iterations: int)

## How requests reach the runtime.
enum Transport {
	AUTO,  ## Pick the first available: extension, web, stdio.
	EXTENSION,  ## The [code]PyBridge[/code] GDExtension class.
	WEB,  ## [code]window.pybridge_call[/code] through [JavaScriptBridge].
	STDIO,  ## A [code]pybridge serve --stdio[/code] child process (asynchronous only).
	NONE,  ## Nothing reachable.
	WEBSOCKET,  ## A seat of a [code]pybridge serve --ws[/code] match (never picked by AUTO).
}

const StdioWorker := preload("res://addons/pybridge_targeting/transport/pybridge_stdio_worker.gd")
## The GDExtension class that embeds Python.
const EXTENSION_CLASS := &"PyBridge"
## The page function a web export defines (see pybridge/web.py).
const WEB_FUNCTION := "pybridge_call"
## The error code of a synchronous request over a transport that answers later.
const WOULD_BLOCK := "would_block"

## The transport to use. [constant AUTO] tries them in order.
@export var preferred_transport: Transport = Transport.AUTO
## The program started for the stdio transport.
@export var stdio_command: String = "pybridge"
## Its arguments.
@export var stdio_arguments: PackedStringArray = PackedStringArray(["serve", "--stdio"])
## Report failures with [method @GlobalScope.push_error] as well as the signal.
@export var push_errors: bool = true
## The server of the WebSocket transport ([code]ws://127.0.0.1:8765[/code]).
@export var server_url: String = ""
## The match [code]open[/code] joins over WebSocket ([code]""[/code]: it creates one).
@export var online_match: String = ""

## The transport in use: [constant AUTO] until the first request connects one.
var transport: Transport = Transport.AUTO
## The session of the battle this client opened, or [code]""[/code].
var session: String = ""
## The last failure as [code]{code, message, where}[/code]; empty after a success.
var last_error: Dictionary = {}
## The exact text of the last response (numbers keep their integer spelling).
var last_response_text: String = ""
## The worker that serves the stdio transport (null on the others).
var stdio_worker: StdioWorker = null
## The link that serves the WebSocket transport (null on the others): its seat, token, match.
var online: PyBridgeWebSocketLink = null
## Whether [method think] is thinking of a move now.
var thinking: bool = false
## How far the move [method think] thinks of is, from 0 to 1 (its iterations searched).
var think_progress: float = 0.0

var _extension: Object = null
var _last_by_op: Dictionary = {}
var _pipe: Object = null
var _pid: int = -1
var _next_id: int = 1
var _waiting: Dictionary = {}
var _expected: Dictionary = {}
var _thoughts: int = 0
var _ticker: Timer = null


## [param value] with every whole float turned into an int, recursively. Godot's JSON parser
## reads every number as a float and would send [code]40[/code] back as [code]40.0[/code],
## which the runtime refuses where it expects an integer.
static func integral(value: Variant) -> Variant:
	if value is float and is_finite(value) and value == floorf(value) and absf(value) < 9.0e15:
		return int(value)
	if value is Dictionary:
		var copy := {}
		for key: Variant in value:
			copy[key] = integral(value[key])
		return copy
	if value is Array:
		var items := []
		for item: Variant in value:
			items.append(integral(item))
		return items
	return value


func _exit_tree() -> void:
	disconnect_transport()


func _process(delta: float) -> void:
	if online != null:
		online.poll(delta)


## Connects a transport now (requests do it on demand) and returns the one in use.
func connect_transport() -> Transport:
	if transport != Transport.AUTO:
		return transport
	var wanted := preferred_transport
	if wanted == Transport.WEBSOCKET:
		transport = Transport.WEBSOCKET if _connect_websocket() else Transport.NONE
	elif wanted in [Transport.AUTO, Transport.EXTENSION] and _connect_extension():
		transport = Transport.EXTENSION
	elif wanted in [Transport.AUTO, Transport.WEB] and _connect_web():
		transport = Transport.WEB
	elif wanted in [Transport.AUTO, Transport.STDIO] and _connect_stdio():
		transport = Transport.STDIO
	else:
		transport = Transport.NONE
	return transport


## Talks to a runtime over [param pipe], any object with [code]store_line[/code],
## [code]flush[/code] and [code]get_line[/code] (a socket wrapper, a test double), the way
## the stdio transport does: asynchronously, on a worker thread when [param threaded] (else
## each [method StdioWorker.serve_next] call answers one request).
func connect_pipe(pipe: Object, threaded: bool = true) -> bool:
	disconnect_transport()
	_pipe = pipe
	stdio_worker = StdioWorker.new(pipe, _answered)
	if threaded and not stdio_worker.start():
		stdio_worker = null
		_pipe = null
		return false
	transport = Transport.STDIO
	return true


## Closes the stdio child and frees the extension object; the next request reconnects.
## Requests still waiting are answered with [code]transport_unavailable[/code].
func disconnect_transport() -> void:
	if _pid > 0:
		OS.kill(_pid)
		_pid = -1
	if stdio_worker != null:
		stdio_worker.stop()
		stdio_worker = null
	if online != null:
		online.stop()
		online = null
	if _pipe != null and _pipe.has_method(&"close"):
		_pipe.call(&"close")
	_pipe = null
	if _extension != null and not (_extension is RefCounted):
		_extension.free()
	_extension = null
	transport = Transport.AUTO


## The name of the transport in use ([code]"extension"[/code], [code]"web"[/code],
## [code]"stdio"[/code] or [code]"none"[/code]).
func transport_name() -> String:
	return String(Transport.find_key(connect_transport())).to_lower()


## Whether the transport answers later (stdio, WebSocket): then only [method send] and
## [method ask] are served.
func is_async() -> bool:
	return connect_transport() in [Transport.STDIO, Transport.WEBSOCKET]


## Over WebSocket, the seat to resume on [code]open[/code] instead of taking a new one: the
## match and the token its [code]open[/code] gave ([member PyBridgeWebSocketLink.token]).
func resume_seat(match_name: String, token: String) -> void:
	online_match = match_name
	if connect_transport() == Transport.WEBSOCKET:
		online.match_name = match_name
		online.token = token


## How many [method send] requests wait for their answer.
func waiting() -> int:
	return _waiting.size()


# -- the asynchronous API -----------------------------------------------------------------


## Sends [code]{"op": op, ...fields}[/code] and returns at once with the request's ticket;
## the answer comes as [signal response_received] with that ticket. Served by every
## transport.
func send(op: String, fields: Dictionary = {}) -> int:
	var ticket := _take_id()
	return _send_text(ticket, op, _request_text(op, fields, ticket))


## [method send] as a coroutine: [code]await bridge.ask(op, fields)[/code] gives the result
## ([code]{}[/code] on failure, see [signal request_failed]). Over the extension and web
## transports it answers without waiting a frame. A failure whose code is in
## [param expected] is an answer the caller handles (a [code]pass[/code] that needs a
## choice first: [code]target_required[/code]): it is kept in [member last_error] but
## neither reported nor emitted as [signal request_failed].
func ask(op: String, fields: Dictionary = {}, expected := PackedStringArray()) -> Dictionary:
	if not is_async():
		return request(op, fields, expected)
	var ticket := _take_id()
	if not expected.is_empty():
		_expected[ticket] = expected
	_send_text(ticket, op, _request_text(op, fields, ticket))
	return await _await_ticket(ticket)


## Asks every request of [param requests] ([code][[op, fields], ...][/code]) at once and gives
## their results in the same order, as a coroutine (over stdio they are all queued before the
## first answer is awaited).
func ask_all(requests: Array) -> Array[Dictionary]:
	var results: Array[Dictionary] = []
	if not is_async():
		for item: Array in requests:
			results.append(request(item[0], item[1]))
		return results
	var tickets: Array[int] = []
	for item: Array in requests:
		tickets.append(send(item[0], item[1]))
	var answers := {}
	while answers.size() < tickets.size():
		var answer: Array = await response_received
		if int(answer[0]) in tickets:
			answers[int(answer[0])] = answer[2]
	for ticket in tickets:
		results.append(answers[ticket])
	return results


## Opens the battle document [param battle_json] (its exact text) as this client's session,
## as a coroutine, with the card libraries [param libraries_json] (their exact texts) whose
## cards its piles may name; gives its state, or [code]{}[/code] when the runtime refused it.
func ask_open(battle_json: String, libraries_json := PackedStringArray()) -> Dictionary:
	if not is_async():
		return open_battle_json(battle_json, libraries_json)
	if not session.is_empty():
		close_battle()
	var ticket := _take_id()
	_send_text(ticket, "open", _open_text(battle_json, ticket, libraries_json))
	var result: Dictionary = await _await_ticket(ticket)
	session = str(result.get("session", ""))
	return result.get("state", {})


## Asks the search AI for the move of the side that acts now ([code]think[/code],
## docs/protocol.md), decided from that side's view only, as a coroutine: at most
## [param slice] of the [param iterations] are searched a frame, so the page keeps drawing
## while it thinks ([member thinking], [member think_progress], [signal think_progressed]).
## One [param seed] and budget give one move. [param fields] adds to the request
## ([code]viewer[/code], [code]side[/code]). Gives the last answer,
## [code]{"done": true, "decision", "move", ...}[/code] (the move in the request's ids), or
## [code]{}[/code] when the runtime refused or [method stop_thinking] stopped it.
func think(iterations: int, seed: int, slice := 4, fields: Dictionary = {}) -> Dictionary:
	if not is_inside_tree():
		return _fail("not_in_tree", "think() spreads over frames: add the client to the tree", "")
	_thoughts += 1
	var thought := _thoughts
	var asked := fields.duplicate()
	if not asked.has("session"):
		asked["session"] = session
	asked.merge({"iterations": iterations, "seed": seed, "slice": maxi(slice, 1)}, true)
	thinking = true
	think_progress = 0.0
	thinking_changed.emit(true)
	var result: Dictionary = {}
	while true:
		result = await ask("think", asked)
		if thought != _thoughts:
			return {}  # stopped, or a newer thought took over (it tells the end)
		if result.is_empty() or bool(result.get("done", false)):
			break
		var searched := int(result.get("searched", 0))
		think_progress = float(searched) / float(maxi(iterations, 1))
		think_progressed.emit(searched, iterations)
		await _next_frame()  # one slice a frame
		if thought != _thoughts:
			return {}
	think_progress = 1.0 if not result.is_empty() else think_progress
	thinking = false
	thinking_changed.emit(false)
	return result


## Stops the move [method think] thinks of now (it gives [code]{}[/code]).
func stop_thinking() -> void:
	_thoughts += 1
	if thinking:
		thinking = false
		thinking_changed.emit(false)


# Waits for the next frame drawn, on a timer of the client's own: a thought of a client that was
# freed meanwhile is never resumed (one waiting on the tree would be, and fail).
func _next_frame() -> void:
	if _ticker == null:
		_ticker = Timer.new()
		_ticker.one_shot = true
		_ticker.wait_time = 0.001
		add_child(_ticker, false, Node.INTERNAL_MODE_BACK)
	var frame := Engine.get_frames_drawn()
	while Engine.get_frames_drawn() == frame:  # a timer may end within the frame it began in
		_ticker.start()
		await _ticker.timeout


# -- the synchronous API (extension and web transports) ------------------------------------


## Sends one raw request text and returns the raw response text ([code]""[/code] when no
## transport answered; a [code]would_block[/code] error over stdio).
func call_json(request_json: String) -> String:
	match connect_transport():
		Transport.EXTENSION:
			return str(_extension.call(&"call_json", request_json))
		Transport.WEB:
			# JSON.stringify turns the request into a JS string literal; U+2028 and U+2029 are
			# escaped too, for JS engines older than ES2019.
			var literal := JSON.stringify(request_json)
			literal = literal.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
			var reply: Variant = JavaScriptBridge.eval("%s(%s)" % [WEB_FUNCTION, literal], true)
			return reply if reply is String else ""
		Transport.STDIO, Transport.WEBSOCKET:
			return JSON.stringify(
				{
					"ok": false,
					"id": null,
					"error":
					{
						"code": WOULD_BLOCK,
						"where": "",
						"message":
						(
							"the stdio transport answers later: use send() or "
							+ "ask(), which never hold up a frame"
						)
					}
				}
			)
	return ""


## Sends [code]{"op": op, ...fields}[/code] and returns the result, or [code]{}[/code] on
## failure (see [signal request_failed]; a failure whose code is in [param expected] is kept
## in [member last_error] only, as in [method ask]).
func request(op: String, fields: Dictionary = {}, expected := PackedStringArray()) -> Dictionary:
	last_response_text = call_json(_request_text(op, fields, _take_id()))
	return _receive(op, last_response_text, expected)


## The exact text of the last response to [param op] ([code]""[/code] before the first), e.g.
## to log a play's events with their integers intact.
func last_response_of(op: String) -> String:
	return str(_last_by_op.get(op, ""))


## [code]{"version", "protocol", "ops"}[/code] of the runtime.
func version() -> Dictionary:
	return request("version")


## Opens [param battle] (a battle document) as this client's session, with the card
## libraries [param libraries] (library documents) whose cards its piles may name, and
## returns its state.
func open_battle(battle: Dictionary, libraries: Array[Dictionary] = []) -> Dictionary:
	var texts := PackedStringArray()
	for library in libraries:
		texts.append(JSON.stringify(integral(library)))
	return open_battle_json(JSON.stringify(integral(battle)), texts)


## Opens the battle document [param battle_json] (its exact text, e.g. a file's contents) as
## this client's session, with the card libraries [param libraries_json] (their exact texts),
## and returns its state.
func open_battle_json(battle_json: String, libraries_json := PackedStringArray()) -> Dictionary:
	if not session.is_empty():
		close_battle()
	last_response_text = call_json(_open_text(battle_json, _take_id(), libraries_json))
	var result := _receive("open", last_response_text)
	session = str(result.get("session", ""))
	return result.get("state", {})


## Closes this client's session (without waiting for the answer over stdio).
func close_battle() -> void:
	if not session.is_empty():
		if is_async():
			send("close", {"session": session})
		else:
			request("close", {"session": session})
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
	return request("preview", _card_fields(card_id, target_id))


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
	return request("play", _card_fields(card_id, target_id))


## Ends the turn (the enemies act, if the battle has moves); returns
## [code]{"events", "log", "state"}[/code].
func end_turn() -> Dictionary:
	return request("end_turn", {"session": session})


# -- internals ------------------------------------------------------------------------------


func _take_id() -> int:
	var id := _next_id
	_next_id += 1
	return id


func _request_text(op: String, fields: Dictionary, id: int) -> String:
	var message := fields.duplicate()
	message["op"] = op
	message["id"] = id
	return JSON.stringify(integral(message))


func _open_text(battle_json: String, id: int, libraries_json: PackedStringArray) -> String:
	# The documents' texts go as they are (their integers stay integers), on one line for the
	# stdio transport: a line break in JSON text is whitespace, never inside a string.
	var text := '{"op":"open","id":%d,"battle":%s}' % [id, battle_json]
	if not libraries_json.is_empty():
		text = (
			'{"op":"open","id":%d,"battle":%s,"libraries":[%s]}'
			% [id, battle_json, ",".join(libraries_json)]
		)
	return text.replace("\r", " ").replace("\n", " ")


func _card_fields(card_id: String, target_id: String) -> Dictionary:
	var fields := {"session": session, "card": card_id}
	if not target_id.is_empty():
		fields["target"] = target_id
	return fields


func _send_text(ticket: int, op: String, text: String) -> int:
	_waiting[ticket] = op
	if transport == Transport.WEBSOCKET:
		online.push(ticket, op, text)
	elif is_async():
		stdio_worker.push(ticket, text)
	else:
		_answered.call_deferred(ticket, call_json(text))
	return ticket


func _await_ticket(ticket: int) -> Dictionary:
	while true:
		var answer: Array = await response_received
		if int(answer[0]) == ticket:
			return answer[2]
	return {}


func _answered(ticket: int, text: String) -> void:
	var op := str(_waiting.get(ticket, ""))
	_waiting.erase(ticket)
	var expected: PackedStringArray = _expected.get(ticket, PackedStringArray())
	_expected.erase(ticket)
	last_response_text = text
	var result := _receive(op, text, expected)
	response_received.emit(ticket, op, result, last_error.duplicate())


func _receive(op: String, text: String, expected := PackedStringArray()) -> Dictionary:
	_last_by_op[op] = text
	if text.is_empty():
		return _fail(
			"transport_unavailable",
			"no pybridge runtime answered (transport: %s)" % transport_name(),
			""
		)
	var response: Variant = JSON.parse_string(text)
	if not response is Dictionary:
		return _fail(
			"bad_response",
			"the runtime sent a reply that is not a JSON object: %s" % text.left(200),
			""
		)
	if not response.get("ok", false):
		var error: Dictionary = {}
		if response.get("error") is Dictionary:
			error = response["error"]
		var code := str(error.get("code", "unknown_error"))
		var failed := _fail(
			code, str(error.get("message", "")), str(error.get("where", "")), code in expected
		)
		for key: Variant in error:  # what else the error carries (choice_needed: its choice)
			if not last_error.has(key):
				last_error[key] = error[key]
		return failed
	last_error = {}
	var result: Dictionary = {}
	if response.get("result") is Dictionary:
		result = response["result"]
	request_succeeded.emit(op, result)
	return result


func _fail(code: String, message: String, where: String, expected: bool = false) -> Dictionary:
	last_error = {"code": code, "message": message, "where": where}
	if expected:
		return {}  # an answer the caller handles, not a failure to report
	if push_errors:
		push_error("pybridge: %s: %s" % [code, message])
	request_failed.emit(code, message)
	return {}


func _connect_extension() -> bool:
	if not ClassDB.class_exists(EXTENSION_CLASS) or not ClassDB.can_instantiate(EXTENSION_CLASS):
		return false
	_extension = ClassDB.instantiate(EXTENSION_CLASS)
	if _extension != null and _extension.has_method(&"call_json"):
		# The library may load while its embedded Python cannot start: then it answers every
		# request with an error, and the next transport gets its chance.
		var probe: Variant = JSON.parse_string(
			str(_extension.call(&"call_json", '{"op":"version","id":0}'))
		)
		if probe is Dictionary and probe.get("ok", false):
			return true
		push_warning(
			(
				"pybridge: the PyBridge extension is loaded but its runtime does not "
				+ "answer; trying the next transport"
			)
		)
	if _extension != null and not (_extension is RefCounted):
		_extension.free()
	_extension = null
	return false


func _connect_web() -> bool:
	if not OS.has_feature("web"):
		return false
	return str(JavaScriptBridge.eval("typeof window.%s" % WEB_FUNCTION, true)) == "function"


func _connect_websocket() -> bool:
	online = PyBridgeWebSocketLink.new()
	online.url = server_url
	online.match_name = online_match
	online.on_answer = _answered
	online.on_update = func(update: Dictionary) -> void: update_received.emit(update)
	online.on_resumed = func(joined: Dictionary) -> void: seat_resumed.emit(joined.get("view", {}))
	online.on_closed = func(code: int, why: String) -> void: connection_closed.emit(code, why)
	if server_url.is_empty() or not online.start():
		online = null
		return false
	return true


func _connect_stdio() -> bool:
	if OS.has_feature("web") or stdio_command.is_empty():
		return false
	var child := OS.execute_with_pipe(stdio_command, stdio_arguments)
	if child.is_empty() or not child.get("stdio") is FileAccess:
		return false
	_pipe = child["stdio"]
	_pid = int(child.get("pid", -1))
	stdio_worker = StdioWorker.new(_pipe, _answered)
	if not stdio_worker.start():
		push_warning("pybridge: no threads in this build: the stdio transport is not served")
		disconnect_transport()
		return false
	return true
