@tool
extends RefCounted
## The plays of a [PyBridgeBattleView] that go through the Cut, and the choices made as an
## effect resolves: a card is activated with its targets locked ([code]activate[/code]), the
## player passes ([code]pass[/code]: the enemies may answer, else the top entry resolves, its
## events played back step by step on the [PyBridgeCutView] and the TargetMarks),
## and an entry that chooses as it resolves asks the player first.
##
## Whether an entry needs a choice is the runtime's answer: the [code]cut[/code] answer names
## the entry that waits for one ([code]awaiting_choice[/code]), and a [code]pass[/code] that
## would resolve it is refused with [code]target_required[/code] (which changes nothing); the
## choice is then made with the runtime's candidates ([code]pick[/code] with
## [code]entry[/code]) and sent back in [code]choices[/code]. When nothing can be chosen any
## more the runtime does not ask: the entry fails (strict) or does nothing (soft), as its
## events and log say. The same choice, for a card played at once without the Cut, is the
## play's target.

## A card was refused (the view re-emits it as its [signal PyBridgeBattleView.card_refused]).
signal card_refused(card_id: String, reason: String)
## A card was refused, typed ([signal PyBridgeBattleView.play_refused]).
signal play_refused(card_id: String, refusal: PyBridge.Refusal)
## A card went onto the Cut ([signal PyBridgeBattleView.card_activated]).
signal card_activated(card_id: String, target_ids: PackedStringArray, result: Dictionary)
## A request was refused ([signal PyBridgeBattleView.request_refused]).
signal request_refused(op: String, reason: String)
## A request was refused, typed ([signal PyBridgeBattleView.request_denied]).
signal request_denied(op: String, refusal: PyBridge.Refusal)
## The player passed ([signal PyBridgeBattleView.passed]).
signal passed(result: Dictionary)
## A choice began or changed ([signal PyBridgeBattleView.choice_changed]).
signal choice_changed(choice: PyBridge.Choice)
## A choice ended ([signal PyBridgeBattleView.choice_ended]).
signal choice_ended(choice: PyBridge.Choice, confirmed: bool)
## The Cut's answer changed ([signal PyBridgeBattleView.cut_changed]).
signal cut_changed(cut: Dictionary)

const Sentences := preload("res://addons/pybridge_targeting/pybridge_sentences.gd")
const TypedTwins := preload("res://addons/pybridge_targeting/battle/pybridge_typed_twins.gd")

## The runtime's last [code]cut[/code] answer (empty before the first).
var cut: Dictionary = {}

var _view: PyBridgeBattleView = null


func _init(view: PyBridgeBattleView) -> void:
	_view = view


## Activates [param card_id] at [param target_ids] (its locked targets; none for a card
## without an arrow) onto the Cut (a coroutine); false when the runtime refused it.
func activate(card_id: String, target_ids: PackedStringArray) -> bool:
	var bridge := _view.bridge
	var fields := _view.request_fields({"card": card_id})
	if not target_ids.is_empty():
		fields["target"] = Array(target_ids)
	_view.busy_with(1)
	var result: Dictionary = await bridge.ask("activate", fields)
	if result.is_empty():
		_view.busy_with(-1)
		TypedTwins.card_error(self, card_id, bridge.last_error)
		return false
	_view.target_marks.clear_lost()
	await _view.settle_play(result, "activate")
	_view.busy_with(-1)
	card_activated.emit(card_id, target_ids, result)
	return true


## Whether [param card_id] can be played now: the runtime's [code]targets[/code] says it is
## playable and, with a Cut view, the runtime's [code]cut[/code] lets a card be activated.
func can_play(card_id: String) -> bool:
	return bool(_view.targets_of(card_id).get("playable", false)) and _cut_allows()


## Why [param card_id] cannot be played now, in the runtime's words ([code]""[/code] when it
## can): the Cut's [code]activate_reason[/code], else the card's own [code]reason[/code].
func why_not(card_id: String) -> String:
	if not _cut_allows():
		return Sentences.say(
			cut.get("activate_reason_message"), str(cut.get("activate_reason", ""))
		)
	if can_play(card_id):
		return ""
	var targets: Dictionary = _view.targets_of(card_id)
	var reason: Variant = targets.get("reason")
	if reason == null:
		return tr("it cannot be played now")
	return Sentences.say(targets.get("reason_message"), str(reason))


## [method why_not], typed: null when [param card_id] can be played now.
func refusal_of(card_id: String) -> PyBridge.Refusal:
	if not _cut_allows():
		return PyBridge.Refusal.of_cut(cut, "activate")
	return null if can_play(card_id) else PyBridge.Refusal.of_targets(_view.targets_of(card_id))


