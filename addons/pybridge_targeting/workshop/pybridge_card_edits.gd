@tool
extends RefCounted
## Every change the designer makes to a library in the [code]Workshop[/code], each one undoable
## with Godot's [UndoRedo]: cards (new, duplicate, rename, delete, a property, the whole card
## as JSON) and their Behaviors (add, link, delete, rename and move nodes, edit a field).
##
## An edit changes the document, then records the whole document before and after it (and
## which card was shown), so undo and redo give back exactly what was there. Typing into one
## field makes one step, however slowly the keys come: the run of keystrokes goes into the
## history as one step when it ends (another edit, another field, undo or redo), because
## UndoRedo's own merging joins only actions committed less than 800 ms apart.

const BehaviorNode := preload("res://addons/pybridge_targeting/workshop/pybridge_graph_node.gd")
const CardDocument := preload("res://addons/pybridge_targeting/workshop/pybridge_card_document.gd")
const Workshop := preload("res://addons/pybridge_targeting/workshop/pybridge_workshop.gd")
## What a new card is called.
const NEW_CARD_NAME := "New card"

## The history.
var history: UndoRedo = UndoRedo.new()
## The id of the node the last edit added ([code]""[/code] once shown).
var added: String = ""
## The nodes copied last ([code]CardDocument.copy_nodes()[/code]): they paste into any card.
var clipboard: Dictionary = {}
## The ids of the nodes the last paste added (selected once shown, then emptied).
var pasted: PackedStringArray = []

var _workshop: Workshop = null
# The typing run not yet in the history: the document before its first key, the step's name
# and the field typed into (an instance id); empty when no run is going on.
var _run_before: Dictionary = {}
var _run_name: String = ""
var _run_field: int = 0


func _init(workshop: Workshop) -> void:
	_workshop = workshop


## Adds a new card and selects it.
func new_card() -> void:
	_edit("New card", _add_new_card, true)


## Adds a new card made from [param template] (a card definition from the runtime's
## [code]templates[/code]) under a free id, and selects it.
func new_card_from(template: Dictionary) -> void:
	var doc := _workshop.doc
	var card := template.duplicate(true)
	card["id"] = doc.free_card_id(str(template.get("id", "new_card")))
	_edit("New card from template", func() -> void: _workshop.selected = doc.add_card(card), true)


## Adds a copy of the card at [param index] after it.
func duplicate_card(index: int) -> void:
	if index >= 0:
		_edit(
			"Duplicate card",
			func() -> void: _workshop.selected = _workshop.doc.duplicate_card(index),
			true
		)


## Gives the card at [param index] the id [param new_id].
func rename_card(index: int, new_id: String) -> void:
	if index >= 0 and not new_id.strip_edges().is_empty():
		_edit(
			"Rename card",
			func() -> void: _workshop.doc.rename_card(index, new_id.strip_edges()),
			true
		)


## Deletes the card at [param index].
func delete_card(index: int) -> void:
	if index < 0:
		return
	_edit("Delete card", _remove_card.bind(index), true)


## Sets property [param field] of the edited card (null: removes it).
func set_card_field(field: String, value: Variant) -> void:
	var card := _workshop.current_card()
	if card.is_empty():
		return
	_edit("Edit %s" % field, _put.bind(card, field, value), false, _typing())


## Replaces the edited card with [param value] (from the JSON view).
func replace_card(value: Variant) -> void:
	if _workshop.selected >= 0:
		_edit(
			"Edit card JSON",
			func() -> void: _workshop.doc.cards()[_workshop.selected] = value,
			true
		)


# -- the Behavior ---------------------------------------------------------------------------


## Adds a node of [param type_name] at [param at] (graph coordinates).
func add_node(type_name: String, at: Vector2) -> void:
	var card := _workshop.current_card()
	if not card.is_empty():
		var flow := _workshop.schema.is_flow(type_name)
		var add := func() -> void: added = CardDocument.add_node(card, type_name, at, flow)
		_edit("Add %s" % type_name, add, true)


## Feeds port [param port] of [param to_id] from [param from_id] ([code]""[/code]: none).
func link_port(to_id: String, port: String, from_id: String) -> void:
	var card := _workshop.current_card()
	var link := func() -> void: CardDocument.set_port(card, to_id, port, from_id)
	_edit("Link %s" % port, link, true)


## Links exit [param exit] of [param from_id] ([code]""[/code]: the start) to [param to_id].
func link_exit(from_id: String, exit: String, to_id: String) -> void:
	var card := _workshop.current_card()
	var link := func() -> void: CardDocument.set_exit(card, from_id, exit, to_id)
	_edit("Link %s" % exit, link, true)


## Deletes the nodes [param node_ids] and their links.
func delete_nodes(node_ids: PackedStringArray) -> void:
	var card := _workshop.current_card()
	var exits := _workshop.schema.exit_names()
	var remove := func() -> void: CardDocument.remove_nodes(card, node_ids, exits)
	_edit("Delete nodes", remove, true)


## Sets field [param field] of node [param node_id] (null: removes it).
func set_node_field(node_id: String, field: String, value: Variant) -> void:
	var card := _workshop.current_card()
	var node := CardDocument.node_of(card, node_id)
	var spec := _workshop.schema.node_type(str(node.get("type", "")))
	var known := field == BehaviorNode.SOURCE_FIELD
	for entry: Variant in spec.get("fields", []):
		known = known or str(entry.get("name")) == field
	# A removed unknown field, or a new type, changes the node's rows.
	var reshape := field == "type" or (value == null and not known)
	var put := func() -> void: CardDocument.set_field(card, node_id, field, value)
	_edit("Edit %s.%s" % [node_id, field], put, reshape, _typing())


