@tool
extends RefCounted
## The words a library uses, by the word lists of the runtime's schema
## ([code]word_lists[/code]): what a Filter's condition suggests while a designer types it.
##
## Each list says where its words are, and this only looks there: a field of the library's
## cards ([code]cards[/code]), a field of a battle's units ([code]units[/code]), a table of the
## battle by its rows' ids ([code]battle[/code]), a table of the schema ([code]schema[/code]).
## The battle is the one the runtime's [code]sandbox[/code] builds around a card of the
## library, asked once per library, so the unit tags and statuses are those a card is tried on.

const CardDocument := preload("res://addons/pybridge_targeting/workshop/pybridge_card_document.gd")
var _bridge: PyBridgeClient = null
var _battle: Dictionary = {}
var _battle_of: CardDocument = null


func _init(bridge: PyBridgeClient) -> void:
	_bridge = bridge


## The words of list [param list_name] in [param schema] (the [code]schema[/code] answer) that
## [param doc] and its sandbox battle use, each once, sorted; [param edited]: the card being
## edited, which the sandbox is built around first.
func words(
	list_name: String, schema: Dictionary, doc: CardDocument, edited: Dictionary
) -> PackedStringArray:
	var entry := _entry(list_name, schema)
	var found := PackedStringArray()
	if entry.has("schema"):
		_add(found, schema.get(str(entry["schema"])))
	if entry.has("cards"):
		for card: Variant in doc.cards():
			_add(found, card.get(str(entry["cards"])) if card is Dictionary else null)
	if entry.has("units") or entry.has("battle"):
		var battle := _battle_for(doc, edited)
		for unit: Variant in battle.get("units", []):
			_add(found, unit.get(str(entry.get("units", ""))) if unit is Dictionary else null)
		var rows: Variant = battle.get(str(entry.get("battle", "")))
		for row: Variant in rows if rows is Array else []:
			_add(found, row.get("id") if row is Dictionary else null)
	found.sort()
	return found


func _entry(list_name: String, schema: Dictionary) -> Dictionary:
	for entry: Variant in schema.get("word_lists", []):
		if entry is Dictionary and str(entry.get("name")) == list_name:
			return entry
	return {}


## The sandbox battle of [param doc]: around [param edited] if that card loads, else around
## the first of the library's cards that does (a card being edited may not load yet).
func _battle_for(doc: CardDocument, edited: Dictionary) -> Dictionary:
	if _battle_of == doc:
		return _battle
	_battle_of = doc
	_battle = {}
	var candidates: Array = [edited] if not edited.is_empty() else []
	candidates.append_array(doc.cards())
	for card: Variant in candidates:
		if not card is Dictionary:
			continue
		var made := _bridge.request("sandbox", {"card": card, "library": doc.document})
		if made.get("battle") is Dictionary:
			_battle = made["battle"]
			break
	return _battle


## Adds the words [param value] holds: a word, a list of words, or an object keyed by words.
static func _add(found: PackedStringArray, value: Variant) -> void:
	var listed: Array = []
	if value is String:
		listed = [value]
	elif value is Array:
		listed = value
	elif value is Dictionary:
		listed = value.keys()
	for word: Variant in listed:
		if word is String and not word.is_empty() and not word in found:
			found.append(word)
