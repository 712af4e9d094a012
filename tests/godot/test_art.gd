extends "res://suite.gd"
## Art: a res:// path of the data loads as a texture (a raw image packed without import too),
## a missing one gives null once, and what the game hands over wins.

const ART := "res://fixtures/portrait.png"


func test_a_packed_image_loads_as_a_texture() -> void:
	var texture := PyBridgeArt.texture(ART)
	check(texture != null, "the fixture image loads")
	if texture != null:
		check_eq(texture.get_size(), Vector2(16, 16), "its size")
	check(PyBridgeArt.texture(ART) == texture, "and is kept for the next ask")


func test_missing_or_foreign_paths_give_null() -> void:
	check(PyBridgeArt.texture("") == null, "no path")
	check(PyBridgeArt.texture("res://fixtures/none.png") == null, "a missing file")
	check(PyBridgeArt.texture("user://portrait.png") == null, "a path outside the game")
	check(PyBridgeArt.texture("res://runner.gd") == null, "a script is not art")


func test_the_games_art_wins_over_the_data() -> void:
	var given := ImageTexture.create_from_image(Image.create(4, 4, false, Image.FORMAT_RGBA8))
	check(PyBridgeArt.pick(given, ART) == given, "the game's texture")
	check(PyBridgeArt.pick(null, ART) == PyBridgeArt.texture(ART), "else the data's")
	check(PyBridgeArt.pick(null, null) == null, "else none")


func test_views_draw_the_art_they_are_given() -> void:
	var data := PyBridgeBattleData.new(
		{"units": [{"id": "knight", "name": "Knight", "hp": 5, "max_hp": 9, "art": ART}]},
		{},
		func(kind: String, id: String, _data: Dictionary) -> Variant:
			return null if kind == "unit" or id != "strike" else PyBridgeArt.texture(ART)
	)
	var shown := data.unit_data(
		{"id": "knight", "name": "Knight", "hp": 5, "max_hp": 9, "art": ART}
	)
	check(shown["art"] == PyBridgeArt.texture(ART), "a unit's art from its path")
	var card := data.card_data({"id": "h1", "card": "strike"}, {})
	check(card["art"] == PyBridgeArt.texture(ART), "a card's art from the game's hook")
