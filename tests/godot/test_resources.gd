extends "res://suite.gd"
## The addon's document Resources (addons/pybridge_targeting/resources/): integers kept as
## ints, a Resource made in code written as the runtime reads it, a deck dealt into each
## side's draw pile, and a battle view opening a battle Resource with its card library, from
## memory and from a .tres. The round trip of every example and fuzz seed is
## tests/test_resources.py.

const ResourceLint := preload("res://addons/pybridge_targeting/resources/pybridge_resource_lint.gd")
const HandSlot := preload("res://addons/pybridge_targeting/battle/pybridge_hand_slot.gd")
const RIVALS_FILE := "res://battle/rivals_battle.json"


func test_numbers_from_json_are_kept_as_ints() -> void:
	var document := demo_battle()
	check_eq(typeof(document["units"][0]["hp"]), TYPE_FLOAT, "Godot's JSON gives floats")
	var battle := PyBridgeBattleResource.new().read(document) as PyBridgeBattleResource
	check_eq(typeof(battle.units[0].hp), TYPE_INT, "a unit's hp is an int")
	check_eq(battle.units[0].hp, int(document["units"][0]["hp"]), "its value")
	check_eq(typeof(battle.cards[0].cost), TYPE_INT, "a card's cost is an int")
	var node: PyBridgeNodeResource = battle.cards[0].behavior.nodes[0]
	for value: Variant in node.fields.values():
		check(not value is float, "a node field %s is not a float" % var_to_str(value))
	var written := battle.write()
	check_eq(typeof(written["seed"]), TYPE_INT, "the seed is written as an int")
	check_eq(
		JSON.parse_string(battle.to_json()), JSON.parse_string(JSON.stringify(document)), "same"
	)


func test_a_card_made_in_code_writes_what_it_holds_and_leaves_defaults_out() -> void:
	var card := PyBridgeCardResource.new()
	card.id = "spark"
	card.name = "Spark"
	card.cost = 2
	card.tags = PackedStringArray(["fire"])
	var behavior := PyBridgeBehaviorResource.new()
	var node := PyBridgeNodeResource.new()
	node.id = "hit"
	node.type = "Kind"
	node.fields = {"amount": 4}
	behavior.start = "hit"
	behavior.nodes.append(node)
	card.behavior = behavior
	card.extra = {"up_to": true}
	check_eq(
		card.write(),
		{
			"id": "spark",
			"name": "Spark",
			"cost": 2,
			"tags": ["fire"],
			"behavior": {"start": "hit", "nodes": [{"id": "hit", "type": "Kind", "amount": 4}]},
			"up_to": true
		},
		"the card's document"
	)
	card.cost = 0
	check(not card.write().has("cost"), "a cost back at its default is left out")


func test_a_key_given_at_its_default_or_of_another_type_comes_back_as_given() -> void:
	var given := {"id": "u", "name": "U", "team": "player", "hp": "ten", "max_hp": 5.0, "armor": 0}
	var unit := PyBridgeUnitResource.new().read(given) as PyBridgeUnitResource
	check_eq(unit.extra, {"hp": "ten"}, "a string hp stays in extra")
	check_eq(unit.max_hp, 5, "max_hp an int")
	check_eq(
		unit.write(),
		{"id": "u", "name": "U", "team": "player", "max_hp": 5, "armor": 0, "hp": "ten"},
		"armor 0 written back"
	)  # fmt: skip