## The player passes on the Cut (a coroutine) when the runtime's [code]can_pass[/code] says
## so and the view is not busy: any aim is put back first (see [method pass_priority]).
func pass_on() -> bool:
	if _view.is_busy() or _view.state.is_empty() or not bool(cut.get("can_pass", false)):
		return false
	_view.aim.cancel()
	return await pass_priority()


## Responds on the Cut when the runtime's [code]can_respond[/code] says so: aims the first
## card of the hand that can be played now, or, while one of them is aimed, the next one
## (the player chooses which card answers by responding again); false when none can.
func respond() -> bool:
	if _view.is_busy() or not bool(cut.get("can_respond", false)):
		return false
	var able: Array[String] = []
	for slot in _view.hand_slots:
		if can_play(slot.card_id):
			able.append(slot.card_id)
	if able.is_empty():
		return false
	var aimed := _view.aim.card.card_id if _view.aim.card != null else ""
	var next := (able.find(aimed) + 1) % able.size()  # not aimed: find is -1, the first
	return _view.select_card(able[next])


## True (and the refusal told, in the runtime's [code]end_turn_reason[/code]) when the Cut
## keeps the turn from ending.
func refuses_end_turn() -> bool:
	if _view.cut_view == null or bool(cut.get("can_end_turn", true)):
		return false
	var reason := str(cut.get("end_turn_reason", ""))
	var said := Sentences.say(cut.get("end_turn_reason_message"), reason)
	TypedTwins.refuse_request(self, "end_turn", PyBridge.Refusal.of_cut(cut, "end_turn"), said)
	return true


## The player passes (a coroutine): the enemies may answer the player's top entry, else the
## top entry resolves and its events play back. An entry that needs a choice as it resolves
## asks for it first; cancelling that choice passes nothing. False when nothing was passed.
func pass_priority(choices: Dictionary = {}) -> bool:
	var bridge := _view.bridge
	var fields := _view.request_fields()
	if not choices.is_empty():
		fields["choices"] = choices
	_view.busy_with(1)
	var result: Dictionary = await ask_answering(
		"pass", fields, PackedStringArray(["target_required"])
	)
	_view.busy_with(-1)
	if result.is_empty():
		var error := bridge.last_error
		var code := str(error.get("code", ""))
		if code == "choice_cancelled":
			return false
		# A refused pass changes nothing: the Cut's last answer still names the entry.
		var entry := str(cut.get("awaiting_choice", "")) if cut.get("awaiting_choice") else ""
		if code == "target_required" and entry != "" and not choices.has(entry):
			var answer: Variant = await choose(PyBridge.Choice.for_entry(entry, _late_of(entry)))
			if answer == null:
				return false
			var more := choices.duplicate()
			more[entry] = answer
			return await pass_priority(more)
		TypedTwins.request_error(self, "pass", error)
		return false
	_view.target_marks.clear_lost()
	passed.emit(result)
	await _view.play_back(result, "pass")
	return true


## Asks [param op] with [param fields] (a coroutine). When an action asks the player a
## choice as it resolves (the runtime's [code]choice_needed[/code]), makes it with the
## pickers and asks again with the answer in [code]choices[/code]: nothing changed in
## between. [code]{}[/code] when refused, or when the player cancelled the choice
## ([member PyBridgeClient.last_error] then has the code [code]choice_cancelled[/code]).
## The caller holds the view busy (one level) around it; the choice itself is made idle.
func ask_answering(op: String, fields: Dictionary, expected := PackedStringArray()) -> Dictionary:
	var bridge := _view.bridge
	var handled := expected.duplicate()
	handled.append("choice_needed")
	var result: Dictionary = await bridge.ask(op, fields, handled)
	while result.is_empty() and str(bridge.last_error.get("code", "")) == "choice_needed":
		var asked := PyBridge.Choice.for_asked(bridge.last_error)
		# The caller holds the view busy for its request; while the player chooses it is not.
		_view.busy_with(-1)
		var picked: Variant = await choose(asked)
		_view.busy_with(1)
		if picked == null:
			bridge.last_error = {"code": "choice_cancelled", "message": "", "where": ""}
			return {}
		var answers: Dictionary = fields.get("choices", {}).duplicate()
		answers[asked.answer_key()] = picked
		fields["choices"] = answers
		result = await bridge.ask(op, fields, handled)
	return result


