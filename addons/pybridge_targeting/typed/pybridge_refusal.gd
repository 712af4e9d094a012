@tool
extends RefCounted
## Why a request was refused, typed: the runtime's error answer (docs/protocol.md, "Error
## codes"). Read it by its [member code]; show [method said] to a player, [member message] to a
## developer. Nothing changed in the battle. The client keeps the last one
## ([member PyBridgeClient.last_refusal]); the battle view hands one out with
## [signal PyBridgeBattleView.play_refused] and [signal PyBridgeBattleView.request_denied].
##
## A card the view finds unplayable before it asks (its [code]targets[/code] answer says so)
## is refused with that answer's refusal code and reason; one the [code]cut[/code] answer
## forbids (its [code]activate_reason[/code], [code]end_turn_reason[/code]) with an empty code
## and [member where] [code]cut[/code].

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["refusal"]
## The class of each property that holds one typed object, for the reader
## ([code]transport/pybridge_shapes.gd[/code]): Godot's property list names only [RefCounted]
## for a class without a global name.
const CLASSES := {
	"choice": preload("res://addons/pybridge_targeting/typed/pybridge_asked_choice.gd"),
}
const Shapes := preload("res://addons/pybridge_targeting/transport/pybridge_shapes.gd")
const Sentences := preload("res://addons/pybridge_targeting/pybridge_sentences.gd")

## A stable snake_case word: what to branch on. The error's ([code]not_a_candidate[/code],
## [code]not_enough_energy[/code], [code]cut[/code]...), or for a card refused before it was
## asked its [code]targets[/code] answer's refusal code ([code]energy[/code]...).
var code: String = ""
## For the developer, in English: it quotes the request's ids.
var message: String = ""
## The request's field it names ([code]target[/code], [code]card[/code],
## [code]battle.units[2].hp[/code]); [code]""[/code] for none.
var where: String = ""
## The words a player reads, when a player can meet it ([code]""[/code]: a developer's
## mistake, there is nothing a player should read).
var reason: String = ""
## [member reason] as a sentence ([code]{"id", "params"}[/code]: its parameters name the units
## and cards by id); empty with no reason.
var reason_message: Dictionary = {}
## The choice to make first ([code]choice_needed[/code] only; else null).
var choice: PyBridge.AskedChoice = null
## Where an extension's code failed ([code]internal_error[/code] in an extension only).
var extension_traceback: String = ""


## The error [param data] (an error answer's [code]error[/code], or
## [member PyBridgeClient.last_error]) typed; null for an empty one (no refusal).
static func from(data: Dictionary) -> PyBridge.Refusal:
	if data.is_empty():
		return null
	var refusal := PyBridge.Refusal.new()
	Shapes.fill(refusal, data)
	return refusal


## The refusal of a card its [code]targets[/code] answer [param answer] calls unplayable (its
## [code]refusal[/code]: code, text and sentence); null when it is playable.
static func of_targets(answer: Dictionary) -> PyBridge.Refusal:
	var why: Variant = answer.get("refusal")
	if answer.get("playable", true) or not why is Dictionary:
		return null
	var text := str(why.get("text", ""))
	return from(
		{
			"code": why.get("code", ""),
			"message": text,
			"where": "card",
			"reason": text,
			"reason_message": why.get("message"),
		}
	)


## Why the [code]cut[/code] answer [param cut] says [param action] ([code]activate[/code]
## or [code]end_turn[/code]) cannot be done now (its [code]<action>_reason[/code]); null when
## it gives no reason.
static func of_cut(cut: Dictionary, action: String) -> PyBridge.Refusal:
	if cut.get(action + "_reason") == null:
		return null
	var text := str(cut[action + "_reason"])
	return from(
		{
			"code": "",
			"message": text,
			"where": "cut",
			"reason": text,
			"reason_message": cut.get(action + "_reason_message"),
		}
	)


## Why, in the current locale: [member reason] said, or [member message] when a player could
## not meet it ([param fallback] when it has neither).
func said(fallback: String = "") -> String:
	if not reason.is_empty():
		return Sentences.say(reason_message if not reason_message.is_empty() else null, reason)
	return message if not message.is_empty() else fallback
