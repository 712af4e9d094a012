@tool
@icon("res://addons/pybridge_targeting/icons/bridge.svg")
class_name PyBridgeClient
extends Node
## Speaks the pybridge JSON protocol to the Python targeting runtime.
##
## The transport is picked at run time, the first that works: the [code]PyBridge[/code]
## GDExtension class (desktop builds with the native library), the page's
## [code]pybridge_call[/code] function through [JavaScriptBridge] (web exports that load Python
## with Pyodide), or a [code]pybridge serve --stdio[/code] child process.
## [br][br]
## Every helper returns the response's [code]result[/code], or an empty [Dictionary] when the
## request failed. A failure never crashes the game: it is emitted as [signal request_failed],
## reported with [method @GlobalScope.push_error] and kept in [member last_error].

## A request failed. [param code] is the protocol's error code ([code]not_a_candidate[/code],
## [code]not_enough_energy[/code], ...) or [code]transport_unavailable[/code] /
## [code]bad_response[/code] when no runtime answered properly.
signal request_failed(code: String, message: String)
## A request succeeded; [param op] is the operation and [param result] its result.
signal request_succeeded(op: String, result: Dictionary)

## How requests reach the runtime.
enum Transport {
	AUTO, ## Pick the first available: extension, web, stdio.
	EXTENSION, ## The [code]PyBridge[/code] GDExtension class.
	WEB, ## [code]window.pybridge_call[/code] through [JavaScriptBridge].
	STDIO, ## A [code]pybridge serve --stdio[/code] child process.
	NONE, ## Nothing reachable.
}

## The GDExtension class that embeds Python.
const EXTENSION_CLASS := &"PyBridge"
## The page function a web export defines (see pybridge/web.py).
const WEB_FUNCTION := "pybridge_call"

## The transport to use. [constant AUTO] tries them in order.
@export var preferred_transport: Transport = Transport.AUTO
## The program started for the stdio transport.
@export var stdio_command: String = "pybridge"
## Its arguments.
@export var stdio_arguments: PackedStringArray = PackedStringArray(["serve", "--stdio"])
## Report failures with [method @GlobalScope.push_error] as well as the signal.
@export var push_errors: bool = true

## The transport in use: [constant AUTO] until the first request connects one.
var transport: Transport = Transport.AUTO
## The session of the battle this client opened, or [code]""[/code].
var session: String = ""
## The last failure as [code]{code, message, where}[/code]; empty after a success.
var last_error: Dictionary = {}
## The exact text of the last response (numbers keep their integer spelling).
var last_response_text: String = ""

var _extension: Object = null
var _last_by_op: Dictionary = {}
var _pipe: FileAccess = null
var _pid: int = -1
var _next_id: int = 1


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


## Connects a transport now (requests do it on demand) and returns the one in use.
func connect_transport() -> Transport:
	if transport != Transport.AUTO:
		return transport
	var wanted := preferred_transport
	if wanted in [Transport.AUTO, Transport.EXTENSION] and _connect_extension():
		transport = Transport.EXTENSION
	elif wanted in [Transport.AUTO, Transport.WEB] and _connect_web():
		transport = Transport.WEB
	elif wanted in [Transport.AUTO, Transport.STDIO] and _connect_stdio():
		transport = Transport.STDIO
	else:
		transport = Transport.NONE
	return transport


## Closes the stdio child and frees the extension object; the next request reconnects.
func disconnect_transport() -> void:
	if _pipe != null:
		_pipe.close()
		_pipe = null
	if _pid > 0:
		OS.kill(_pid)
		_pid = -1
	if _extension != null and not (_extension is RefCounted):
		_extension.free()
	_extension = null
	transport = Transport.AUTO


## The name of the transport in use ([code]"extension"[/code], [code]"web"[/code],
## [code]"stdio"[/code] or [code]"none"[/code]).
func transport_name() -> String:
	return String(Transport.find_key(connect_transport())).to_lower()


## Sends one raw request text and returns the raw response text ([code]""[/code] when no
## transport answered).
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
		Transport.STDIO:
			_pipe.store_line(request_json)
			_pipe.flush()
			return _pipe.get_line()
	return ""


## Sends [code]{"op": op, ...fields}[/code] and returns the result, or [code]{}[/code] on
## failure (see [signal request_failed]).
func request(op: String, fields: Dictionary = {}) -> Dictionary:
	var message := fields.duplicate()
	message["op"] = op
	message["id"] = _next_id
	_next_id += 1
	last_response_text = call_json(JSON.stringify(integral(message)))
	return _receive(op)


