extends "res://suite.gd"
## Art: a res:// path of the data loads as a texture (a raw image packed without import too),
## a missing one gives null once, and what the game hands over wins.

const BattleData := preload("res://addons/pybridge_targeting/battle/pybridge_battle_data.gd")
const Art := preload("res://addons/pybridge_targeting/drawing/pybridge_art.gd")
const ART := "res://fixtures/portrait.png"


func test_a_packed_image_loads_as_a_texture() -> void:
	var texture := Art.texture(ART)
	check(texture != null, "the fixture image loads")
	if texture != null:
		check_eq(texture.get_size(), Vector2(16, 16), "its size")
	check(Art.texture(ART) == texture, "and is kept for the next ask")


func test_missing_or_foreign_paths_give_null() -> void:
	check(Art.texture("") == null, "no path")
	check(Art.texture("res://fixtures/none.png") == null, "a missing file")
	check(Art.texture("user://portrait.png") == null, "a path outside the game")
	check(Art.texture("res://runner.gd") == null, "a script is not art")


func test_the_games_art_wins_over_the_data() -> void:
	var given := ImageTexture.create_from_image(Image.create(4, 4, false, Image.FORMAT_RGBA8))
	check(Art.pick(given, ART) == given, "the game's texture")
	check(Art.pick(null, ART) == Art.texture(ART), "else the data's")
	check(Art.pick(null, null) == null, "else none")


func test_views_draw_the_art_they_are_given() -> void:
	var data := BattleData.new(
		{"units": [{"id": "knight", "name": "Knight", "hp": 5, "max_hp": 9, "art": ART}]},
		{},
		func(kind: String, id: String, _data: Dictionary) -> Variant:
			return null if kind == "unit" or id != "strike" else Art.texture(ART)
	)
	var shown := data.unit_data(
		{"id": "knight", "name": "Knight", "hp": 5, "max_hp": 9, "art": ART}
	)
	check(shown["art"] == Art.texture(ART), "a unit's art from its path")
	var card := data.card_data({"id": "h1", "card": "strike"}, {})
	check(card["art"] == Art.texture(ART), "a card's art from the game's hook")
