extends Control
## What every test suite extends: checks that record failures (GDScript has no exceptions)
## and helpers the suites share. The runner gives each test a fresh suite node in the tree,
## full-screen, so views added under it lay out and draw as in a game.

## The demo battle, mounted by tests/test_gdscript.py.
const BATTLE_FILE := "res://battle/demo_battle.json"
## The demo's duel under the strict law, mounted by tests/test_gdscript.py.
const DUEL_FILE := "res://battle/duel_battle.json"

## What went wrong in this test, one line each.
var failures: Array[String] = []
## How many checks ran.
var checks: int = 0


func _init() -> void:
	set_anchors_preset(Control.PRESET_FULL_RECT)
	size = Vector2(1280, 720)
	mouse_filter = Control.MOUSE_FILTER_IGNORE


## Records a failure with [param message] unless [param condition] holds.
func check(condition: bool, message: String) -> bool:
	checks += 1
	if not condition:
		failures.append(message)
	return condition


## Records a failure unless [param actual] equals [param expected].
func check_eq(actual: Variant, expected: Variant, message: String) -> bool:
	return check(
		typeof(actual) == typeof(expected) and actual == expected,
		"%s: expected %s, got %s" % [message, var_to_str(expected), var_to_str(actual)]
	)


## The demo battle document, as a Dictionary.
func demo_battle() -> Dictionary:
	return JSON.parse_string(FileAccess.get_file_as_string(BATTLE_FILE))


## The demo's duel (strict rules, enemy answers on the Cut), as a Dictionary.
func duel_battle() -> Dictionary:
	return JSON.parse_string(FileAccess.get_file_as_string(DUEL_FILE))


## A small battle of [param cards] (definitions, each in the hand once: [code]h1[/code],
## [code]h2[/code]...) for a Hero against [param enemies] (ids), under [param rules], with
## [param moves] and [param statuses] for the enemies.
func small_battle(
	cards: Array, enemies: Array, rules: String = "soft", moves: Array = [], statuses: Array = []
) -> Dictionary:
	var units := [{"id": "hero", "name": "Hero", "team": "player", "hp": 30, "max_hp": 30}]
	for id: String in enemies:
		var unit := {"id": id, "name": id.capitalize(), "team": "enemy", "hp": 20, "max_hp": 20}
		unit["moves"] = moves.map(func(move: Dictionary) -> String: return move["id"])
		units.append(unit)
	var hand := []
	for i in cards.size():
		hand.append({"id": "h%d" % (i + 1), "card": cards[i]["id"]})
	return {
		"format": "pybridge/battle@1",
		"seed": 3,
		"rules": rules,
		"active_player": "hero",
		"energy": 9,
		"max_energy": 9,
		"units": units,
		"cards": cards,
		"moves": moves,
		"statuses": statuses,
		"piles": {"hand": hand, "draw": [], "discard": []}
	}


## A card definition: [param target] mode, one [param node] as its Behavior, and
## [param extra] fields.
func card(id: String, target: String, node: Dictionary, extra: Dictionary = {}) -> Dictionary:
	var definition := {
		"id": id,
		"name": id.capitalize(),
		"type": "attack",
		"target": target,
		"behavior": {"start": node["id"], "nodes": [node]}
	}
	definition.merge(extra)
	return definition


## A client on the page's runtime (the web transport), in the tree.
func web_client() -> PyBridgeClient:
	var client := PyBridgeClient.new()
	client.push_errors = false
	add_child(client)
	return client


## Waits [param count] frames.
func frames(count: int = 1) -> void:
	for i in count:
		await get_tree().process_frame


## Switches the locale to the demo's German catalog (res://locale/de.po, mounted beside the
## tests); returns what puts the locale and the catalogs back as they were.
func use_german() -> Callable:
	var catalog := load("res://locale/de.po") as Translation
	var before := TranslationServer.get_locale()
	TranslationServer.add_translation(catalog)
	TranslationServer.set_locale("de")
	return func() -> void:
		TranslationServer.set_locale(before)
		TranslationServer.remove_translation(catalog)


## A battle view with its three areas laid out like the demo's, on [param client], in the
## tree; its battle is not opened yet.
func battle_view(client: PyBridgeClient) -> PyBridgeBattleView:
	var view := PyBridgeBattleView.new()
	view.bridge = client
	view.open_on_ready = false
	view.size = Vector2(1280, 668)
	view.position = Vector2(0, 52)
	var field := Control.new()
	field.size = Vector2(1000, 400)
	field.mouse_filter = Control.MOUSE_FILTER_IGNORE
	view.add_child(field)
	view.party_area = _area(field, Vector2(16, 36), Vector2(460, 340))
	view.enemy_area = _area(field, Vector2(524, 36), Vector2(460, 340))
	view.hand_area = _area(view, Vector2(12, 478), Vector2(1256, 190))
	view.play_area = field
	add_child(view)
	return view


## A battle view whose plays go on the Cut: [method battle_view] with a [PyBridgeCutView] on
## the right, short playback steps; its battle is not opened yet.
func cut_battle_view(client: PyBridgeClient) -> PyBridgeBattleView:
	var cut := PyBridgeCutView.new()
	cut.position = Vector2(1000, 60)
	cut.size = Vector2(270, 400)
	add_child(cut)
	var view := PyBridgeBattleView.new()
	view.bridge = client
	view.open_on_ready = false
	view.cut_view = cut
	view.step_seconds = 0.05
	view.cut_step_seconds = 0.05
	view.size = Vector2(1000, 668)
	view.position = Vector2(0, 52)
	var field := Control.new()
	field.size = Vector2(1000, 460)
	field.mouse_filter = Control.MOUSE_FILTER_IGNORE
	view.add_child(field)
	view.party_area = _area(field, Vector2(16, 240), Vector2(960, 220))
	view.enemy_area = _area(field, Vector2(16, 10), Vector2(960, 220))
	view.hand_area = _area(view, Vector2(12, 478), Vector2(976, 190))
	view.play_area = field
	add_child(view)
	return view


## The point of [param id] in [param view]'s layout ([code]"units"[/code] or
## [code]"cards"[/code]).
func point_of(view: PyBridgeBattleView, kind: String, id: String) -> Vector2:
	var at: Array = view.layout_points()[kind][id]
	return Vector2(at[0], at[1])


func _area(parent: Control, at: Vector2, area_size: Vector2) -> Control:
	var area := Control.new()
	area.position = at
	area.size = area_size
	area.mouse_filter = Control.MOUSE_FILTER_IGNORE
	parent.add_child(area)
	return area
