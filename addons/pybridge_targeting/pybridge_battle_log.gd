@tool
@icon("res://addons/pybridge_targeting/icons/pybridge_battle_view.svg")
class_name PyBridgeBattleLog
extends RichTextLabel
## A battle log: shows the lines the runtime's narrator writes ([code]log[/code] in every
## change's answer: [code]{"text", "kind", "indent", "message"}[/code]), coloured by their
## kind, in the current locale (its lines are said again when the locale changes).
##
## The words are the runtime's; this only draws them. A game adds its own lines (a hint, an
## error) with [method add_line], in any of the kinds or its own.

const Sentences := preload("res://addons/pybridge_targeting/pybridge_sentences.gd")

## Colour of each kind of line (the protocol's [code]log_kinds[/code], and [code]error[/code]);
## a kind missing here gets [member default_color].
@export var kind_colors: Dictionary = {
	"play": Color("ffe08a"),
	"damage": Color("ff9c8a"),
	"heal": Color("8af0a8"),
	"buff": Color("b9c8ff"),
	"death": Color("ff6b6b"),
	"enemy": Color("ffb07a"),
	"turn": Color("9fd8ff"),
	"result": Color("ffd54a"),
	"cut": Color("f0c8ff"),
	"fail": Color("ff8fb0"),
	"info": Color("b8b3c9"),
	"error": Color("ff6b8a"),
}
## The colour of a kind [member kind_colors] does not name.
@export var default_color: Color = Color("e6e1f0")

# The lines as given, so a change of locale says them again.
var _told: Array[Dictionary] = []


func _init() -> void:
	bbcode_enabled = true
	scroll_following = true
	focus_mode = Control.FOCUS_NONE


## Adds the runtime's log [param lines] (each a [PyBridge.LogLine], or the runtime's
## [code]{"text", "kind", "indent", "message"}[/code]), each said in the current locale by its
## message (its English without one).
func add_lines(lines: Array) -> void:
	for line: Variant in lines:
		if line is Dictionary:
			_add(line)
		elif line is PyBridge.LogLine:
			var told := {"text": line.text, "kind": line.kind, "indent": line.indent}
			_add(told.merged({"message": line.message} if not line.message.is_empty() else {}))


## Adds one line of [param kind], indented when [param indent] is above zero. The text is
## shown as written (no BBCode in it is interpreted).
func add_line(text: String, kind: String, indent: int = 0) -> void:
	_add({"text": text, "kind": kind, "indent": indent})


func _notification(what: int) -> void:
	# A new locale: every line is said again in it, from the lines as the runtime gave them.
	if what == NOTIFICATION_TRANSLATION_CHANGED and not _told.is_empty():
		var told := _told
		_told = []
		clear()
		for line: Dictionary in told:
			_add(line)


func _add(given: Dictionary) -> void:
	if get_total_character_count() == 0:
		_told.clear()  # cleared since (clear() is the label's own): those lines are gone
	_told.append(given)
	var text := Sentences.say(given.get("message"), str(given.get("text", "")))
	_show(text, str(given.get("kind", "info")), int(given.get("indent", 0)))


func _show(text: String, kind: String, indent: int) -> void:
	var color: Color = kind_colors.get(kind, default_color)
	var line := "[color=#%s]%s[/color]" % [color.to_html(false), text.replace("[", "[lb]")]
	if indent > 0:
		line = "[indent]%s[/indent]" % line
	append_text(line + "\n")
