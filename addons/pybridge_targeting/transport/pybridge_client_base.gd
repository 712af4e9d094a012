@tool
extends Node
## The signals of [PyBridgeClient]: internal, a game names [PyBridgeClient], never this script;
## what is documented here is the client's own API (the editor's help shows it on this page).

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
