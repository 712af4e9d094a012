@tool
class_name PyBridgeDeckResource
extends Resource
## A deck list per side: the card ids a side's draw pile is dealt from, in order (the first
## is the top), each id once per copy. A [PyBridgeBattleResource] with a deck writes its
## battle document with these cards under the draw pile's own; the runtime checks that each
## id names a card of the battle or its libraries.

## The player side's deck list (card ids, a copy per entry, top first).
@export var player: PackedStringArray = PackedStringArray()
## The enemy side's deck list, for a battle with two card-playing sides.
@export var enemy: PackedStringArray = PackedStringArray()
## The prefix of the instance ids the deck's cards get (a number follows; ids the battle
## already uses are skipped).
@export var id_prefix: String = "deck"


## The deck list of [param team] ([code]player[/code] or [code]enemy[/code]).
func list_of(team: String) -> PackedStringArray:
	return player if team == "player" else enemy if team == "enemy" else PackedStringArray()


## Adds this deck's cards below the draw piles of the battle document [param document]
## (each side's in a battle with [code]sides[/code], else the top level's, for the player).
func deal_into(document: Dictionary) -> void:
	var used := {}
	for piles: Dictionary in _all_piles(document):
		for pile: Variant in piles.values():
			for instance: Variant in pile if pile is Array else []:
				if instance is Dictionary:
					used[str(instance.get("id"))] = true
	var number := 0
	var sides: Variant = document.get("sides")
	var owners: Array = []
	if sides is Array and not sides.is_empty():
		for side: Variant in sides:
			if side is Dictionary:
				owners.append([str(side.get("team")), side])
	else:
		owners.append(["player", document])
	for owner: Array in owners:
		var holder: Dictionary = owner[1]
		var cards := list_of(owner[0])
		if cards.is_empty():
			continue
		var piles: Dictionary = holder.get("piles", {})
		var draw: Array = piles.get("draw", [])
		for card: String in cards:
			number += 1
			while used.has("%s%d" % [id_prefix, number]):
				number += 1
			draw.append({"id": "%s%d" % [id_prefix, number], "card": card})
		piles["draw"] = draw
		holder["piles"] = piles


func _all_piles(document: Dictionary) -> Array[Dictionary]:
	var found: Array[Dictionary] = []
	if document.get("piles") is Dictionary:
		found.append(document["piles"])
	var sides: Variant = document.get("sides")
	for side: Variant in sides if sides is Array else []:
		if side is Dictionary and side.get("piles") is Dictionary:
			found.append(side["piles"])
	return found
