@tool
extends RefCounted
## What opening a battle and showing a new state ask of the runtime, without the view: the
## documents' texts, and the requests (and their answers by card) for the hand's targets and
## the Cut. Static only; each function is given exactly what it reads.

const BattleData := preload("res://addons/pybridge_targeting/battle/pybridge_battle_data.gd")
const Wire := preload("res://addons/pybridge_targeting/transport/pybridge_wire.gd")


## The texts of the library Resources [param libraries], as the runtime's documents.
static func resource_texts(libraries: Array[PyBridgeLibraryResource]) -> PackedStringArray:
	var texts := PackedStringArray()
	for library in libraries:
		texts.append(library.to_json())
	return texts


## The text of the battle document stored at [param path], or [code]""[/code] (reported).
static func read_file(path: String) -> String:
	var text := FileAccess.get_file_as_string(path)
	if text.is_empty():
		var why := error_string(FileAccess.get_open_error())
		push_error("PyBridgeBattleView: cannot read the battle document %s (%s)" % [path, why])
	return text


## The requests [param new_state] needs answered before it shows, in [param session] for
## [param side]: each card of the hand's [code]targets[/code] (unless the battle is over),
## then the [code]cut[/code] when [param with_cut].
static func state_requests(
	new_state: Dictionary, side: String, session: String, with_cut: bool
) -> Array:
	var asked := []
	var over: Variant = new_state.get("result")
	if over == null or str(over) == "":
		for instance: Variant in BattleData.piles_in(new_state, side).get("hand", []):
			asked.append(["targets", {"session": session, "card": str(instance.get("id"))}])
	if with_cut:
		asked.append(["cut", {"session": session}])
	return asked


## Card id -> its [code]targets[/code] answer, from the [param answers] to [param asked].
static func targets_by_card(asked: Array, answers: Array[Dictionary]) -> Dictionary:
	var found := {}
	for i in asked.size():
		if asked[i][0] == "targets":
			found[asked[i][1]["card"]] = answers[i]
	return found
