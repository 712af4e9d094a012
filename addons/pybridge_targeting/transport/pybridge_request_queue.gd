@tool
extends RefCounted
## The client's requests on their way: each has a ticket, and waits for the answer of that
## ticket, which comes in on the client's [signal PyBridgeClient.response_received].

var _next_id: int = 1
var _waiting: Dictionary = {}
var _expected: Dictionary = {}


## A new request id.
func take_id() -> int:
	var id := _next_id
	_next_id += 1
	return id


## The request [param ticket] ([param op]) waits; a failure coded in [param expected] is an
## answer its caller handles.
func wait(ticket: int, op: String, expected := PackedStringArray()) -> void:
	_waiting[ticket] = op
	if not expected.is_empty():
		_expected[ticket] = expected


## The request [param ticket] was answered: gives [code][op, expected][/code].
func done(ticket: int) -> Array:
	var op := str(_waiting.get(ticket, ""))
	_waiting.erase(ticket)
	var expected: PackedStringArray = _expected.get(ticket, PackedStringArray())
	_expected.erase(ticket)
	return [op, expected]


## How many requests wait.
func size() -> int:
	return _waiting.size()


## The result of [param ticket], awaited on [param answers] (the client's
## [code]response_received[/code]).
static func await_ticket(answers: Signal, ticket: int) -> Dictionary:
	while true:
		var answer: Array = await answers
		if int(answer[0]) == ticket:
			return answer[2]
	return {}


## The results of [param tickets], in their order, awaited on [param answers].
static func await_tickets(answers: Signal, tickets: Array[int]) -> Array[Dictionary]:
	var results := {}
	while results.size() < tickets.size():
		var answer: Array = await answers
		if int(answer[0]) in tickets:
			results[int(answer[0])] = answer[2]
	var ordered: Array[Dictionary] = []
	for ticket in tickets:
		ordered.append(results[ticket])
	return ordered


## The results of [param requests] ([code][[op, fields], ...][/code]), in their order: asked
## one by one with [param now] when [param later] is false, else all sent with [param send]
## before the first answer is awaited on [param answers].
static func ask_all(
	requests: Array, later: bool, now: Callable, send: Callable, answers: Signal
) -> Array[Dictionary]:
	var results: Array[Dictionary] = []
	if not later:
		for item: Array in requests:
			results.append(now.call(item[0], item[1]))
		return results
	var tickets: Array[int] = []
	for item: Array in requests:
		tickets.append(send.call(item[0], item[1]))
	return await await_tickets(answers, tickets)
