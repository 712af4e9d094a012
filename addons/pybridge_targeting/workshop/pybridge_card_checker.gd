@tool
extends RefCounted
## What the runtime says about each card of a library: its [code]lint[/code] diagnostics and
## its generated text ([code]describe[/code]), asked once per version of a card.
##
## The runtime's lint stops at the first card the loader refuses, so each card is linted on
## its own, as a one-card library: a broken card does not hide what is wrong with the others.
## The cards that load are then linted together once per set of ids, for what only a whole
## library shows (two cards with one id). Each diagnostic gains [code]card_index[/code] and
## [code]place[/code] ([code]{"node", "field"}[/code]: where the Workshop shows it).

const CardDocument := preload("res://addons/pybridge_targeting/workshop/pybridge_card_document.gd")
## Diagnostic codes of a loader refusal.
const REFUSAL_CODE := "PB002"

var _bridge: PyBridgeClient = null
var _format: String = ""
var _lint_cache: Dictionary = {}
var _text_cache: Dictionary = {}
var _library_key: String = ""
var _library_findings: Array = []


func _init(bridge: PyBridgeClient, library_format: String) -> void:
	_bridge = bridge
	_format = library_format


## Where a loader refusal (PB002) points inside its card, from its JSON path: lint reports
## the node and field itself for every other code, but not (yet) for a refusal.
## [code]cards[0].behavior.nodes[3].sourse[/code] -> the id of the card's node 3 and
## [code]sourse[/code]; [code]cards[0].target[/code] -> no node, [code]target[/code].
static func refusal_place(path: String, of_card: Dictionary) -> Dictionary:
	var rest := path.substr(path.find("]") + 2) if path.begins_with("cards[") else path
	var found := RegEx.create_from_string("^behavior\\.nodes\\[(\\d+)\\]\\.?(.*)$").search(rest)
	if found == null:
		return {"node": "", "field": rest.get_slice("[", 0)}
	var nodes := CardDocument.nodes_of(of_card)
	var index := found.get_string(1).to_int()
	var node_id := ""
	if index < nodes.size() and nodes[index] is Dictionary:
		node_id = str(nodes[index].get("id", ""))
	return {"node": node_id, "field": found.get_string(2).get_slice("[", 0)}


## Where a diagnostic is shown: the node it names (or the refusal's), and its field, with the
## port for a diagnostic about a port ([code]ports.target[/code]).
static func place_of(diagnostic: Dictionary, of_card: Dictionary) -> Dictionary:
	var path := str(diagnostic.get("path", ""))
	if str(diagnostic.get("code")) == REFUSAL_CODE:
		return refusal_place(path, of_card)
	var field := str(diagnostic.get("field")) if diagnostic.get("field") != null else ""
	var at_port := path.find(".ports.")
	if at_port >= 0:
		field = "ports." + path.substr(at_port + 7).get_slice(".", 0)
	var node := str(diagnostic.get("node")) if diagnostic.get("node") != null else ""
	return {"node": node, "field": field}


## Every card's diagnostics: [code]{"cards": [Array per card], "library": Array}[/code], the
## second for the document as a whole.
func check(document: Dictionary) -> Dictionary:
	var cards: Variant = document.get("cards")
	if not cards is Array:
		return {"cards": [], "library": _located(_lint(document), -1, {})}
	var per_card: Array = []
	var loadable: Array = []
	var origin: Array[int] = []
	for i in cards.size():
		var found := _card_findings(cards[i])
		per_card.append(_located(found, i, cards[i] if cards[i] is Dictionary else {}))
		if not _refused(found):
			loadable.append(cards[i])
			origin.append(i)
	var library: Array = []
	for diagnostic: Dictionary in _library_pass(document, loadable):
		var index := _card_index(str(diagnostic.get("path", "")))
		if index >= 0 and index < origin.size():
			var card_index := origin[index]
			per_card[card_index].append_array(_located([diagnostic], card_index, cards[card_index]))
		else:
			library.append_array(_located([diagnostic], -1, {}))
	return {"cards": per_card, "library": library}


## The generated text of [param of_card] ([code]{"text"}[/code]), or [code]{"error"}[/code]
## with the runtime's reason when it does not load.
func generated_text(of_card: Variant) -> Dictionary:
	var key := JSON.stringify(of_card)
	if not _text_cache.has(key):
		var answer := _bridge.request("describe", {"definition": of_card})
		if answer.is_empty():
			_text_cache[key] = {"error": str(_bridge.last_error.get("message", ""))}
		else:
			_text_cache[key] = {"text": str(answer.get("text", ""))}
	return _text_cache[key]


## Forgets every answer (the runtime may have changed).
func clear() -> void:
	_lint_cache.clear()
	_text_cache.clear()
	_library_key = ""


func _card_findings(of_card: Variant) -> Array:
	var key := JSON.stringify(of_card)
	if not _lint_cache.has(key):
		_lint_cache[key] = _lint({"format": _format, "cards": [of_card]})
	return _lint_cache[key]


func _library_pass(document: Dictionary, loadable: Array) -> Array:
	var ids := PackedStringArray()
	for found: Variant in loadable:
		ids.append(str(found.get("id", "")) if found is Dictionary else "")
	var key := JSON.stringify([document.get("format"), ids])
	if key != _library_key:
		_library_key = key
		_library_findings = []
		var found := _lint({"format": document.get("format"), "cards": loadable})
		if _refused(found):
			_library_findings = found
	return _library_findings.duplicate(true)


func _lint(document: Variant) -> Array:
	var answer := _bridge.request("lint", {"document": document})
	if answer.is_empty():
		return [
			{
				"code": "",
				"severity": "error",
				"path": "",
				"fix": "",
				"message": "the runtime did not answer: %s" % _bridge.last_error.get("message")
			}
		]
	return answer.get("diagnostics", [])


func _located(found: Array, card_index: int, of_card: Dictionary) -> Array:
	var out: Array = []
	for diagnostic: Variant in found:
		var copy: Dictionary = diagnostic.duplicate(true)
		var path := str(copy.get("path", ""))
		if card_index >= 0 and path.begins_with("cards["):
			copy["path"] = "cards[%d]%s" % [card_index, path.substr(path.find("]") + 1)]
		copy["card_index"] = card_index
		copy["place"] = place_of(copy, of_card) if card_index >= 0 else {"node": "", "field": ""}
		out.append(copy)
	return out


static func _refused(found: Array) -> bool:
	for diagnostic: Variant in found:
		if str(diagnostic.get("code")) == REFUSAL_CODE:
			return true
	return false


static func _card_index(path: String) -> int:
	if not path.begins_with("cards["):
		return -1
	return path.substr(6, path.find("]") - 6).to_int()
