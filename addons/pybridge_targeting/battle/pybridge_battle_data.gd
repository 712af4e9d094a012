@tool
extends RefCounted
## What the views are given, read from a battle state and the runtime's answers: the
## dictionaries [code]show_unit[/code] and [code]show_card[/code] take, display names, and
## the words of a card's tooltip. It reads; it decides nothing.

const Art := preload("res://addons/pybridge_targeting/drawing/pybridge_art.gd")
const Sentences := preload("res://addons/pybridge_targeting/pybridge_sentences.gd")

## The state it reads.
var state: Dictionary = {}
## Keyword -> the text a player reads about it (the runtime's [code]schema[/code]).
var keywords: Dictionary = {}
## The game's art for [code](kind, id, data)[/code] ([code]kind[/code] is [code]"unit"[/code]
## or [code]"card"[/code]): a [Texture2D], or null for the data's own [code]art[/code] path.
var art_for: Callable
## In a battle with two card-playing sides ([code]sides[/code]), the team whose piles it reads
## ([code]player[/code] or [code]enemy[/code]); empty: the side whose turn it is.
var side: String = ""

var _names: Dictionary = {}
var _statuses: Dictionary = {}
var _definitions: Dictionary = {}


func _init(
	from: Dictionary = {},
	keyword_texts: Dictionary = {},
	art: Callable = Callable(),
	team: String = ""
) -> void:
	state = from
	keywords = keyword_texts
	art_for = art
	side = team
	_names = names_from_state(from)
	for definition: Variant in from.get("statuses", []):
		if definition is Dictionary:
			_statuses[str(definition.get("id"))] = definition
	for definition: Variant in from.get("cards", []):
		if definition is Dictionary:
			_definitions[str(definition.get("id"))] = definition


## Display names from a battle state: [code]{"units", "cards", "statuses", "moves"}[/code],
## each id -> name (card instance ids, in the piles and on the Cut, map to their card's name).
static func names_from_state(from: Dictionary) -> Dictionary:
	var cards := {}
	var definitions := _names_of(from.get("cards", []), "card")
	for instance: Dictionary in _instances_of(from):
		var definition := str(instance.get("card", ""))
		cards[str(instance.get("id"))] = str(definitions.get(definition, definition))
	return {
		"units": _names_of(from.get("units", []), "unit"),
		"cards": cards,
		"statuses": _names_of(from.get("statuses", []), "status"),
		"moves": _names_of(from.get("moves", []), "move"),
	}


## The texts a player reads, from a battle state, as its documents word them:
## [code]{"cards": {instance id: text}, "moves": {move id: text}}[/code] (a card instance in
## the piles or on the Cut maps to its card's text; a card whose face is hidden has none).
static func texts_from_state(from: Dictionary) -> Dictionary:
	var definitions := _texts_of(from.get("cards", []), "card")
	var cards := {}
	for instance: Dictionary in _instances_of(from):
		cards[str(instance.get("id"))] = str(definitions.get(str(instance.get("card", "")), ""))
	return {"cards": cards, "moves": _texts_of(from.get("moves", []), "move")}


## The side object of [param team] in [param from], a battle state with [code]sides[/code]
## ([code]{"team", "active_player", "energy", "max_energy", "piles"...}[/code]); empty when the
## battle has no such side.
static func side_in(from: Dictionary, team: String) -> Dictionary:
	for each: Variant in from.get("sides", []):
		if each is Dictionary and str(each.get("team", "")) == team:
			return each
	return {}


## The piles of [param from] that a view of [param team] shows: that side's in a battle with
## [code]sides[/code] (the turn side's when [param team] is empty), else the battle's own.
static func piles_in(from: Dictionary, team: String = "") -> Dictionary:
	if not from.has("sides"):
		return from.get("piles", {})
	var shown := team if not team.is_empty() else str(from.get("turn_side", ""))
	return side_in(from, shown).get("piles", {})


## The piles this data reads (see [method piles_in] and [member side]).
func piles() -> Dictionary:
	return piles_in(state, side)


