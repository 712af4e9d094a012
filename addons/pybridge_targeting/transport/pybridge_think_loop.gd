@tool
extends RefCounted
## The client's [code]think[/code] loop: it asks the search AI one slice a frame until the
## move is decided, and tells how far it is with its own signals (the client emits them as
## its own). Its context is two callables: how to ask, and how to add its timer to the tree.

## Thinking began ([param is_thinking] true) or ended (false).
signal thinking_changed(is_thinking: bool)
## Another slice was searched: [param searched] of [param iterations] iterations.
signal think_progressed(searched: int, iterations: int)

## Whether a move is being thought of now.
var thinking: bool = false
## How far the move is, from 0 to 1 (its iterations searched).
var progress: float = 0.0

var _ask: Callable
var _adopt: Callable
var _ticker: Timer = null
var _thoughts: int = 0


## [param ask] is [code]func(op, fields) -> Dictionary[/code] (a coroutine);
## [param adopt] adds a node to the tree, under the thinking client.
func _init(ask: Callable, adopt: Callable) -> void:
	_ask = ask
	_adopt = adopt


## Thinks the move of [param session] through (see [method PyBridgeClient.think]), one slice
## a frame; gives the last answer, or [code]{}[/code] when refused or stopped.
func run(session: String, iterations: int, seed: int, slice: int, fields: Dictionary) -> Dictionary:
	var asked := fields.duplicate()
	if not asked.has("session"):
		asked["session"] = session
	asked.merge({"iterations": iterations, "seed": seed, "slice": maxi(slice, 1)}, true)
	_thoughts += 1
	var thought := _thoughts
	thinking = true
	progress = 0.0
	thinking_changed.emit(true)
	var result: Dictionary = {}
	while true:
		result = await _ask.call("think", asked)
		if thought != _thoughts:
			return {}  # stopped, or a newer thought took over (it tells the end)
		if result.is_empty() or bool(result.get("done", false)):
			break
		var searched := int(result.get("searched", 0))
		progress = float(searched) / float(maxi(iterations, 1))
		think_progressed.emit(searched, iterations)
		await _next_frame()  # one slice a frame
		if thought != _thoughts:
			return {}
	progress = 1.0 if not result.is_empty() else progress
	thinking = false
	thinking_changed.emit(false)
	return result


## Stops the thought now (its [method run] gives [code]{}[/code]).
func stop() -> void:
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
		_adopt.call(_ticker)
	var frame := Engine.get_frames_drawn()
	while Engine.get_frames_drawn() == frame:  # a timer may end within the frame it began in
		_ticker.start()
		await _ticker.timeout
