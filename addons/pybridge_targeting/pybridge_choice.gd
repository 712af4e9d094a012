@tool
extends RefCounted
## A choice made one unit or card at a time, as the runtime's [code]pick[/code] answers it:
## the targets of a card of the hand (several, or "up to" some), or the late choice of a card
## that chooses as it resolves (a Cut entry's, or an immediate play's).
##
## After every pick [method refresh] asks the runtime what may be picked next, so which
## units or cards are candidates, that none is chosen twice, how many the play needs and
## whether it can be confirmed early are the runtime's answers, never this script's. Its
## properties mirror the runtime's [code]pick[/code] answer ([code]schema[/code]'s shapes).

## The runtime's shapes this class mirrors (docs/protocol.md, [code]schema[/code]'s shapes).
const SHAPES := ["pick"]
## The class of each property that holds one typed object, for the reader
## ([code]transport/pybridge_shapes.gd[/code]): Godot's property list names only [RefCounted]
## for a class without a global name.
const CLASSES := {
	"asked_choice": preload("res://addons/pybridge_targeting/typed/pybridge_asked_choice.gd"),
	"refusal": preload("res://addons/pybridge_targeting/typed/pybridge_refusal.gd"),
}
## Fields of that shape held under another name.
const RENAMED := {"card": "card_id", "entry": "entry_id"}
## Fields of that shape it leaves out, with why.
const LEFT_OUT := {
	"key": "an asked choice's: asked_choice.key",
	"kind": "an asked choice's: asked_choice.kind",
	"ordered": "an asked choice's: asked_choice.ordered",
}
## Its properties that are no field of that shape, with what they hold.
const OWN := {
	"late": "whether it is made as the effect resolves",
	"zones": "where the cards of a choice of cards come from",
	"refused": "the runtime's error for a refused pick",
	"refusal": "the same, typed",
	"asked": "the choice_needed error's choice, as JSON (deprecated for reading)",
	"asked_choice": "the same, typed",
}
const Sentences := preload("res://addons/pybridge_targeting/pybridge_sentences.gd")

## The card of the hand that chooses ([code]""[/code] for a Cut entry's late choice).
var card_id: String = ""
## The Cut entry that chooses as it resolves ([code]""[/code] for a card of the hand).
var entry_id: String = ""
## What is chosen: [code]"units"[/code] or [code]"cards"[/code].
var chooses: String = "units"
## Whether the choice is made as the effect resolves (a card that chooses on resolve).
var late: bool = false
## Where the cards of a choice of cards come from ([code]late_choice.zones[/code]).
var zones: PackedStringArray = PackedStringArray()
## What is chosen so far, in order.
var chosen: PackedStringArray = PackedStringArray()
## What may be picked next (empty once the choice is full).
var candidates: PackedStringArray = PackedStringArray()
## The fewest the play takes.
var needed: int = 1
## The most the play takes.
var count: int = 1
## Whether enough are chosen to confirm (an "up to" card can be confirmed early).
var can_confirm: bool = false
## Whether as many as the play takes are chosen.
var complete: bool = false
## The runtime's error when it refused the last pick ([code]{}[/code] otherwise).
## Deprecated: use [member refusal], which is typed.
var refused: Dictionary = {}
## Why the runtime refused the last pick (null otherwise).
var refusal: PyBridge.Refusal = null
## The choice an action asks as it resolves, as the runtime's [code]choice_needed[/code]
## error gives it ([code]{}[/code] for a card's targets or a late choice): its JSON, sent
## back with each [code]pick[/code]. Deprecated for reading: [member asked_choice] is the
## same choice, typed.
var asked: Dictionary = {}
## The choice an action asks as it resolves, typed (null for a card's targets or a late
## choice): its prompt, options, how many, the Cut entry or card that asks it.
var asked_choice: PyBridge.AskedChoice = null


## The choice of targets of [param card_id] as its [code]targets[/code] answer [param info]
## gives it before any pick: its candidates and how many it takes. A card that chooses as it
## resolves starts from its [code]late_choice[/code].
static func for_card(card: String, info: Dictionary) -> PyBridge.Choice:
	var choice := PyBridge.Choice.new()
	choice.card_id = card
	choice.count = maxi(1, int(info.get("count", 1)))
	var late_choice: Variant = info.get("late_choice")
	if late_choice is Dictionary:
		choice._late_from(late_choice)
	else:
		choice.candidates = PackedStringArray(info.get("candidates", []))
	return choice


## The late choice of the Cut entry [param entry] as the [code]cut[/code] answer's
## [param late_choice] describes it (the runtime's [code]pick[/code] gives the rest).
static func for_entry(entry: String, late_choice: Dictionary) -> PyBridge.Choice:
	var choice := PyBridge.Choice.new()
	choice.entry_id = entry
	choice._late_from(late_choice)
	return choice


