@tool
extends RefCounted
## The WebSocket transport of [PyBridgeClient]: a seat of a [code]pybridge serve --ws[/code]
## match (docs/online.md), spoken through a [WebSocketPeer].
##
## The client's requests go out as the server's messages and its answers come back as the
## protocol's: [code]open[/code] creates or joins a match (its [code]session[/code] is the
## match's name, its [code]state[/code] the seat's view), a question goes in a
## [code]request[/code] envelope without [code]session[/code] (the server fills it in), and
## an accepted intent ([code]play[/code], [code]activate[/code], [code]pass[/code],
## [code]respond[/code], [code]end_turn[/code]) is answered with the update the server sent
## this seat for it ([code]{"events", "log", "state"}[/code], as the local runtime answers).
## Every update, this seat's and the other's, is also handed to [member on_update].
## [br][br]
## The seat's token is kept; when the connection drops (not closed by this client, nor taken
## over by another connection of the seat), the link connects again and resumes the seat
## with it, then hands the seat's current view to [member on_resumed].

## The operations the server answers as they are (docs/online.md).
const QUESTIONS := ["targets", "preview", "cut", "pick", "view", "state"]
## The intents, answered by the update they caused.
const INTENTS := ["play", "activate", "respond", "pass", "end_turn"]
## The close code of a seat that reconnected from elsewhere: this link gives the seat up.
const TAKEN_OVER := 4001
## Seconds between attempts to connect again.
const RETRY_SECONDS := 1.0

## Where the server listens ([code]ws://host:port[/code]).
var url: String = ""
## The match to join on [code]open[/code] ([code]""[/code]: create one).
var match_name: String = ""
## This seat ([code]player[/code], [code]enemy[/code] or [code]spectator[/code]).
var seat: String = ""
## The seat's token: kept to resume the seat after a dropped connection.
var token: String = ""
## Join as a spectator on [code]open[/code] instead of taking a seat.
var spectate: bool = false
## The last step of the match this link saw.
var step: int = 0
## How many times the link resumed the seat after a drop.
var resumed: int = 0
## [code]func(ticket: int, text: String)[/code]: the protocol's answer to a request.
var on_answer: Callable
## [code]func(update: Dictionary)[/code]: an update of the match (docs/online.md).
var on_update: Callable
## [code]func(joined: Dictionary)[/code]: the seat resumed after a drop (the server's
## [code]joined[/code] message, its current [code]view[/code] included).
var on_resumed: Callable
## [code]func(code: int, reason: String)[/code]: the connection closed.
var on_closed: Callable

var _peer: WebSocketPeer = null
var _open: bool = false
## Whether the server gave this link its seat once (a new connection then resumes it).
var _seated: bool = false
var _closing: bool = false
var _retry_in: float = -1.0
var _outbox: Array[String] = []
## ticket -> op of the requests sent and not answered yet.
var _sent: Dictionary = {}
## step -> this seat's update for it, until the intent's answer takes it.
var _updates: Dictionary = {}


## Connects to [member url]; false when the address is refused at once.
func start() -> bool:
	_closing = false
	_peer = WebSocketPeer.new()
	_open = false
	if _peer.connect_to_url(url) != OK:
		_peer = null
		return false
	return true


## Closes the connection for good (the seat stays the server's: [member token] resumes it).
func stop() -> void:
	_closing = true
	_retry_in = -1.0
	if _peer != null:
		_peer.close(1000, "bye")
	_drop_waiting("the connection was closed")
	_peer = null
	_open = false


## Whether the connection is open now.
func is_open() -> bool:
	return _open


## Sends the request [param text] (the protocol's JSON, with [code]op[/code]) numbered
## [param ticket]; its answer comes through [member on_answer].
func push(ticket: int, op: String, text: String) -> void:
	var request: Variant = JSON.parse_string(text)
	if not request is Dictionary:
		_answer_now(ticket, _refusal("bad_request", "not a JSON object"))
		return
	var asked: Dictionary = request
	asked.erase("session")  # the server's to fill in
	asked.erase("id")
	if op == "open":
		_sent[ticket] = op
		_queue(_join_message(ticket))
	elif op == "close" or op == "schema":
		# The seat stays the server's until its token is forgotten; the online server shares
		# no vocabulary, so the view shows cards without keyword tips.
		_answer_now(ticket, {"ok": true, "id": ticket, "result": {}})
	elif op in QUESTIONS or op in INTENTS:
		_sent[ticket] = op
		_queue(JSON.stringify({"type": "request", "id": ticket, "request": asked}))
	else:
		_answer_now(ticket, _refusal("unknown_op", "%s is not served online" % op, "op"))


