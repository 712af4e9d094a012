@tool
extends RefCounted
## The tooltip of a [PyBridgeCutView]'s entries: the pointer over an entry shows its card's
## or move's whole text (as the battle's documents word it), its source and the targets it
## locked, the range it reaches now, or that it chooses as it resolves.

# The view emits each as its own signal of the same name (battle/pybridge_relay.gd).
signal tooltip_changed(entry_id: String, title: String, text: String)

## The entry whose tooltip shows ([code]""[/code]: none).
var entry: String = ""

var _view: PyBridgeCutView = null


func _init(view: PyBridgeCutView) -> void:
	_view = view


## The tooltip of [param shown] (a Cut entry, titled [param title]) from [param texts]
## ([code]BattleData.texts()[/code]), [param names] ([code]BattleData.names()[/code]) and
## [param ranges] (entry id -> the units an "all ~" entry collected again):
## [code]{"title", "text", "note"}[/code].
func tip_of(
	shown: Dictionary, title: String, texts: Dictionary, names: Dictionary, ranges: Dictionary
) -> Dictionary:
	var card: Variant = shown.get("card")
	var text := ""
	if card is Dictionary:
		text = str(texts.get("cards", {}).get(str(card.get("id")), ""))
	else:
		text = str(texts.get("moves", {}).get(str(shown.get("move")), ""))
	var units: Dictionary = names.get("units", {})
	var source := str(shown.get("source", ""))
	var notes := PackedStringArray([tr("Source: %s") % str(units.get(source, source))])
	var targets: Array = shown.get("targets", [])
	var reached: Array = ranges.get(str(shown.get("id", "")), shown.get("collected", []))
	if shown.get("late_choice") is Dictionary:
		notes.append(tr("Chooses its targets as it resolves"))
	elif not targets.is_empty():
		notes.append(tr("Locked targets: %s") % _names_of(targets, units))
	elif not reached.is_empty():
		notes.append(tr("Reaches now: %s") % _names_of(reached, units))
	return {"title": title, "text": text, "note": "\n".join(notes)}


## The rows were built again: the tooltip follows them once they are laid out.
func rows_changed() -> void:
	entry = ""
	if _view.is_inside_tree():
		hover_at.call_deferred(_view.get_global_mouse_position())


## Shows the tooltip of the entry under [param point] (global), or hides it.
func hover_at(point: Vector2) -> void:
	if not _view.is_inside_tree():
		return
	var over := ""
	if _view.is_visible_in_tree() and _view.get_global_rect().has_point(point):
		for each: Variant in _view.cut.get("cut", []):
			var id := str(each.get("id", "")) if each is Dictionary else ""
			if not id.is_empty() and _view.entry_rect(id).has_point(point):
				over = id
	if over == entry:
		return
	entry = over
	var tooltip := _view.tooltip
	var tip := _view.entry_tip(over) if not over.is_empty() else {}
	if tip.is_empty():
		if tooltip.visible:
			tooltip.hide_tip()
			tooltip_changed.emit("", "", "")
		return
	var bounds := _view.get_viewport_rect()
	tooltip.show_beside(tip["title"], tip["text"], tip["note"], _view.entry_rect(over), bounds)
	tooltip_changed.emit(over, tip["title"], tip["text"])


static func _names_of(ids: Array, units: Dictionary) -> String:
	var words := PackedStringArray()
	for id: Variant in ids:
		words.append(str(units.get(str(id), id)))
	return ", ".join(words)
