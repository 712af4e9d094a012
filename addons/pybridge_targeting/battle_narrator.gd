class_name BattleNarrator
extends RefCounted
## Turns the runtime's events into sentences for a battle log.
##
## [codeblock]
## var names := BattleNarrator.names_from_state(state)
## for line in BattleNarrator.describe_all(result["events"], names):
##     print(line["text"])  # "Knight plays Strike at Orc Brute."
## [/codeblock]
## Each line is [code]{"text", "kind", "indent"}[/code]; [code]kind[/code] is one of
## [code]play[/code], [code]damage[/code], [code]heal[/code], [code]buff[/code],
## [code]death[/code], [code]enemy[/code], [code]turn[/code], [code]result[/code],
## [code]info[/code]. Bookkeeping events (a played card going to the discard pile) give no
## line; the cards drawn at the start of a turn are summed up in one.


## Display names from a battle state: [code]{"units", "cards", "statuses", "moves"}[/code],
## each id -> name (card instance ids map to their card's name).
static func names_from_state(state: Dictionary) -> Dictionary:
	var units := {}
	for unit: Variant in state.get("units", []):
		units[str(unit.get("id"))] = str(unit.get("name", unit.get("id")))
	var definitions := {}
	for card: Variant in state.get("cards", []):
		definitions[str(card.get("id"))] = str(card.get("name", card.get("id")))
	var cards := {}
	var piles: Dictionary = state.get("piles", {})
	for pile: Variant in piles.values():
		for instance: Variant in pile:
			var definition := str(instance.get("card", ""))
			cards[str(instance.get("id"))] = str(definitions.get(definition, definition))
	return {
		"units": units,
		"cards": cards,
		"statuses": _names_of(state.get("statuses", [])),
		"moves": _names_of(state.get("moves", [])),
	}


## Lines for a list of events (see the class description).
static func describe_all(events: Array, names: Dictionary) -> Array[Dictionary]:
	var lines: Array[Dictionary] = []
	var drawn := 0
	for event: Variant in events:
		if not event is Dictionary:
			continue
		if _is_turn_draw(event):
			drawn += 1
			continue
		if drawn > 0:
			lines.append(_line("You draw %d card%s." % [drawn, "" if drawn == 1 else "s"],
					"info", 1))
			drawn = 0
		var line := describe(event, names)
		if not line.is_empty():
			lines.append(line)
	if drawn > 0:
		lines.append(_line("You draw %d card%s." % [drawn, "" if drawn == 1 else "s"], "info", 1))
	return lines