func test_a_deck_deals_each_sides_draw_pile_below_its_cards() -> void:
	var battle := PyBridgeBattleResource.from_json(FileAccess.get_file_as_string(RIVALS_FILE))
	var before := battle.write()
	var deck := PyBridgeDeckResource.new()
	deck.player = PackedStringArray(["strike", "strike"])
	deck.enemy = PackedStringArray(["barrage"])
	battle.deck = deck
	var dealt := battle.write()
	var ids := {}
	for i in 2:
		var had: Array = before["sides"][i]["piles"].get("draw", [])
		var draw: Array = dealt["sides"][i]["piles"]["draw"]
		var wanted := deck.list_of(str(dealt["sides"][i]["team"]))
		check_eq(draw.size(), had.size() + wanted.size(), "side %d's draw pile grows" % i)
		check_eq(draw.slice(0, had.size()), had, "its own cards stay on top")
		for k in wanted.size():
			check_eq(draw[had.size() + k]["card"], wanted[k], "dealt in the list's order")
		for pile: Array in dealt["sides"][i]["piles"].values():
			for instance: Dictionary in pile:
				check(not ids.has(instance["id"]), "instance id %s unique" % instance["id"])
				ids[instance["id"]] = true
	check_eq(battle.write(), dealt, "writing twice deals the same")
	check(not before.has("deck"), "the deck is no key of the document")


func test_the_battle_view_opens_a_battle_resource_with_its_library() -> void:
	var document := demo_battle()
	var library := PyBridgeLibraryResource.new()
	library.format = "pybridge/cards@1"
	var battle := PyBridgeBattleResource.new().read(document) as PyBridgeBattleResource
	library.cards = battle.cards.duplicate()
	battle.cards.clear()
	var view := battle_view(web_client())
	view.bridge.push_errors = false
	check(not await view.open_battle_resource(battle), "its piles name cards only the library has")
	check(await view.open_battle_resource(battle, [library]), "opened with its library")
	check_eq(view.state["units"].size(), document["units"].size(), "its units")
	var hand: Array = document["piles"]["hand"].map(func(c: Dictionary) -> String: return c["id"])
	var slots := view.hand_slots.map(func(slot: HandSlot) -> String: return slot.card_id)
	check_eq(slots, hand, "its hand")
	var deck := PyBridgeDeckResource.new()
	deck.player = PackedStringArray([library.cards[0].id, library.cards[1].id])
	battle.deck = deck
	check(await view.open_battle_resource(battle, [library]), "opened with a deck")
	var draw: Array = view.state["piles"]["draw"]
	check_eq(draw.size(), document["piles"]["draw"].size() + 2, "the deck is in the draw pile")


func test_a_battle_saved_as_tres_opens_in_the_battle_view() -> void:
	var battle := PyBridgeBattleResource.from_json(FileAccess.get_file_as_string(DUEL_FILE))
	var path := "user://test_resources_duel.tres"
	check_eq(ResourceSaver.save(battle, path), OK, "saved")
	var loaded := ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	check(loaded is PyBridgeBattleResource, "loaded as a battle Resource")
	var view := battle_view(web_client())
	check(await view.open_battle_resource(loaded), "the loaded battle opens")
	check_eq(view.state.get("rules"), duel_battle().get("rules"), "under its rules")


func test_the_runtimes_lint_checks_a_resource_and_names_where_it_is_wrong() -> void:
	var battle := PyBridgeBattleResource.new().read(demo_battle()) as PyBridgeBattleResource
	var client := web_client()
	var clean := await ResourceLint.check(client, battle)
	var errors := clean.filter(func(d: Dictionary) -> bool: return d["severity"] == "error")
	check_eq(errors, [], "the demo battle has no error")
	var card: PyBridgeCardResource = battle.cards[0]
	check_eq(
		(await ResourceLint.check(client, card)).filter(
			func(d: Dictionary) -> bool: return d["severity"] == "error"
		),
		[],
		"its first card alone, in a library, neither"
	)
	card.behavior.nodes[0].type = "NoSuchNodeType"
	var found := await ResourceLint.check(client, card)
	check(found.size() >= 1, "a node of an unknown type is found")
	if found.size() >= 1:
		check(str(found[0]["code"]).begins_with("PB"), "a runtime code: %s" % found[0])
		check(str(found[0]["path"]).begins_with("cards[0].behavior.nodes[0]"), "its path")
		var line := ResourceLint.lines(found)[0]
		check(line.contains(str(found[0]["message"])), "the line carries the message")