## The display names of this state (see [method names_from_state]).
func names() -> Dictionary:
	return _names


## The texts of this state's cards and moves (see [method texts_from_state]).
func texts() -> Dictionary:
	return texts_from_state(state)


## What a unit view's [code]show_unit[/code] is given for [param unit] (a unit of the state):
## [code]id[/code], [code]name[/code], [code]team[/code], [code]hp[/code], [code]max_hp[/code],
## [code]armor[/code], [code]alive[/code], [code]zone[/code], [code]statuses[/code]
## ([code][{"id", "name", "stacks", "text"}][/code], from the state's status definitions),
## [code]intent[/code] (the runtime's forecast, or empty), [code]art[/code] and
## [code]unit[/code] (the state's own unit).
func unit_data(unit: Dictionary) -> Dictionary:
	var id := str(unit.get("id", ""))
	var statuses: Array[Dictionary] = []
	var carried: Dictionary = unit.get("statuses", {}) if unit.get("statuses") is Dictionary else {}
	var ids := carried.keys()
	ids.sort()
	for status: Variant in ids:
		var definition: Dictionary = _statuses.get(str(status), {})
		statuses.append(
			{
				"id": str(status),
				"stacks": int(carried[status]),
				"name": _said_name("status", str(status), definition, str(status).capitalize()),
				"text": _said_text("status", str(status), definition)
			}
		)
	var intent := {}
	if unit.get("intent") is Dictionary and unit["intent"].get("forecast") is Dictionary:
		intent = Sentences.said_fields(unit["intent"]["forecast"])
	var hp := int(unit.get("hp", 0))
	return {
		"id": id,
		"name": Sentences.name_of({"unit": id, "name": str(unit.get("name", id))}),
		"team": str(unit.get("team", "")),
		"hp": hp,
		"max_hp": int(unit.get("max_hp", 1)),
		"armor": int(unit.get("armor", 0)),
		"alive": hp > 0,
		"zone": str(unit.get("zone", "field")),
		"statuses": statuses,
		"intent": intent,
		"art": _art("unit", id, unit),
		"unit": unit
	}


## What a card view's [code]show_card[/code] is given for [param instance] (a card instance
## of the hand) with [param info], the runtime's [code]targets[/code] answer for it: see
## [method PyBridgeCardView.show_card].
func card_data(instance: Dictionary, info: Dictionary) -> Dictionary:
	var id := str(instance.get("id", ""))
	var card_id := str(instance.get("card", ""))
	var definition: Dictionary = _definitions.get(card_id, {})
	var seat := side_in(state, side if not side.is_empty() else str(state.get("turn_side", "")))
	var active: Variant = seat.get("active_player", state.get("active_player", ""))
	var owner_id := str(info.get("source", active))
	if instance.get("owner") != null:
		owner_id = str(instance["owner"])
	var facts: Dictionary = Sentences.said_fields(info.get("facts", {}))
	var reason: Variant = info.get("reason")
	if reason != null:
		reason = Sentences.say(info.get("reason_message"), str(reason))
	return {
		"id": id,
		"card": card_id,
		"name": _said_name("card", card_id, definition, card_id),
		"text": _said_text("card", card_id, definition),
		"cost": int(definition.get("cost", 0)),
		"type": str(definition.get("type", "skill")),
		"rarity": str(definition.get("rarity", "common")),
		"keywords": definition.get("keywords", []),
		"owner": str(_names["units"].get(owner_id, owner_id)),
		"playable": bool(info.get("playable", false)),
		"reason": "" if reason == null else str(reason),
		"mode_label": str(facts.get("label", "")),
		"facts": facts,
		"art": _art("card", card_id, definition),
		"definition": definition,
		"targets": Sentences.said_fields(info)
	}


## The hand's card instance [param card_id] of the state (empty when it is not in the hand).
func hand_instance(card_id: String) -> Dictionary:
	for instance: Variant in piles().get("hand", []):
		if instance is Dictionary and str(instance.get("id")) == card_id:
			return instance
	return {}


