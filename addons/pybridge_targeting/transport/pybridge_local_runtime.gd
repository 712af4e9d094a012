@tool
extends RefCounted
## The runtimes on this machine that the client reaches: the [code]PyBridgeNative[/code] GDExtension
## class, the web page's [code]pybridge_call[/code] function (Pyodide), and the
## [code]pybridge serve --stdio[/code] child process, which it starts and ends.

## The GDExtension class that embeds Python.
const EXTENSION_CLASS := &"PyBridgeNative"
## The page function a web export defines (see pybridge/web.py).
const WEB_FUNCTION := "pybridge_call"

var _extension: Object = null
var _pid: int = -1


## Whether the extension loads and its runtime answers (then [method call_extension] serves).
func connect_extension() -> bool:
	if not ClassDB.class_exists(EXTENSION_CLASS) or not ClassDB.can_instantiate(EXTENSION_CLASS):
		return false
	_extension = ClassDB.instantiate(EXTENSION_CLASS)
	if _extension != null and _extension.has_method(&"call_json"):
		# The library may load while its embedded Python cannot start: then it answers every
		# request with an error, and the next transport gets its chance.
		var probe: Variant = JSON.parse_string(call_extension('{"op":"version","id":0}'))
		if probe is Dictionary and probe.get("ok", false):
			return true
		push_warning(
			(
				"pybridge: the PyBridgeNative extension is loaded but its runtime does not "
				+ "answer; trying the next transport"
			)
		)
	_free_extension()
	return false


## Whether this is a web export whose page defines the runtime's function.
static func connect_web() -> bool:
	if not OS.has_feature("web"):
		return false
	return str(JavaScriptBridge.eval("typeof window.%s" % WEB_FUNCTION, true)) == "function"


## The extension's reply to [param request_json].
func call_extension(request_json: String) -> String:
	return str(_extension.call(&"call_json", request_json))


## The page function's reply to [param request_json] ([code]""[/code] when it gave none).
static func call_web(request_json: String) -> String:
	# JSON.stringify turns the request into a JS string literal; U+2028 and U+2029 are
	# escaped too, for JS engines older than ES2019.
	var literal := JSON.stringify(request_json)
	literal = literal.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
	var reply: Variant = JavaScriptBridge.eval("%s(%s)" % [WEB_FUNCTION, literal], true)
	return reply if reply is String else ""


## Starts [param command] with [param arguments] and gives its stdio pipe, or null.
func spawn(command: String, arguments: PackedStringArray) -> FileAccess:
	if OS.has_feature("web") or command.is_empty():
		return null
	var child := OS.execute_with_pipe(command, arguments)
	if child.is_empty() or not child.get("stdio") is FileAccess:
		return null
	_pid = int(child.get("pid", -1))
	return child["stdio"]


## Ends the child process and frees the extension object.
func close() -> void:
	if _pid > 0:
		OS.kill(_pid)
		_pid = -1
	_free_extension()


func _free_extension() -> void:
	if _extension != null and not (_extension is RefCounted):
		_extension.free()
	_extension = null