## The choice an action asks while it resolves: [param error] is the runtime's
## [code]choice_needed[/code] error, whose [code]choice[/code] says what is asked (the
## options, how many, the prompt); the runtime's [code]pick[/code] gives the rest.
static func for_asked(error: Dictionary) -> PyBridge.Choice:
	var choice := PyBridge.Choice.new()
	choice.asked = error.get("choice", {})
	choice.asked_choice = PyBridge.AskedChoice.from(choice.asked)
	choice.card_id = choice.asked_choice.card
	choice.entry_id = choice.asked_choice.entry
	choice.chooses = choice.asked_choice.chooses if not choice.asked.is_empty() else "cards"
	choice.zones = choice.asked_choice.zones
	choice.late = true
	return choice


## The request fields that name who chooses: [code]{"card"}[/code], [code]{"entry"}[/code]
## or, for a choice an action asks, [code]{"choice"}[/code].
func chooser() -> Dictionary:
	if not asked.is_empty():
		return {"choice": asked}
	return {"entry": entry_id} if not entry_id.is_empty() else {"card": card_id}


## Where the answer goes in a request's [code]choices[/code]: the asked choice's key, else
## the Cut entry's id.
func answer_key() -> String:
	return asked_choice.key if asked_choice != null else entry_id


## The options an asked choice lists, in the runtime's order (empty for other choices).
func options() -> PackedStringArray:
	return asked_choice.options if asked_choice != null else PackedStringArray()


## The id of who chooses: the card or the Cut entry.
func source_id() -> String:
	return entry_id if not entry_id.is_empty() else card_id


## Asks the runtime what may be picked after [member chosen] (a coroutine); false, with
## [member refused] set, when it refused the choice (nothing then changes here).
func refresh(bridge: PyBridgeClient) -> bool:
	var fields := chooser()
	fields["session"] = bridge.session
	fields["chosen"] = Array(chosen)
	var answer: Dictionary = await bridge.ask(
		"pick", fields, PackedStringArray(["not_a_candidate"])
	)
	if answer.is_empty():
		refused = bridge.last_error.duplicate()
		refusal = PyBridge.Refusal.from(refused)
		return false
	refused = {}
	refusal = null
	apply(answer)
	return true


## Takes the runtime's [code]pick[/code] [param answer].
func apply(answer: Dictionary) -> void:
	chooses = str(answer.get("chooses", chooses))
	chosen = PackedStringArray(answer.get("chosen", chosen))
	candidates = PackedStringArray(answer.get("candidates", []))
	needed = int(answer.get("needed", needed))
	count = int(answer.get("count", count))
	can_confirm = bool(answer.get("can_confirm", false))
	complete = bool(answer.get("complete", false))


## Picks [param id] and asks what may be picked next (a coroutine); false when [param id] is
## not a candidate now or the runtime refused it.
func add(bridge: PyBridgeClient, id: String) -> bool:
	if not id in candidates:
		return false
	chosen.append(id)
	if await refresh(bridge):
		return true
	chosen.remove_at(chosen.size() - 1)
	return false


## Takes [param id] out of the choice (or, with [code]""[/code], the last pick) and asks
## again (a coroutine); false when nothing was taken out (a refused request puts the pick
## back, so the choice stays what the runtime last accepted).
func remove(bridge: PyBridgeClient, id: String = "") -> bool:
	var at := chosen.size() - 1 if id.is_empty() else chosen.find(id)
	if at < 0:
		return false
	var taken := chosen[at]
	chosen.remove_at(at)
	if await refresh(bridge):
		return true
	chosen.insert(at, taken)
	return false


## The line a prompt shows for this choice of [param title] (the card's name): how many to
## choose, as the runtime's [member needed] and [member count] say, and how many are chosen.
func prompt_text(title: String) -> String:
	if asked_choice != null:
		var said := asked_choice.prompt_text()
		return tr("%s: %s (%d chosen)") % [title, said, chosen.size()]
	var wanted := str(count)
	if needed < count:
		wanted = tr("%d to %d") % [needed, count]
	return tr("%s: choose %s (%d chosen)") % [title, wanted, chosen.size()]


## The place of [param id] in the choice, from 1 (0 when it is not chosen).
func number_of(id: String) -> int:
	return chosen.find(id) + 1


## What the choice is as a play's [code]target[/code] or a [code]choices[/code] answer.
func answer() -> Array:
	return Array(chosen)


func _late_from(late_choice: Dictionary) -> void:
	late = true
	chooses = str(late_choice.get("chooses", "units"))
	zones = PackedStringArray(late_choice.get("zones", []))
	candidates = PackedStringArray(late_choice.get("candidates", []))
