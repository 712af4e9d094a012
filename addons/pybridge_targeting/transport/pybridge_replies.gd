@tool
extends RefCounted
## The client's reading of the runtime's replies: each is a result or a failure, kept as the
## last error and told with its own signals (the client emits them as its own).

## A request failed (see [signal PyBridgeClient.request_failed]).
signal request_failed(code: String, message: String)
## A request succeeded (see [signal PyBridgeClient.request_succeeded]).
signal request_succeeded(op: String, result: Dictionary)

const Wire := preload("res://addons/pybridge_targeting/transport/pybridge_wire.gd")

## The last failure as [code]{code, message, where, ...}[/code]; empty after a success.
var last_error: Dictionary = {}
## Report failures with [method @GlobalScope.push_error] as well as the signal.
var push_errors: bool = true

var _last_by_op: Dictionary = {}
var _transport_name: Callable


## [param transport_name] names the transport in use, for the failure nothing answered.
func _init(transport_name: Callable) -> void:
	_transport_name = transport_name


## The result of the reply [param text] to [param op], or [code]{}[/code] when it failed
## ([param expected] codes are kept in [member last_error] only).
func receive(op: String, text: String, expected := PackedStringArray()) -> Dictionary:
	_last_by_op[op] = text
	if text.is_empty():
		var why := "no pybridge runtime answered (transport: %s)" % _transport_name.call()
		return fail("transport_unavailable", why, "")
	var reply := Wire.read_reply(text)
	if reply.has("error"):
		var error: Dictionary = reply["error"]
		var code: String = error["code"]
		var answer := fail(code, error["message"], error["where"], code in expected)
		for key: Variant in error:  # what else the error carries (choice_needed: its choice)
			if not last_error.has(key):
				last_error[key] = error[key]
		return answer
	last_error = {}
	var result: Dictionary = reply["result"]
	request_succeeded.emit(op, result)
	return result


## Keeps the failure [param code] as [member last_error] and tells it, unless
## [param expected] (an answer the caller handles); gives [code]{}[/code].
func fail(code: String, message: String, where: String, expected: bool = false) -> Dictionary:
	last_error = {"code": code, "message": message, "where": where}
	if expected:
		return {}  # an answer the caller handles, not a failure to report
	if push_errors:
		push_error("pybridge: %s: %s" % [code, message])
	request_failed.emit(code, message)
	return {}


## The exact text of the last reply to [param op] ([code]""[/code] before the first).
func last_of(op: String) -> String:
	return str(_last_by_op.get(op, ""))
