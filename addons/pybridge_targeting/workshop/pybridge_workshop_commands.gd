@tool
extends RefCounted
## The Workshop's commands: what each panel's signal, tool bar button and key asks of it, and
## how a copy, a paste, a duplicate or a select all of nodes acts on the graph and the edits.

const Workshop := preload("res://addons/pybridge_targeting/workshop/pybridge_workshop.gd")
const CardDocument := preload("res://addons/pybridge_targeting/workshop/pybridge_card_document.gd")
const CardEdits := preload("res://addons/pybridge_targeting/workshop/pybridge_card_edits.gd")
const BehaviorGraph := preload(
	"res://addons/pybridge_targeting/workshop/pybridge_behavior_graph.gd"
)
## Keys that act on the graph's selected nodes, with Ctrl.
const NODE_KEYS := {KEY_A: "select_all", KEY_C: "copy", KEY_V: "paste", KEY_D: "duplicate"}


## The action [param key] asks for ([code]""[/code]: none): [param typing] when a text box has
## the focus (Ctrl+Z and the graph's keys are the box's then), [param graph_shown] when the
## Behavior graph is on screen.
static func for_key(key: InputEventKey, typing: bool, graph_shown: bool) -> String:
	var ctrl := key.is_command_or_control_pressed()
	if ctrl and key.keycode == KEY_S:
		return "save"
	if ctrl and not typing and key.keycode == KEY_Z:
		return "redo" if key.shift_pressed else "undo"
	if ctrl and not typing and key.keycode == KEY_Y:
		return "redo"
	if ctrl and key.keycode == KEY_N:
		return "new_card"
	if ctrl and key.shift_pressed and key.keycode == KEY_D:
		return "duplicate_card"
	if ctrl and not typing and graph_shown and NODE_KEYS.has(key.keycode):
		return NODE_KEYS[key.keycode]
	if ctrl and key.keycode == KEY_F:
		return "search"
	if ctrl and key.keycode == KEY_L:
		return "arrange"
	if key.keycode == KEY_F2:
		return "rename"
	if key.keycode == KEY_F5:
		return "sandbox"
	return ""


## Copies, pastes or duplicates the nodes of [param graph], or selects them all
## ([param action]), through [param edits]; [param card] is the card edited, [param at] where a
## paste or a duplicate goes (see [code]Workshop.edit_nodes()[/code]).
static func edit_nodes(
	graph: BehaviorGraph, edits: CardEdits, card: Dictionary, action: String, at: Variant
) -> void:
	match action:
		"select_all":
			graph.select_all()
		"copy":
			if edits.copy_nodes(graph.selected_ids()) > 0:
				graph.can_paste = true
		"paste":
			var clip := edits.clipboard
			if not clip.is_empty():
				edits.paste_nodes(
					graph.offset_to(clip, at) if at is Vector2 else graph.free_offset(clip)
				)
		"duplicate":
			var ids := graph.selected_ids()
			var clip := CardDocument.copy_nodes(card, ids)
			if not ids.is_empty():
				edits.duplicate_nodes(
					ids, graph.offset_to(clip, at) if at is Vector2 else graph.free_offset(clip)
				)


## Connects the panels of [param workshop]'s screen to what they ask of it.
static func connect_ui(workshop: Workshop) -> void:
	var ui := workshop.ui
	var edits := workshop.edits
	ui.library.card_chosen.connect(workshop.select_card)
	ui.library.new_requested.connect(edits.new_card)
	ui.library.duplicate_requested.connect(edits.duplicate_card)
	ui.library.rename_requested.connect(ui.ask_rename)
	ui.library.delete_requested.connect(ui.ask_delete)
	ui.library.template_requested.connect(
		func(index: int) -> void: edits.new_card_from(workshop.templates[index].get("card", {}))
	)
	ui.form.field_changed.connect(edits.set_card_field)
	ui.text.text_edited.connect(func(text: String) -> void: edits.set_card_field("text", text))
	ui.text.use_generated_requested.connect(workshop.use_generated_text)
	ui.json.card_replaced.connect(edits.replace_card)
	ui.palette.type_chosen.connect(
		func(type_name: String) -> void: edits.add_node(type_name, ui.graph.free_spot(type_name))
	)
	ui.graph.node_added.connect(edits.add_node)
	ui.graph.port_linked.connect(edits.link_port)
	ui.graph.exit_linked.connect(edits.link_exit)
	ui.graph.nodes_deleted.connect(edits.delete_nodes)
	ui.graph.nodes_moved.connect(edits.move_nodes)
	ui.graph.field_changed.connect(edits.set_node_field)
	ui.graph.node_renamed.connect(edits.rename_node)
	ui.graph.edit_requested.connect(workshop.edit_nodes)
	ui.diagnostics.diagnostic_chosen.connect(workshop.focus_diagnostic)
	ui.sandbox.closed.connect(workshop.close_sandbox)
	ui.toolbar_pressed.connect(func(action: String) -> void: run(workshop, action))
	ui.library_picked.connect(func(path: String) -> void: workshop.open_library(path))
	ui.library_create_requested.connect(workshop.create_library)


## Runs a tool bar button's or a key's [param action] in [param workshop].
static func run(workshop: Workshop, action: String) -> void:
	var ui := workshop.ui
	var edits := workshop.edits
	match action:
		"save":
			workshop.save()
		"undo":
			edits.undo()
		"redo":
			edits.redo()
		"reload":
			workshop.open_library(workshop.library_path)
		"arrange":
			ui.graph.arrange_all()
		"sandbox":
			workshop.open_sandbox()
		"new_card":
			edits.new_card()
		"duplicate_card":
			edits.duplicate_card(workshop.selected)
		"search":
			ui.library.search.grab_focus()
		"rename":
			ui.ask_rename(workshop.selected)
		_:
			workshop.edit_nodes(action)
