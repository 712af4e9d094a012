@tool
extends RefCounted
## Says the runtime's sentences in the current locale through Godot's TranslationServer
## (docs/translation.md, "In Godot"). A sentence is [code]{"id", "params"}[/code]; its English
## template, from the schema's message table, is the msgid and its id the context, so a PO
## file translates it whole ([code]tr[/code], or [code]tr_n[/code] by its [code]plural[/code]
## count). A gendered name picks the variant [code]<id>|<param>=<gender>[/code]; names are
## translated by their contexts, sentences within sentences innermost first. Where the locale
## has no entry the English stands. Nothing is joined here that a template did not word.
## The battle view takes the table from the runtime's schema; a game says a sentence of its
## own (a log line it prints) with [method say].

const GENDER := "#gender"
const PROPER := "proper"
const UNIT_NAME := "unit.name"

## The message table, id -> its schema row ([code]{"id", "english", "params", "plural",
## "english_plural"}[/code]); shared, as one runtime's table never changes while it runs.
static var _table: Dictionary = {}
static var _placeholder: RegEx = null
static var _given: Array = []


## Takes the schema's [code]messages[/code] (every host part then says sentences with them).
static func use(messages: Array) -> void:
	if is_same(messages, _given):
		return
	_given = messages
	_table = {}
	for row: Variant in messages:
		if row is Dictionary and row.has("id"):
			_table[str(row["id"])] = row


## [param message] in the current locale; [param english] (the text the runtime sent beside
## it) when the message is not a sentence of the table, or its locale lacks the sentence.
static func say(message: Variant, english: String = "") -> String:
	if not _is_said(message) or not _table.has(str(message["id"])):
		return english
	var told := _say(message, not english.is_empty())
	return english if told.is_empty() else told


## Why the runtime refused a request, from its error answer ([member PyBridgeClient.last_error]):
## the refusal's [code]reason_message[/code] in the current locale, for a refusal a player
## can meet; else the error's [code]message[/code] (a developer's, in English), else
## [param fallback].
static func said_error(error: Dictionary, fallback: String = "") -> String:
	if error.get("reason") is String:
		return say(error.get("reason_message"), error["reason"])
	return str(error.get("message", fallback))


## A copy of [param answer] (a forecast, a Cut answer...) with each text [code]K[/code] that
## has its [code]K_message[/code] beside it said in the current locale, and its
## [code]lines[/code] by their [code]line_messages[/code].
static func said_fields(answer: Dictionary) -> Dictionary:
	var out := answer.duplicate()
	for key: Variant in answer:
		var message: Variant = answer.get(str(key) + "_message")
		if message is Dictionary and answer[key] is String:
			out[key] = say(message, answer[key])
	var lines: Variant = answer.get("lines")
	var messages: Variant = answer.get("line_messages")
	if lines is Array and messages is Array and lines.size() == messages.size():
		var told: Array = []
		for i in lines.size():
			told.append(say(messages[i], str(lines[i])))
		out["lines"] = told
	return out


## A name parameter ([code]{"unit"|"card"|"status"|"move", "name"}[/code]) in the current
## locale: its translation under its context, else its English.
static func name_of(value: Dictionary) -> String:
	var english := str(value.get("name", ""))
	var context := _name_context(value)
	return english if context.is_empty() else TranslationServer.translate(english, context)


# A sentence in the current locale; "" when it cannot be said whole (a missing entry at the
# top when [param strict], or a placeholder left unfilled), so the caller shows the English.
static func _say(message: Dictionary, strict: bool) -> String:
	var row: Dictionary = _table[str(message["id"])]
	var params: Dictionary = (
		message.get("params", {}) if message.get("params") is Dictionary else {}
	)
	var template := _template(row, params, strict)
	if template.is_empty():
		return ""
	if _placeholder == null:
		_placeholder = RegEx.create_from_string("\\{(\\w+)\\}")
	var out := ""
	var at := 0
	for found: RegExMatch in _placeholder.search_all(template):
		var key := found.get_string(1)
		if not params.has(key):
			return ""
		var filled := _param(params[key])
		if filled.is_empty() and _is_said(params[key]):
			return ""
		out += template.substr(at, found.get_start() - at) + filled
		at = found.get_end()
	out += template.substr(at)
	# A whole sentence of a paragraph (a card text's) starts with a capital, whatever fills it.
	return out.left(1).to_upper() + out.substr(1) if row.get("capital", false) else out


