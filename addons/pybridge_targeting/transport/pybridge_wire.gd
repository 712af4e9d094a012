@tool
extends RefCounted
## The protocol's text as the client writes and reads it: requests on one line, integers kept
## integers, and a reply read into its result or its whole error. No state: static only.

## The error code of a synchronous request over a transport that answers later.
const WOULD_BLOCK := "would_block"


## [param value] with every whole float turned into an int, recursively (see
## [method PyBridgeClient.integral]).
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


## The text of the request [code]{"op": op, "id": id, ...fields}[/code].
static func request_text(op: String, fields: Dictionary, id: int) -> String:
	var message := fields.duplicate()
	message["op"] = op
	message["id"] = id
	return JSON.stringify(integral(message))


## The text of an [code]open[/code] request of the documents' exact texts.
static func open_text(battle_json: String, id: int, libraries_json: PackedStringArray) -> String:
	# The documents' texts go as they are (their integers stay integers), on one line for the
	# stdio transport: a line break in JSON text is whitespace, never inside a string.
	var text := '{"op":"open","id":%d,"battle":%s}' % [id, battle_json]
	if not libraries_json.is_empty():
		text = (
			'{"op":"open","id":%d,"battle":%s,"libraries":[%s]}'
			% [id, battle_json, ",".join(libraries_json)]
		)
	return text.replace("\r", " ").replace("\n", " ")


## The texts of the documents [param documents] (whole numbers as integers).
static func texts(documents: Array[Dictionary]) -> PackedStringArray:
	var found := PackedStringArray()
	for document in documents:
		found.append(JSON.stringify(integral(document)))
	return found


## The fields of a request about [param card_id] of [param session], at [param target_id].
static func card_fields(session: String, card_id: String, target_id: String) -> Dictionary:
	var fields := {"session": session, "card": card_id}
	if not target_id.is_empty():
		fields["target"] = target_id
	return fields


## The reply a transport that answers later gives a synchronous request.
static func would_block_text() -> String:
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


## The reply [param text] (not empty) read: [code]{"result": {...}}[/code], or
## [code]{"error": {code, message, where, ...what else it carries}}[/code].
static func read_reply(text: String) -> Dictionary:
	var response: Variant = JSON.parse_string(text)
	if not response is Dictionary:
		var why := "the runtime sent a reply that is not a JSON object: %s" % text.left(200)
		return {"error": {"code": "bad_response", "message": why, "where": ""}}
	if not response.get("ok", false):
		var error: Dictionary = {}
		if response.get("error") is Dictionary:
			error = response["error"].duplicate()
		error["code"] = str(error.get("code", "unknown_error"))
		error["message"] = str(error.get("message", ""))
		error["where"] = str(error.get("where", ""))
		return {"error": error}
	var result: Dictionary = {}
	if response.get("result") is Dictionary:
		result = response["result"]
	return {"result": result}