## The card instances of [param zone] as the state holds them: a pile of [method piles]
## ([code]hand[/code], [code]draw[/code], [code]discard[/code], [code]exhaust[/code]) from its
## top, or [code]cut[/code] (the cards waiting on the Cut, bottom first).
func zone_instances(zone: String) -> Array[Dictionary]:
	var found: Array[Dictionary] = []
	if zone == "cut":
		for entry: Variant in state.get("cut", []):
			if entry is Dictionary and entry.get("card") is Dictionary:
				found.append(entry["card"])
		return found
	for instance: Variant in piles().get(zone, []):
		if instance is Dictionary:
			found.append(instance)
	return found


## A card's tooltip from its [method card_data]: [code]{"title", "text", "note"}[/code], the
## whole text with each keyword's meaning, and why it cannot be played now.
func card_tip(data: Dictionary) -> Dictionary:
	var parts := PackedStringArray([str(data.get("text", ""))])
	for keyword: Variant in data.get("keywords", []):
		var about := str(keywords.get(str(keyword), ""))
		if about.is_empty():
			parts.append(tr(str(keyword)))
		else:
			parts.append(tr("%s: %s") % [tr(str(keyword)), tr(about)])
	var note := ""
	if not bool(data.get("playable", true)):
		note = tr("Cannot be played now: %s") % str(data.get("reason", ""))
	return {
		"title": str(data.get("name", "")), "text": "\n".join(parts).strip_edges(), "note": note
	}


# A card's or status's name in the current locale (its catalog context by its id).
func _said_name(kind: String, id: String, definition: Dictionary, fallback: String) -> String:
	var english := str(definition.get("name", fallback))
	return Sentences.name_of({kind: id, "def": id, "name": english})


# Its text, whole, under "<kind>.<id>.text": the game's data, translated as one sentence;
# else the describer's sentence for it, when the runtime sent one (a card with no text of
# its own carries the runtime's as its text_message).
func _said_text(kind: String, id: String, definition: Dictionary) -> String:
	var english := str(definition.get("text", ""))
	if english.is_empty():
		return Sentences.say(definition.get("text_message"), english)
	var told := TranslationServer.translate(english, "%s.%s.text" % [kind, id])
	if told == english and definition.get("text_message") is Dictionary:
		return Sentences.say(definition["text_message"], english)
	return told


func _art(kind: String, id: String, data: Dictionary) -> Texture2D:
	var given: Variant = art_for.call(kind, id, data) if art_for.is_valid() else null
	return Art.pick(given, data.get("art"))


static func _instances_of(from: Dictionary) -> Array[Dictionary]:
	var instances: Array[Dictionary] = []
	var held: Array = [from.get("piles", {})]
	for each: Variant in from.get("sides", []):
		if each is Dictionary:
			held.append(each.get("piles", {}))
	for piles: Variant in held:
		for pile: Variant in piles.values():
			for instance: Variant in pile:
				if instance is Dictionary:
					instances.append(instance)
	for entry: Variant in from.get("cut", []):
		if entry is Dictionary and entry.get("card") is Dictionary:
			instances.append(entry["card"])
	return instances


# Id -> text, each in the current locale under "<kind>.<id>.text".
static func _texts_of(definitions: Variant, kind: String) -> Dictionary:
	var found := {}
	if definitions is Array:
		for definition: Variant in definitions:
			if definition is Dictionary and definition.get("text") != null:
				var id := str(definition.get("id"))
				var english := str(definition["text"])
				found[id] = TranslationServer.translate(english, "%s.%s.text" % [kind, id])
	return found


# Id -> name, each in the current locale by its context (a unit's is "unit.name").
static func _names_of(definitions: Variant, kind: String) -> Dictionary:
	var found := {}
	if definitions is Array:
		for definition: Variant in definitions:
			if definition is Dictionary:
				var id := str(definition.get("id"))
				var english := str(definition.get("name", definition.get("id")))
				found[id] = Sentences.name_of({kind: id, "def": id, "name": english})
	return found