## Makes [param choice] (a coroutine): units with the aim, cards with the pile picker; the
## answer as the runtime takes it, or null when it was cancelled (or refused).
func choose(choice: PyBridge.Choice) -> Variant:
	if not await choice.refresh(_view.bridge):
		var why := str(choice.refused.get("message", ""))
		TypedTwins.refuse_request(self, "pick", choice.refusal, why)
		return null
	if choice.chooses == "cards":
		open_pile_picker(choice)
	else:
		if _view.is_inside_tree():
			# The Cut view lays its new rows out first: the arrow starts at the entry's row.
			await _view.get_tree().process_frame
		_view.aim.choose_units(choice)
	var ended: Array = await _view.choice_ended
	while ended[0] != choice:
		ended = await _view.choice_ended
	return choice.answer() if ended[1] else null


## Shows one step of a resolution's playback on the Cut view and the markers; true when
## the step showed something of the Cut.
func show_step(line: Dictionary, events: Array) -> bool:
	var shown := read_step(line, events, _view.target_marks)
	if _view.cut_view != null:
		_view.cut_view.show_step(line, events)
	return shown


## Tells [param shower] (a TargetMarks or a [PyBridgeCutView]) the Cut's events
## of one playback step: an entry resolving, the range it collects again, a lost target, a
## failed effect (with the step's log [param line]). True when one of them was there.
static func read_step(line: Dictionary, events: Array, shower: Object) -> bool:
	var text := Sentences.say(line.get("message"), str(line.get("text", "")))
	var shown := false
	for event: Dictionary in events:
		var entry := str(event.get("entry", ""))
		match str(event.get("type", "")):
			"resolving":
				shower.show_resolving(entry)
			"recollected":
				shower.show_range(entry, event.get("units", []))
			"target_lost":
				shower.show_lost(entry, str(event.get("unit", "")), text)
			"effect_failed":
				shower.show_failed(entry, text)
			_:
				continue
		shown = true
	return shown


## Plays a card that takes no unit now, released on the play area (or confirmed): played or
## activated at once; a card that chooses as it resolves and is played without the Cut asks
## for its choice first (the play's target).
func release_card(card_id: String) -> void:
	var info := _view.targets_of(card_id)
	if _view.cut_view == null and info.get("late_choice") is Dictionary:
		var answer: Variant = await choose(PyBridge.Choice.for_card(card_id, info))
		if answer != null:
			_view.play_card_at(card_id, PackedStringArray(answer))
		return
	_view.play_card_at(card_id, PackedStringArray())


## Opens the view's pile picker on [param choice], a choice of cards: the cards of its
## places, as the state holds them.
func open_pile_picker(choice: PyBridge.Choice) -> void:
	var listed := []
	var only := choice.options()
	for zone in choice.zones:
		for instance in _view.data.zone_instances(zone):
			var card_id := str(instance.get("id"))
			if not only.is_empty() and not card_id in only:
				continue  # a choice an action asks lists its options only
			var info := {"playable": card_id in choice.candidates}
			listed.append(
				{"id": card_id, "zone": zone, "data": _view.data.card_data(instance, info)}
			)
	if not only.is_empty():  # in the runtime's order (the top of a pile first)
		listed.sort_custom(
			func(a: Dictionary, b: Dictionary) -> bool:
				return only.find(str(a["id"])) < only.find(str(b["id"]))
		)
	var center := _view.play_rect().get_center()
	_view.pile_picker.open(choice, choice_title(choice), listed, center)
	choice_changed.emit(choice)


## The name a choice is shown under: its card's.
func choice_title(choice: PyBridge.Choice) -> String:
	var card_id := choice.card_id
	for entry: Dictionary in cut.get("cut", []):
		if str(entry.get("id")) == choice.entry_id and entry.get("card") is Dictionary:
			card_id = str(entry["card"].get("id"))
	return str(_view.names().get("cards", {}).get(card_id, card_id))


## Takes the runtime's [code]cut[/code] [param answer] and shows it.
func show_cut(answer: Dictionary) -> void:
	cut = answer
	_view.target_marks.show_cut(answer.get("cut", []))
	if _view.cut_view != null:
		_view.cut_view.show_cut(answer, _view.names(), _view.data.texts())
	cut_changed.emit(answer)


## Drops every choice under way (a new battle opens): the aim is put back, a late choice
## ends unanswered and the pile picker closes.
func drop_choices() -> void:
	var pending := _view.aim.choice
	if _view.aim.is_aiming():
		_view.aim.finish()
	if pending != null and pending.late:
		choice_ended.emit(pending, false)
	if _view.pile_picker != null and _view.pile_picker.visible:
		_view.pile_picker.cancel()


func _cut_allows() -> bool:
	return _view.cut_view == null or bool(cut.get("can_activate", true))


func _late_of(entry_id: String) -> Dictionary:
	for entry: Dictionary in cut.get("cut", []):
		if str(entry.get("id")) == entry_id and entry.get("late_choice") is Dictionary:
			return entry["late_choice"]
	return {}
