@tool
extends RefCounted
## The client's connection to a runtime: it picks the transport, connects and closes it, and
## carries each request over it. Answers go to [member on_answer]; what an online match
## tells besides comes as its own signals (the client emits them as its own).

## The server sent an [param update] of the match (WebSocket).
signal update_received(update: Dictionary)
## The seat was resumed with its token; [param view] is its current state (WebSocket).
signal seat_resumed(view: Dictionary)
## The connection closed (WebSocket).
signal connection_closed(code: int, reason: String)

const LocalRuntime := preload("res://addons/pybridge_targeting/transport/pybridge_local_runtime.gd")
const StdioWorker := preload("res://addons/pybridge_targeting/transport/pybridge_stdio_worker.gd")
const Wire := preload("res://addons/pybridge_targeting/transport/pybridge_wire.gd")
const TRANSPORT := PyBridgeClient.Transport

## The transport in use: [constant PyBridgeClient.AUTO] until one is connected.
var transport: PyBridgeClient.Transport = TRANSPORT.AUTO
## The worker that serves the stdio transport (null on the others).
var stdio_worker: StdioWorker = null
## The link that serves the WebSocket transport (null on the others).
var online: PyBridge.WebSocketLink = null
## Called on the main thread with [code](ticket: int, answer: String)[/code].
var on_answer: Callable

var _local: LocalRuntime = LocalRuntime.new()
var _pipe: Object = null


func _init(answer_to: Callable) -> void:
	on_answer = answer_to


## Connects the first transport of [param wanted] that works (the stdio child runs
## [param command] with [param arguments]; WebSocket joins [param match_name] at [param url]);
## gives it.
func connect_transport(
	wanted: PyBridgeClient.Transport,
	command: String,
	arguments: PackedStringArray,
	url: String,
	match_name: String
) -> PyBridgeClient.Transport:
	if transport != TRANSPORT.AUTO:
		return transport
	if wanted == TRANSPORT.WEBSOCKET:
		var ok := _connect_websocket(url, match_name)
		transport = TRANSPORT.WEBSOCKET if ok else TRANSPORT.NONE
	elif wanted in [TRANSPORT.AUTO, TRANSPORT.EXTENSION] and _local.connect_extension():
		transport = TRANSPORT.EXTENSION
	elif wanted in [TRANSPORT.AUTO, TRANSPORT.WEB] and LocalRuntime.connect_web():
		transport = TRANSPORT.WEB
	elif wanted in [TRANSPORT.AUTO, TRANSPORT.STDIO] and _connect_stdio(command, arguments):
		transport = TRANSPORT.STDIO
	else:
		transport = TRANSPORT.NONE
	return transport


## Talks over [param pipe] the way the stdio transport does (see
## [method PyBridgeClient.connect_pipe]).
func connect_pipe(pipe: Object, threaded: bool) -> bool:
	close()
	_pipe = pipe
	stdio_worker = StdioWorker.new(pipe, on_answer)
	if threaded and not stdio_worker.start():
		stdio_worker = null
		_pipe = null
		return false
	transport = TRANSPORT.STDIO
	return true


## Closes whatever is connected; the next request connects again.
func close() -> void:
	_local.close()
	if stdio_worker != null:
		stdio_worker.stop()
		stdio_worker = null
	if online != null:
		online.stop()
		online = null
	if _pipe != null and _pipe.has_method(&"close"):
		_pipe.call(&"close")
	_pipe = null
	transport = TRANSPORT.AUTO


## The reply to [param request_json] at once (extension, web), [code]would_block[/code] over
## the transports that answer later, [code]""[/code] over none.
func call_json(request_json: String) -> String:
	match transport:
		TRANSPORT.EXTENSION:
			return _local.call_extension(request_json)
		TRANSPORT.WEB:
			return LocalRuntime.call_web(request_json)
		TRANSPORT.STDIO, TRANSPORT.WEBSOCKET:
			return Wire.would_block_text()
	return ""


## Sends [param text] (the request [param op] numbered [param ticket]); its answer goes to
## [member on_answer], always after this returned.
func push(ticket: int, op: String, text: String) -> void:
	if transport == TRANSPORT.WEBSOCKET:
		online.push(ticket, op, text)
	elif transport == TRANSPORT.STDIO:
		stdio_worker.push(ticket, text)
	else:
		on_answer.call_deferred(ticket, call_json(text))


## Over WebSocket, resumes the seat of [param match_name] with [param token] on
## [code]open[/code].
func resume(match_name: String, token: String) -> void:
	if transport == TRANSPORT.WEBSOCKET:
		online.match_name = match_name
		online.token = token


func _connect_websocket(url: String, match_name: String) -> bool:
	online = PyBridge.WebSocketLink.new()
	online.url = url
	online.match_name = match_name
	online.on_answer = on_answer
	online.on_update = func(update: Dictionary) -> void: update_received.emit(update)
	online.on_resumed = func(joined: Dictionary) -> void: seat_resumed.emit(joined.get("view", {}))
	online.on_closed = func(code: int, why: String) -> void: connection_closed.emit(code, why)
	if url.is_empty() or not online.start():
		online = null
		return false
	return true


func _connect_stdio(command: String, arguments: PackedStringArray) -> bool:
	_pipe = _local.spawn(command, arguments)
	if _pipe == null:
		return false
	stdio_worker = StdioWorker.new(_pipe, on_answer)
	if not stdio_worker.start():
		push_warning("pybridge: no threads in this build: the stdio transport is not served")
		close()
		return false
	return true
