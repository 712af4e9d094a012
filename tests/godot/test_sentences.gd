extends "res://suite.gd"
## The addon's translator (addons/pybridge_targeting/pybridge_sentences.gd) on a small
## Translation made here: whole sentences by their message id, plural forms, a gender variant
## by a name's gender, a list within a sentence said innermost first, a capital first where
## the table marks a sentence so, and the English where the locale has no entry (never an id
## or a placeholder). The demo's German catalog loads from its .po file in this (exported,
## web) runtime too.

const Sentences := preload("res://addons/pybridge_targeting/pybridge_sentences.gd")
## The demo's German catalog, mounted beside the tests.
const GERMAN := "res://locale/de.po"

const TABLE := [
	{
		"id": "t.damage",
		"english": "{unit} takes {taken} damage.",
		"params": {"unit": "unit", "taken": "number"}
	},
	{
		"id": "t.draw",
		"english": "You draw {count} card.",
		"params": {"count": "number"},
		"plural": "count",
		"english_plural": "You draw {count} cards."
	},
	{
		"id": "t.hits",
		"english": "{card} hits {units}.",
		"params": {"card": "card", "units": "units"}
	},
	{
		"id": "list.two",
		"english": "{first} and {last}",
		"params": {"first": "name", "last": "name"}
	},
	{"id": "t.waits", "english": "{unit} waits.", "params": {"unit": "unit"}},
	{"id": "t.sentence", "english": "{clause}.", "params": {"clause": "message"}, "capital": true},
	{"id": "t.deal", "english": "deal {amount} damage", "params": {"amount": "number"}},
]

var before: String = ""
var made: Translation = null


func german() -> void:
	before = TranslationServer.get_locale()
	made = Translation.new()
	made.locale = "xx"
	made.plural_rules_override = "nplurals=2; plural=(n != 1);"
	made.add_message("Cultist", "Kultist", "unit.name")
	made.add_message("Cultist", "m", "unit.name#gender")
	made.add_message("Spider", "Spinne", "unit.name")
	made.add_message("Spider", "f", "unit.name#gender")
	made.add_message("Zap", "Blitz", "card.zap.name")
	var damage := "{unit} takes {taken} damage."
	made.add_message(damage, "{unit} erleidet {taken} Schaden.", "t.damage")
	made.add_message(damage, "Der {unit} erleidet {taken} Schaden.", "t.damage|unit=m")
	made.add_message(damage, "Die {unit} erleidet {taken} Schaden.", "t.damage|unit=f")
	made.add_plural_message(
		"You draw {count} card.",
		PackedStringArray(["Du ziehst {count} Karte.", "Du ziehst {count} Karten."]),
		"t.draw"
	)
	made.add_message("{card} hits {units}.", "{card} trifft {units}.", "t.hits")
	made.add_message("{first} and {last}", "{first} und {last}", "list.two")
	made.add_message("deal {amount} damage", "füge {amount} Schaden zu", "t.deal")
	TranslationServer.add_translation(made)
	TranslationServer.set_locale("xx")
	Sentences.use(TABLE)


func back() -> void:
	TranslationServer.set_locale(before)
	TranslationServer.remove_translation(made)


func unit(id: String, name: String) -> Dictionary:
	return {"unit": id, "name": name}


func said(id: String, params: Dictionary) -> Dictionary:
	return {"id": id, "params": params}


func test_a_sentence_agrees_with_its_names_gender() -> void:
	german()
	var cultist := said("t.damage", {"unit": unit("cultist", "Cultist"), "taken": 6})
	var spider := said("t.damage", {"unit": unit("spider", "Spider"), "taken": 2})
	var hero := said("t.damage", {"unit": unit("hero", "Hero"), "taken": 1})
	check_eq(
		Sentences.say(cultist, "Cultist takes 6 damage."), "Der Kultist erleidet 6 Schaden.", "m"
	)
	check_eq(Sentences.say(spider, "Spider takes 2 damage."), "Die Spinne erleidet 2 Schaden.", "f")
	check_eq(
		Sentences.say(hero, "Hero takes 1 damage."),
		"Hero erleidet 1 Schaden.",
		"a name without a gender takes the plain sentence, its name as it is"
	)
	back()
	check_eq(
		Sentences.say(cultist, "Cultist takes 6 damage."),
		"Cultist takes 6 damage.",
		"in English again once the locale is back"
	)