# The template to fill: the translation of the sentence's entry, a gender variant for its
# gendered names first (all together, then each alone in their order), then the plain id.
# With no entry: the English template, or "" when [param strict] (the top sentence).
static func _template(row: Dictionary, params: Dictionary, strict: bool) -> String:
	var id := str(row["id"])
	var english := str(row.get("english", ""))
	var plural := str(row.get("plural", ""))
	var english_plural := str(row.get("english_plural", ""))
	var count := int(params.get(plural, 1)) if not plural.is_empty() else 1
	var source := english if plural.is_empty() or count == 1 else english_plural
	var chosen := PackedStringArray()
	for key: String in params:
		var gender := _gender(params[key])
		if gender != PROPER:
			chosen.append("%s=%s" % [key, gender])
	var contexts := PackedStringArray()
	if chosen.size() > 1:
		contexts.append(id + "|" + "|".join(chosen))
	for one: String in chosen:
		contexts.append(id + "|" + one)
	contexts.append(id)
	for context: String in contexts:
		var told := _lookup(english, english_plural, plural, count, context)
		if told != source:
			return told
	# No entry differs from the English: the English is what this locale says (an English
	# locale, a language-neutral template such as "{item}"), or the locale lacks it.
	if strict and _lacks(source):
		return ""
	return source


static func _lookup(
	english: String, english_plural: String, plural: String, count: int, context: String
) -> String:
	if plural.is_empty():
		return TranslationServer.translate(english, context)
	return TranslationServer.translate_plural(english, english_plural, count, context)


# Whether the current locale has no translation for an English template: a catalog of its
# language is loaded, and the template has words of its own (not just placeholders).
static func _lacks(source: String) -> bool:
	var language := TranslationServer.get_locale().get_slice("_", 0)
	if language == "en":
		return false
	var catalog := false
	for loaded: String in TranslationServer.get_loaded_locales():
		catalog = catalog or loaded.get_slice("_", 0) == language
	if not catalog:
		return false
	if _placeholder == null:
		_placeholder = RegEx.create_from_string("\\{(\\w+)\\}")
	var words := _placeholder.sub(source, "", true)
	return RegEx.create_from_string("\\p{L}").search(words) != null


static func _param(value: Variant) -> String:
	if _is_said(value):
		return _say(value, false) if _table.has(str(value["id"])) else ""
	if value is Dictionary and value.has("context") and value.has("text"):
		return TranslationServer.translate(str(value["text"]), str(value["context"]))
	if value is Dictionary and value.has("name"):
		return name_of(value)
	if value is float and is_equal_approx(value, roundf(value)):
		return str(int(value))
	return str(value)


# A name parameter's gender in the current locale (its "#gender" entry), else PROPER.
static func _gender(value: Variant) -> String:
	if not value is Dictionary or not value.has("name") or value.has("params"):
		return PROPER
	var english := str(value["name"])
	var context := _name_context(value)
	if context.is_empty():
		return PROPER
	var gender := TranslationServer.translate(english, context + GENDER)
	return PROPER if gender == english or gender.is_empty() else gender


# A name's catalog context; "" for a card without a definition (no catalog names it).
static func _name_context(value: Dictionary) -> String:
	if value.has("unit"):
		return UNIT_NAME
	for kind: String in ["card", "status", "move"]:
		if value.has(kind):
			var id: Variant = value.get("def") if kind == "card" else value.get(kind)
			return "" if id == null else "%s.%s.name" % [kind, id]
	return ""


static func _is_said(value: Variant) -> bool:
	return value is Dictionary and value.has("id") and value.has("params")