## One line for [param event], or [code]{}[/code] for bookkeeping nobody needs to read.
static func describe(event: Dictionary, names: Dictionary) -> Dictionary:
	var unit := _unit(names, event.get("unit"))
	match str(event.get("type", "")):
		"card_played":
			var source := _unit(names, event.get("source"))
			if event.get("target") != null:
				return _line("%s plays %s at %s." % [source, event.get("name"),
						_unit(names, event.get("target"))], "play", 0)
			return _line("%s plays %s." % [source, event.get("name")], "play", 0)
		"random_target":
			if event.get("unit") == null:
				return _line("Fate finds no one to pick.", "info", 1)
			return _line("Fate picks %s." % unit, "info", 1)
		"damage":
			var taken := int(event.get("hp_before", 0)) - int(event.get("hp_after", 0))
			var blocked := int(event.get("blocked", 0))
			var text := "%s takes %d damage" % [unit, taken]
			if blocked > 0:
				text += " (%d blocked by armor)" % blocked
			return _line(text + ", %d HP left." % int(event.get("hp_after", 0)), "damage", 1)
		"unit_died":
			return _line("%s falls." % unit, "death", 1)
		"armor":
			return _line("%s gains %d armor (%d total)." % [unit, int(event.get("amount", 0)),
					int(event.get("armor_after", 0))], "buff", 1)
		"heal":
			return _line("%s recovers %d HP, now %d." % [unit, int(event.get("amount", 0)),
					int(event.get("hp_after", 0))], "heal", 1)
		"status":
			var status := _status(names, event.get("status"))
			var stacks := int(event.get("stacks", 0))
			if event.has("total") and int(event.get("total")) <= 0:
				return _line("%s wears off %s." % [status, unit], "buff", 1)
			if stacks < 0:
				return _line("%s loses %d %s." % [unit, -stacks, status], "buff", 1)
			return _line("%s gains %d %s (%d total)." % [unit, stacks, status,
					int(event.get("total", stacks))], "buff", 1)
		"revived":
			return _line("%s rises again with %d HP." % [unit, int(event.get("hp", 0))], "heal", 1)
		"card_moved":
			if event.get("node") == null:
				return {}
			return _line("%s moves from the %s pile to the %s." % [_card(names, event.get("card")),
					event.get("from"), _pile(str(event.get("to")))], "info", 1)
		"no_targets":
			return _line("%s finds no target and does nothing." % event.get("action"), "info", 1)
		"target_skipped":
			if str(event.get("reason")) == "draw_pile_empty":
				return _line("The draw pile is empty.", "info", 1)
			var who := unit if event.has("unit") else _card(names, event.get("card"))
			return _line("%s is skipped (%s)." % [who, event.get("reason")], "info", 1)
		"reshuffled":
			return _line("The discard pile is shuffled into the draw pile (%d cards)."
					% int(event.get("cards", 0)), "info", 1)
		"turn_ended":
			return _line("Turn %d ends." % int(event.get("turn", 0)), "turn", 0)
		"turn_started":
			return _line("Turn %d begins with %d energy." % [int(event.get("turn", 0)),
					int(event.get("energy", 0))], "turn", 0)
		"enemy_acts":
			var move := str(event.get("name", _move(names, event.get("move"))))
			if event.get("target") != null:
				return _line("%s uses %s on %s." % [unit, move, _unit(names, event.get("target"))],
						"enemy", 0)
			return _line("%s uses %s." % [unit, move], "enemy", 0)
		"enemy_turn":
			return _line("The enemies act.", "turn", 0)
		"intent":
			var plan := str(event.get("name", _move(names, event.get("move"))))
			if event.get("target") != null:
				return _line("%s readies %s against %s." % [unit, plan,
						_unit(names, event.get("target"))], "info", 1)
			return _line("%s readies %s." % [unit, plan], "info", 1)
		"reaction":
			return _line("%s's %s strikes back at %s." % [unit,
					_status(names, event.get("status")), _unit(names, event.get("attacker"))],
					"enemy", 1)
		"status_hook":
			return _line("%s's %s takes effect." % [unit, _status(names, event.get("status"))],
					"buff", 1)
		"status_decayed":
			var left := int(event.get("stacks_after", 0))
			var faded := _status(names, event.get("status"))
			if left <= 0:
				return _line("%s wears off %s." % [faded, unit], "buff", 1)
			return _line("%s's %s drops to %d." % [unit, faded, left], "buff", 1)
		"battle_ended":
			var won := str(event.get("result")) == "victory"
			return _line("Victory! The enemies are defeated." if won
					else "Defeat. The party has fallen.", "result", 0)
	return {}


static func _line(text: String, kind: String, indent: int) -> Dictionary:
	return {"text": text, "kind": kind, "indent": indent}


static func _is_turn_draw(event: Dictionary) -> bool:
	return (str(event.get("type")) == "card_moved" and event.get("node") == null
			and str(event.get("from")) == "draw" and str(event.get("to")) == "hand")


static func _names_of(definitions: Variant) -> Dictionary:
	var names := {}
	if definitions is Array:
		for definition: Variant in definitions:
			if definition is Dictionary:
				names[str(definition.get("id"))] = str(definition.get("name", definition.get("id")))
	return names


static func _unit(names: Dictionary, id: Variant) -> String:
	return str(names.get("units", {}).get(str(id), str(id)))


static func _card(names: Dictionary, id: Variant) -> String:
	return str(names.get("cards", {}).get(str(id), str(id)))


static func _status(names: Dictionary, id: Variant) -> String:
	return str(names.get("statuses", {}).get(str(id), str(id).capitalize()))


static func _move(names: Dictionary, id: Variant) -> String:
	return str(names.get("moves", {}).get(str(id), str(id).capitalize()))


static func _pile(pile: String) -> String:
	return "hand" if pile == "hand" else pile + " pile"