func test_the_count_chooses_the_plural_form() -> void:
	german()
	check_eq(Sentences.say(said("t.draw", {"count": 1}), "x"), "Du ziehst 1 Karte.", "one")
	check_eq(Sentences.say(said("t.draw", {"count": 3}), "x"), "Du ziehst 3 Karten.", "three")
	check_eq(Sentences.say(said("t.draw", {"count": 0}), "x"), "Du ziehst 0 Karten.", "none")
	back()
	check_eq(Sentences.say(said("t.draw", {"count": 3}), "x"), "You draw 3 cards.", "English's")


func test_a_list_within_a_sentence_is_said_first() -> void:
	german()
	var units := said(
		"list.two", {"first": unit("cultist", "Cultist"), "last": unit("spider", "Spider")}
	)
	var zap := {"card": "h1", "def": "zap", "name": "Zap"}
	check_eq(
		Sentences.say(
			said("t.hits", {"card": zap, "units": units}), "Zap hits Cultist and Spider."
		),
		"Blitz trifft Kultist und Spinne.",
		"the list and the names in it translated, then the sentence"
	)
	back()


func test_a_sentence_of_a_paragraph_starts_with_a_capital() -> void:
	german()
	var deal := said("t.deal", {"amount": 6})
	var sentence := said("t.sentence", {"clause": deal})
	check_eq(
		Sentences.say(sentence, "Deal 6 damage."),
		"Füge 6 Schaden zu.",
		"the row marked capital: its first letter, whatever filled it"
	)
	check_eq(Sentences.say(deal, "deal 6 damage"), "füge 6 Schaden zu", "a clause stays as it is")
	back()
	check_eq(
		Sentences.say(sentence, "x"), "Deal 6 damage.", "in English too, from the English template"
	)


func test_a_sentence_the_locale_lacks_stays_english() -> void:
	german()
	var waits := said("t.waits", {"unit": unit("cultist", "Cultist")})
	check_eq(Sentences.say(waits, "Cultist waits."), "Cultist waits.", "the English sent")
	var unknown := said("t.unknown", {"unit": unit("cultist", "Cultist")})
	check_eq(Sentences.say(unknown, "Cultist is unknown."), "Cultist is unknown.", "no table row")
	var short := said("t.damage", {"unit": unit("cultist", "Cultist")})
	check_eq(
		Sentences.say(short, "Cultist takes ? damage."),
		"Cultist takes ? damage.",
		"a placeholder without its parameter: the English, never {taken}"
	)
	check_eq(Sentences.say(null, "plain"), "plain", "no message: the text as given")
	back()


func test_the_demo_catalog_loads_from_its_po_file() -> void:
	var catalog := load(GERMAN) as Translation
	if not check(catalog != null, "res://locale/de.po loads as a Translation"):
		return
	check_eq(catalog.locale, "de", "its locale")
	before = TranslationServer.get_locale()
	TranslationServer.add_translation(catalog)
	TranslationServer.set_locale("de")
	Sentences.use(
		[
			{
				"id": "log.damage",
				"english": "{unit} takes {taken} damage, {hp} HP left.",
				"params": {"unit": "unit", "taken": "number", "hp": "number"}
			}
		]
	)
	var line := said("log.damage", {"unit": unit("goblin", "Goblin"), "taken": 6, "hp": 12})
	check_eq(
		Sentences.say(line, "Goblin takes 6 damage, 12 HP left."),
		"Der Goblin erleidet 6 Schaden, noch 12 LP.",
		"the demo's German, by the gender its catalog gives the Goblin"
	)
	TranslationServer.set_locale(before)
	TranslationServer.remove_translation(catalog)


func test_a_refused_play_says_why_in_the_locale() -> void:
	var restore := use_german()
	var view := battle_view(web_client())
	var ok: bool = await view.open_battle(demo_battle())
	check(ok, "the demo battle opens")
	var refusals := []
	view.card_refused.connect(
		func(card: String, reason: String) -> void: refusals.append([card, reason])
	)
	check_eq(await view.play_card("h1", "knight"), false, "Strike at the Knight is refused")
	check_eq(
		refusals,
		[["h1", "der Ritter ist kein gültiges Ziel"]],
		"the refusal's sentence in German, by the Knight's gender in de.po"
	)
	check_eq(view.bridge.last_error.get("reason"), "Knight is not a valid target", "its English")
	await view.play_card("h2")  # Meteor Strike: 1 energy left
	refusals.clear()
	check_eq(await view.play_card("h12"), false, "Resurrect costs 2")
	check_eq(refusals, [["h12", "braucht 2 Energie, 1 übrig"]], "the energy refusal in German")
	restore.call()
