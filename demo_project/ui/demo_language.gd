class_name DemoLanguage
extends Button
## The demo's language switch, English or German (the catalogs project.godot names), at run
## time: the button names the other language in its own words. A battle view it is given
## shows its state again in the new language (the runtime's sentences are said anew; the
## log says its lines again by itself). Prints [code]PYBRIDGE language {"locale", "point"}[/code].

## The languages it switches between, each named in its own words.
const LANGUAGES := {"en": "English", "de": "Deutsch"}

## The battle view to show again after a switch (none on the start screen).
@export var battle_view: PyBridgeBattleView = null


func _ready() -> void:
	focus_mode = Control.FOCUS_NONE
	auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED  # a language's own name
	pressed.connect(_switch)
	_name_other()
	await get_tree().process_frame
	_say()


## The language shown now ([code]en[/code] or [code]de[/code]).
static func current() -> String:
	var language := TranslationServer.get_locale().get_slice("_", 0)
	return language if LANGUAGES.has(language) else "en"


func _switch() -> void:
	TranslationServer.set_locale("en" if current() == "de" else "de")
	_name_other()
	if battle_view != null and battle_view.battle_state != null:
		await battle_view.apply_state(battle_view.state)  # the same state, said anew
	_say()


func _name_other() -> void:
	text = LANGUAGES["en" if current() == "de" else "de"]


func _say() -> void:
	DemoLines.say("language", {"locale": current(), "point": DemoLines.center_of(self)})
