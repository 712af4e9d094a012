@tool
extends RefCounted
## What a play would do to each unit, as the runtime words it ([code]preview[/code]'s
## [code]marks[/code]: [code]{"text", "kind"}[/code] per unit id), asked once per card and
## target while the battle does not change.
##
## [method marks_for] is a coroutine: over a transport that answers later it waits for the
## answer without holding up a frame. An answer that comes back after the battle changed is
## dropped (it is about a battle that is gone).

## The refusals that only mean "nothing to preview now": no marks are shown.
const UNPREVIEWED: Array[String] = [
	"cut", "not_a_candidate", "target_required", "not_playable", "not_enough_energy"
]

var _asked: Dictionary = {}
var _generation: int = 0
var _shown: String = ""


## Forgets every answer (the battle changed).
func clear() -> void:
	_asked.clear()
	_generation += 1


## Unit id -> [code][{"text", "kind"}][/code] for playing [param card_id] at
## [param target_ids] (none: no target), asked of [param bridge] the first time; empty when
## the battle changed while the answer was on its way, or when the runtime cannot preview
## that play now (too few targets picked yet, effects waiting on the Cut...).
func marks_for(
	bridge: PyBridgeClient, card_id: String, target_ids: PackedStringArray
) -> Dictionary:
	var key := card_id + ">" + ",".join(target_ids)
	if _asked.has(key):
		return _asked[key]
	var asked_in := _generation
	var fields := {"session": bridge.session, "card": card_id}
	if target_ids.size() == 1:
		fields["target"] = target_ids[0]
	elif not target_ids.is_empty():
		fields["target"] = Array(target_ids)
	var answer: Dictionary = await bridge.ask("preview", fields, PackedStringArray(UNPREVIEWED))
	if asked_in != _generation:
		return {}
	var marks: Dictionary = {}
	var given: Variant = answer.get("marks", {})
	if given is Dictionary:
		for unit_id: Variant in given:
			var lines: Array[Dictionary] = []
			for mark: Variant in given[unit_id]:
				if mark is Dictionary:
					lines.append(
						{"text": str(mark.get("text", "")), "kind": str(mark.get("kind", "info"))}
					)
			marks[str(unit_id)] = lines
	_asked[key] = marks
	return marks


## What the aim should show now for [param card_id] at [param target_ids] (a coroutine): the
## marks when [param wanted], [code]{}[/code] to clear them, or null when nothing is to change
## (the same marks are shown already, or the aim moved on while the answer was on its way).
func shown_for(
	bridge: PyBridgeClient, card_id: String, target_ids: PackedStringArray, wanted: bool
) -> Variant:
	if not wanted:
		_shown = ""
		return {}
	var key := card_id + ">" + ",".join(target_ids)
	if key == _shown:
		return null
	_shown = key
	var marks: Dictionary = await marks_for(bridge, card_id, target_ids)
	return marks if key == _shown else null


## Forgets which marks are shown (the aim ended).
func forget_shown() -> void:
	_shown = ""