## Reads what arrived and keeps the connection alive; call it every frame.
func poll(delta: float) -> void:
	if _retry_in >= 0.0:
		_retry_in -= delta
		if _retry_in < 0.0 and not start():
			_retry_in = RETRY_SECONDS
		return
	if _peer == null:
		return
	_peer.poll()
	var ready := _peer.get_ready_state()
	if ready == WebSocketPeer.STATE_OPEN:
		if not _open:
			_open = true
			if _seated:  # connected again: the seat first
				_outbox.push_front(_resume_message())
		while _outbox.size() > 0:
			_peer.send_text(_outbox.pop_front())
		while _peer.get_available_packet_count() > 0:
			_receive(_peer.get_packet().get_string_from_utf8())
	elif ready == WebSocketPeer.STATE_CLOSED:
		_closed(_peer.get_close_code(), _peer.get_close_reason())


func _closed(code: int, reason: String) -> void:
	_peer = null
	_open = false
	_drop_waiting("the connection to %s closed (%d %s)" % [url, code, reason])
	if on_closed.is_valid():
		on_closed.call(code, reason)
	# Resume the seat unless this client closed it or the seat went elsewhere; a server
	# that never gave this link its seat is not tried again.
	if not _closing and code != TAKEN_OVER and _seated:
		_retry_in = RETRY_SECONDS


func _queue(text: String) -> void:
	if _open and _peer != null:
		_peer.send_text(text)
	else:
		_outbox.append(text)


func _join_message(ticket: int) -> String:
	if spectate:
		return JSON.stringify({"type": "spectate", "id": ticket, "match": match_name})
	if not token.is_empty():
		return JSON.stringify({"type": "join", "id": ticket, "match": match_name, "token": token})
	if match_name.is_empty():
		return JSON.stringify({"type": "create", "id": ticket})
	return JSON.stringify({"type": "join", "id": ticket, "match": match_name})


func _resume_message() -> String:
	return JSON.stringify({"type": "join", "id": "resume", "match": match_name, "token": token})


func _receive(text: String) -> void:
	var message: Variant = JSON.parse_string(text)
	if not message is Dictionary:
		return
	var kind := str(message.get("type", ""))
	if kind == "update":
		var update: Dictionary = PyBridgeClient.integral(message)
		step = maxi(step, int(update.get("step", 0)))
		_updates[int(update.get("step", 0))] = update
		if on_update.is_valid():
			on_update.call(update)
		return
	var id: Variant = message.get("id")
	if kind == "joined":
		_joined(PyBridgeClient.integral(message))
		return
	if not (id is float or id is int) or not _sent.has(int(id)):
		return  # the resume's own refusal, or an answer to no request of this link
	var ticket := int(id)
	var op := str(_sent[ticket])
	_sent.erase(ticket)
	if kind == "error":
		var refused: Dictionary = message.duplicate()
		refused.erase("type")
		_answer_now(ticket, refused)
		return
	var response: Dictionary = PyBridgeClient.integral(message.get("response", {}))
	if op in INTENTS and bool(response.get("ok", false)):
		# The seat's update for this step came first (the server sends it before the answer).
		var at := int(response.get("result", {}).get("step", 0))
		var update: Dictionary = _updates.get(at, {})
		_updates.clear()
		var result := {"step": at, "result": update.get("result")}
		for key: String in ["events", "log", "state"]:
			result[key] = update.get(key, [] if key != "state" else {})
		response = {"ok": true, "id": ticket, "result": result}
	_answer_now(ticket, response)


func _joined(message: Dictionary) -> void:
	match_name = str(message.get("match", match_name))
	seat = str(message.get("seat", seat))
	step = int(message.get("step", step))
	if message.has("token"):
		token = str(message["token"])
	_seated = seat != "spectator"
	var id: Variant = message.get("id")
	if (id is float or id is int) and _sent.has(int(id)):
		_sent.erase(int(id))
		var result := {"session": match_name, "state": message.get("view", {}), "seat": seat}
		_answer_now(int(id), {"ok": true, "id": int(id), "result": result})
		return
	resumed += 1
	if on_resumed.is_valid():
		on_resumed.call(message)


func _drop_waiting(why: String) -> void:
	var tickets := _sent.keys()
	_sent.clear()
	_outbox.clear()
	for ticket: Variant in tickets:
		_answer_now(int(ticket), _refusal("transport_unavailable", why))


func _answer_now(ticket: int, response: Dictionary) -> void:
	if on_answer.is_valid():
		on_answer.call_deferred(ticket, JSON.stringify(response))


func _refusal(code: String, message: String, where: String = "") -> Dictionary:
	return {"ok": false, "id": null, "error": {"code": code, "where": where, "message": message}}