## Copies the nodes [param node_ids] of the edited card to [member clipboard] (no edit: the
## document does not change). Returns how many were copied.
func copy_nodes(node_ids: PackedStringArray) -> int:
	var clip := CardDocument.copy_nodes(_workshop.current_card(), node_ids)
	if not clip["nodes"].is_empty():
		clipboard = clip
	return clip["nodes"].size()


## Pastes [member clipboard] into the edited card, [param offset] away from where the nodes
## were drawn; one undo step.
func paste_nodes(offset: Vector2) -> void:
	var card := _workshop.current_card()
	if card.is_empty() or clipboard.is_empty():
		return
	var clip := clipboard
	var exits := _workshop.schema.exit_names()
	var paste := func() -> void: pasted = CardDocument.paste_nodes(card, clip, offset, exits)
	_edit("Paste nodes", paste, true)


## Copies the nodes [param node_ids] and pastes them [param offset] away, leaving
## [member clipboard] as it was; one undo step.
func duplicate_nodes(node_ids: PackedStringArray, offset: Vector2) -> void:
	var card := _workshop.current_card()
	var clip := CardDocument.copy_nodes(card, node_ids)
	if clip["nodes"].is_empty():
		return
	var exits := _workshop.schema.exit_names()
	var copy := func() -> void: pasted = CardDocument.paste_nodes(card, clip, offset, exits)
	_edit("Duplicate nodes", copy, true)


## Gives node [param node_id] the id [param new_id].
func rename_node(node_id: String, new_id: String) -> void:
	var card := _workshop.current_card()
	if new_id.is_empty():
		_workshop.refresh(true)
		return
	var exits := _workshop.schema.exit_names()
	var rename := func() -> void: CardDocument.rename_node(card, node_id, new_id, exits)
	_edit("Rename node", rename, true)


## Records where nodes are drawn (node id -> position).
func move_nodes(positions: Dictionary) -> void:
	var card := _workshop.current_card()
	_edit("Move nodes", _place_nodes.bind(card, positions), false)


# -- history -----------------------------------------------------------------------------------


## Undoes the last edit (a typing run counts as one).
func undo() -> void:
	_end_typing()
	if history.has_undo():
		history.undo()


## Redoes the last undone edit.
func redo() -> void:
	_end_typing()
	if history.has_redo():
		history.redo()


## Puts the typing run going on, if any, into the history as one step.
func _end_typing() -> void:
	if _run_before.is_empty():
		return
	var before := _run_before
	_run_before = {}
	_record(_run_name, before, _snapshot())


## Forgets every step (a library was opened).
func clear() -> void:
	_run_before = {}
	history.clear_history()


# -- internals ------------------------------------------------------------------------------


## Makes an edit; [param typing]: a key typed into a text field, which joins the run of keys
## typed into that field.
func _edit(action_name: String, change: Callable, rebuild: bool, typing: bool = false) -> void:
	var field := _focused_id() if typing else 0
	var running := not _run_before.is_empty()
	if running and (not typing or action_name != _run_name or field != _run_field):
		_end_typing()
		running = false
	var before := _snapshot() if not running else {}
	change.call()
	if typing:
		if not running:
			_run_before = before
			_run_name = action_name
			_run_field = field
		_workshop.after_edit(rebuild, true)
	elif _record(action_name, before, _snapshot()):
		_workshop.after_edit(rebuild, true)


## Adds one step from [param before] to [param after]; false when they are the same.
func _record(action_name: String, before: Dictionary, after: Dictionary) -> bool:
	if JSON.stringify(before) == JSON.stringify(after):
		return false
	history.create_action(action_name, UndoRedo.MERGE_DISABLE)
	history.add_do_method(_restore.bind(after))
	history.add_undo_method(_restore.bind(before))
	history.commit_action(false)
	return true


## Whether the edit comes from typing in a text field: the keystrokes of one field make one
## undo step, while each choice from a list (or any other edit) is a step of its own, even of
## the same field.
func _typing() -> bool:
	var focused := _focused()
	return focused is LineEdit or focused is TextEdit


func _focused() -> Control:
	var viewport := _workshop.get_viewport()
	return viewport.gui_get_focus_owner() if viewport != null else null


func _focused_id() -> int:
	var focused := _focused()
	return focused.get_instance_id() if focused != null else 0


func _add_new_card() -> void:
	var modes := _workshop.schema.mode_list()
	var doc := _workshop.doc
	_workshop.selected = doc.add_card(
		{
			"id": doc.free_card_id("new_card"),
			"name": NEW_CARD_NAME,
			"target": modes[0].get("mode") if not modes.is_empty() else null,
			"text": "",
			"behavior": {"nodes": []}
		}
	)


func _remove_card(index: int) -> void:
	_workshop.doc.remove_card(index)
	_workshop.selected = mini(index, _workshop.doc.cards().size() - 1)


static func _put(card: Dictionary, field: String, value: Variant) -> void:
	if value == null:
		card.erase(field)
	else:
		card[field] = value


static func _place_nodes(card: Dictionary, positions: Dictionary) -> void:
	for node_id: String in positions:
		CardDocument.set_node_at(card, node_id, positions[node_id])


func _snapshot() -> Dictionary:
	return {"document": _workshop.doc.document.duplicate(true), "selected": _workshop.selected}


func _restore(snapshot: Dictionary) -> void:
	_workshop.doc.document = snapshot["document"].duplicate(true)
	_workshop.selected = int(snapshot["selected"])
	_workshop.after_edit(true, false)