## The exact text of the last response to [param op] ([code]""[/code] before the first), e.g.
## to log a play's events with their integers intact.
func last_response_of(op: String) -> String:
	return str(_last_by_op.get(op, ""))


## [code]{"version", "protocol", "ops"}[/code] of the runtime.
func version() -> Dictionary:
	return request("version")


## Opens [param battle] (a battle document) as this client's session and returns its state.
func open_battle(battle: Dictionary) -> Dictionary:
	return open_battle_json(JSON.stringify(integral(battle)))


## Opens the battle document [param battle_json] (its exact text, e.g. a file's contents) as
## this client's session and returns its state.
func open_battle_json(battle_json: String) -> Dictionary:
	if not session.is_empty():
		close_battle()
	var id := _next_id
	_next_id += 1
	last_response_text = call_json('{"op":"open","id":%d,"battle":%s}' % [id, battle_json])
	var result := _receive("open")
	session = str(result.get("session", ""))
	return result.get("state", {})


## Closes this client's session.
func close_battle() -> void:
	if not session.is_empty():
		request("close", {"session": session})
		session = ""


## The battle's current state (docs/format.md).
func state() -> Dictionary:
	return request("state", {"session": session}).get("state", {})


## What [param card_id] may target: mode and its facts, requires_target, candidates, range,
## playable, reason.
func targets(card_id: String) -> Dictionary:
	return request("targets", {"session": session, "card": card_id})


## What playing [param card_id] at [param target_id] would do, without playing it:
## [code]{"events", "marks"}[/code], the marks being the runtime's words per unit id
## ([code][{"text", "kind"}][/code]).
func preview(card_id: String, target_id: String = "") -> Dictionary:
	var fields := {"session": session, "card": card_id}
	if not target_id.is_empty():
		fields["target"] = target_id
	return request("preview", fields)


## The runtime's whole vocabulary (target modes and their facts, sources, node types with
## their fields and ports, events...): what menus, palettes and forms are built from.
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
	var fields := {"session": session, "card": card_id}
	if not target_id.is_empty():
		fields["target"] = target_id
	return request("play", fields)


## Ends the turn (the enemies act, if the battle has moves); returns
## [code]{"events", "log", "state"}[/code].
func end_turn() -> Dictionary:
	return request("end_turn", {"session": session})


func _receive(op: String) -> Dictionary:
	_last_by_op[op] = last_response_text
	if last_response_text.is_empty():
		return _fail("transport_unavailable", "no pybridge runtime answered (transport: %s)"
				% transport_name(), "")
	var response: Variant = JSON.parse_string(last_response_text)
	if not response is Dictionary:
		return _fail("bad_response", "the runtime sent a reply that is not a JSON object: %s"
				% last_response_text.left(200), "")
	if not response.get("ok", false):
		var error: Dictionary = {}
		if response.get("error") is Dictionary:
			error = response["error"]
		return _fail(str(error.get("code", "unknown_error")), str(error.get("message", "")),
				str(error.get("where", "")))
	last_error = {}
	var result: Dictionary = {}
	if response.get("result") is Dictionary:
		result = response["result"]
	request_succeeded.emit(op, result)
	return result


func _fail(code: String, message: String, where: String) -> Dictionary:
	last_error = {"code": code, "message": message, "where": where}
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
		var probe: Variant = JSON.parse_string(str(_extension.call(&"call_json",
				'{"op":"version","id":0}')))
		if probe is Dictionary and probe.get("ok", false):
			return true
		push_warning("pybridge: the PyBridge extension is loaded but its runtime does not "
				+ "answer; trying the next transport")
	if _extension != null and not (_extension is RefCounted):
		_extension.free()
	_extension = null
	return false


func _connect_web() -> bool:
	if not OS.has_feature("web"):
		return false
	return str(JavaScriptBridge.eval("typeof window.%s" % WEB_FUNCTION, true)) == "function"


func _connect_stdio() -> bool:
	if OS.has_feature("web") or stdio_command.is_empty():
		return false
	var child := OS.execute_with_pipe(stdio_command, stdio_arguments)
	if child.is_empty() or not child.get("stdio") is FileAccess:
		return false
	_pipe = child["stdio"]
	_pid = int(child.get("pid", -1))
	return true
