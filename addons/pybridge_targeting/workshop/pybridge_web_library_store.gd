@tool
extends "res://addons/pybridge_targeting/workshop/pybridge_library_store.gd"
## The one library a browser page edits, read from and saved to the page's own server
## ([code]pybridge workshop LIBRARY[/code]: [code]GET[/code] and [code]POST[/code] on
## [constant ROUTE]), through [JavaScriptBridge]. While there are unsaved changes the page
## asks before it is closed or reloaded.

## The server's library route, relative to the page.
const ROUTE := "library"
## The header that names the library file.
const NAME_HEADER := "X-PyBridge-Library"

const _SCRIPT := """(() => {
	const request = new XMLHttpRequest();
	request.open(%s, %s, false);
	if (%s !== null) request.setRequestHeader("Content-Type", "application/json");
	try { request.send(%s); } catch (err) {
		return JSON.stringify({status: 0, text: String(err), name: ""});
	}
	return JSON.stringify({status: request.status, text: request.responseText,
		name: request.getResponseHeader(%s) || ""});
})()"""


func _init() -> void:
	super("")


## Whether this page can reach its server (a web build).
static func available() -> bool:
	return OS.has_feature("web")


func list(_library_format: String) -> PackedStringArray:
	return PackedStringArray([ROUTE])


func read(_path: String) -> Dictionary:
	var answer := _send("GET", null)
	if int(answer.get("status", 0)) != 200:
		return {"error": "the server did not give the library: %s" % answer.get("text", "")}
	return {"text": str(answer.get("text", "")), "name": str(answer.get("name", ROUTE))}


func write(_path: String, text: String) -> String:
	var answer := _send("POST", text)
	if int(answer.get("status", 0)) != 200:
		return "the server refused to save: %s" % str(answer.get("text", "")).strip_edges()
	return ""


func set_unsaved(unsaved: bool) -> void:
	if available():
		JavaScriptBridge.eval(
			(
				"window.onbeforeunload = %s;"
				% ("(event) => { event.preventDefault(); return ''; }" if unsaved else "null")
			),
			true
		)


func _send(method: String, body: Variant) -> Dictionary:
	if not available():
		return {"status": 0, "text": "not a web build"}
	var literal := JSON.stringify(body) if body != null else "null"
	# JSON is a JS literal, except for two line separators older engines reject.
	literal = literal.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
	var code := (
		_SCRIPT
		% [
			JSON.stringify(method),
			JSON.stringify(ROUTE),
			literal,
			literal,
			JSON.stringify(NAME_HEADER)
		]
	)
	var reply: Variant = JavaScriptBridge.eval(code, true)
	var answer: Variant = JSON.parse_string(str(reply)) if reply is String else null
	return answer if answer is Dictionary else {"status": 0, "text": "no answer"}
