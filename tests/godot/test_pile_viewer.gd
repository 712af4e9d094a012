extends "res://suite.gd"
## The pile viewer ([method PyBridgeBattleView.show_pile]) on the page's runtime: a card with
## no text of its own shows the runtime's sentence for it in the player's language, a
## face-down card shows as a card back, a long text is shown whole, and a hidden battle view
## shows no pile.

const Sentences := preload("res://addons/pybridge_targeting/pybridge_sentences.gd")


## The demo battle with Strike and Defend left without a text of their own, opened.
func untexted_view() -> PyBridgeBattleView:
	var battle := demo_battle()
	for definition: Dictionary in battle["cards"]:
		if definition["id"] in ["strike", "defend"]:
			definition.erase("text")
	var view := battle_view(web_client())
	check(await view.open_battle(battle), "the demo battle opens")
	return view


func test_a_card_without_text_shows_the_runtimes_sentence_in_german() -> void:
	var restore := use_german()
	var view := await untexted_view()
	check(await view.show_pile("hand"), "the hand's viewer opens")
	var answer := view.pile_viewer.answer
	var strike: Dictionary = {}
	for entry: Dictionary in answer.get("cards", []):
		if entry.get("card") == "strike":
			strike = entry
	check_eq(strike.get("text"), "", "Strike has no text of its own")
	check(strike.get("text_message") is Dictionary, "the answer carries its sentence")
	var shown: Array = view.pile_viewer.shown()["cards"]
	var texts := {}
	for card: Dictionary in shown:
		texts[card["card"]] = card["text"]
	var german := Sentences.say(strike.get("text_message"), "")
	check_eq(texts.get("strike"), german, "the viewer says the runtime's sentence")
	check(german.contains("Schaden") and not german.contains("damage"), "in German: " + german)
	check(not str(texts.get("defend", "")).is_empty(), "Defend's sentence too")
	check_eq(view.pile_viewer.shown()["title"], "Hand – Karten: 12", "the title in German")
	view.pile_viewer.close()
	restore.call()


func test_a_face_down_card_shows_as_a_card_back() -> void:
	var view := await untexted_view()
	view.pile_viewer.show_answer(
		{
			"pile": "discard",
			"side": "player",
			"count": 2,
			"seen": true,
			"ordered": true,
			"cards": [{"id": "k1", "face_down": true}, {"id": "k2", "card": "mend", "text": ""}],
			"title": "Cards in the discard pile: 2",
			"note": "Top card first."
		}
	)
	await frames(2)
	var shown: Array = view.pile_viewer.shown()["cards"]
	check_eq(shown.map(func(c: Dictionary) -> bool: return c["face_down"]), [true, false], "backs")
	check_eq(shown[0]["size"], shown[1]["size"], "the back is a card's size")
	check_eq(shown[0]["card"], "", "a back names no card")
	check_eq(shown[0]["text"], "", "and says nothing of it")
	view.pile_viewer.close()


func test_a_long_text_is_shown_whole() -> void:
	var restore := use_german()
	var view := await untexted_view()
	check(await view.show_pile("hand"), "the hand's viewer opens")
	await frames(2)
	var probe := view.new_card_view()
	var base: float = (probe.call(&"card_size") as Vector2).y
	probe.free()
	var grown := 0
	for slot: Control in view.pile_viewer.find_children("*", "Control", true, false):
		if not slot.has_method(&"raised_height"):
			continue
		var needed := float(slot.call(&"raised_height"))
		check(slot.size.y >= needed, "%s shows its whole text" % slot.get("card").get("name"))
		check(slot.get_parent().size.y >= roundf(needed * slot.scale.y) - 1.0, "in its place")
		if needed > base:
			grown += 1
	check(grown > 0, "a German card with a long text (Auferstehung) grows to show it")
	view.pile_viewer.close()
	restore.call()


func test_a_hidden_battle_view_shows_no_pile() -> void:
	var view := await untexted_view()
	check(await view.show_pile("hand"), "opens while the view shows")
	view.hide()  # a hot-seat game's cover
	check(not view.pile_viewer.visible, "hiding the view closes it")
	check(not await view.show_pile("hand"), "a hidden view opens none")
	check(not view.pile_viewer.visible, "still closed")
	view.show()
