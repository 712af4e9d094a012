@tool
extends VBoxContainer
## The Workshop's screen: a tool bar; the cards and the node palette on the left; the card's
## properties and the Behavior graph (or the card's JSON) in the middle; the checks and the
## card text on the right; and the sandbox, which takes the place of all three while it is
## open. It shows what [code]Workshop[/code] gives it and passes the designer's actions on.

## A tool bar button was pressed: save, undo, redo, reload, arrange or sandbox.
signal toolbar_pressed(action: String)
## The designer picked the library at [param path] to open.
signal library_picked(path: String)
## The designer asked for a new library file at [param path].
signal library_create_requested(path: String)

const CardDocument := preload("res://addons/pybridge_targeting/workshop/pybridge_card_document.gd")
const Schema := preload("res://addons/pybridge_targeting/workshop/pybridge_workshop_schema.gd")
const Workshop := preload("res://addons/pybridge_targeting/workshop/pybridge_workshop.gd")
const Sandbox := preload("res://addons/pybridge_targeting/workshop/pybridge_sandbox.gd")
const TextPanel := preload("res://addons/pybridge_targeting/workshop/pybridge_card_text_panel.gd")
const Checks := preload("res://addons/pybridge_targeting/workshop/pybridge_diagnostics_panel.gd")
const JsonPanel := preload("res://addons/pybridge_targeting/workshop/pybridge_card_json_panel.gd")
const Graph := preload("res://addons/pybridge_targeting/workshop/pybridge_behavior_graph.gd")
const NodePalette := preload("res://addons/pybridge_targeting/workshop/pybridge_node_palette.gd")
const CardForm := preload("res://addons/pybridge_targeting/workshop/pybridge_card_form.gd")
const LibraryPanel := preload("res://addons/pybridge_targeting/workshop/pybridge_library_panel.gd")
const Points := preload("res://addons/pybridge_targeting/workshop/pybridge_workshop_points.gd")
## Tool bar buttons: action -> [label, tooltip].
const TOOLBAR := {
	"save": ["Save", "Save the library (Ctrl+S)"],
	"undo": ["Undo", "Undo (Ctrl+Z)"],
	"redo": ["Redo", "Redo (Ctrl+Shift+Z)"],
	"reload": ["Reload", "Open the saved library again"],
	"arrange": ["Arrange", "Lay the Behavior out left to right along its links (Ctrl+L)"],
	"sandbox": ["Try it in the sandbox (F5)", "Play the card in a small test battle"],
}
## Tab of the graph, and of the card's JSON.
const BEHAVIOR_TAB := 0
const JSON_TAB := 1

## The library panel.
var library: LibraryPanel = null
## The card's properties.
var form: CardForm = null
## The node palette.
var palette: NodePalette = null
## The Behavior graph.
var graph: Graph = null
## The card as JSON.
var json: JsonPanel = null
## The graph and JSON tabs.
var tabs: TabContainer = null
## The checks.
var diagnostics: Checks = null
## The card text.
var text: TextPanel = null
## The sandbox.
var sandbox: Sandbox = null
## The card as a hand shows it, drawn by the addon's own card view.
var preview: PyBridgeCardView = null
## Tool bar buttons by action.
var buttons: Dictionary = {}
## The library's name and state.
var title: Label = null
## What went wrong (hidden when nothing did).
var banner: Label = null
## The question the last guard asked, until answered.
var question: ConfirmationDialog = null
## The project's libraries (shown when there is more than one to choose from).
var library_picker: OptionButton = null
## "New library...": asks for a file and makes an empty library there.
var new_library_button: Button = null

var _workshop: Workshop = null
var _editor: HSplitContainer = null
var _no_card: Label = null
var _shown_card: String = ""


func _init(workshop: Workshop) -> void:
	_workshop = workshop
	workshop.add_child(self)
	set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	add_child(_toolbar())
	banner = Label.new()
	banner.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	banner.add_theme_color_override("font_color", Color("ff8a80"))
	banner.visible = false
	add_child(banner)
	_editor = HSplitContainer.new()
	_editor.size_flags_vertical = Control.SIZE_EXPAND_FILL
	add_child(_editor)
	# The left column: the cards above, the node palette below.
	var left := VSplitContainer.new()
	left.custom_minimum_size.x = 210
	library = LibraryPanel.new()
	library.size_flags_vertical = Control.SIZE_EXPAND_FILL
	library.size_flags_stretch_ratio = 0.8
	left.add_child(library)
	palette = NodePalette.new()
	palette.size_flags_vertical = Control.SIZE_EXPAND_FILL
	left.add_child(palette)
	_editor.add_child(left)
	var right_split := HSplitContainer.new()
	_editor.add_child(right_split)
	right_split.add_child(_middle_column())
	right_split.add_child(_right_column())
	sandbox = Sandbox.new(workshop.bridge)
	sandbox.size_flags_vertical = Control.SIZE_EXPAND_FILL
	sandbox.visible = false
	add_child(sandbox)
	question = ConfirmationDialog.new()
	question.title = "Unsaved changes"
	add_child(question)


## Builds the palette, the graph's slots and the Card Target picker from [param schema].
func use_schema(schema: Schema) -> void:
	palette.build(schema)
	graph.set_schema(schema)
	form.set_schema(schema)
	sandbox.set_piles(PackedStringArray(schema.data.get("piles", [])))


## Shows the card at [param index] of [param doc] everywhere (rebuilding the graph).
func show_card(doc: CardDocument, index: int) -> void:
	var card: Variant = doc.cards()[index] if index >= 0 else null
	var editable := card is Dictionary
	_no_card.visible = not editable
	_no_card.text = (
		"No card yet: press New, or New from template... for one of the common shapes."
		if index < 0
		else "This card is not a JSON object: fix it in the Card JSON tab."
	)
	form.visible = editable
	text.visible = editable
	if editable:
		form.show_card(card)
		form.set_suggestions("tags", doc.words_used("tags"))
		# The keywords the rules know, then the library's own.
		var known: Dictionary = (
			graph.schema.data.get("keywords", {}) if graph.schema != null else {}
		)
		var keywords := PackedStringArray(known.keys())
		for word in doc.words_used("keywords"):
			if not word in keywords:
				keywords.append(word)
		form.set_suggestions("keywords", keywords)
	if graph.schema != null:
		var shown := "%d %s" % [index, doc.card_id(index)]
		graph.show_card(card if editable else {}, shown != _shown_card)
		_shown_card = shown
	tabs.set_tab_disabled(BEHAVIOR_TAB, not editable)
	if not editable and index >= 0:
		tabs.current_tab = JSON_TAB
	json.show_card(card)
	(buttons["sandbox"] as Button).disabled = not editable


## What the editor says in place of a card ([code]""[/code] while a card is shown).
func empty_note() -> String:
	return _no_card.text if _no_card.visible else ""


## Shows the checks: the card list's marks, the list, the badges on the graph, the card
## properties' labels and the card text with its generated text [param made].
func show_findings(doc: CardDocument, index: int, found: Dictionary, made: Dictionary) -> void:
	var per_card: Array = found.get("cards", [])
	library.show_cards(doc.cards(), per_card, index)
	var current: Array = per_card[index] if index >= 0 and index < per_card.size() else []
	var others: Array = []
	for i in per_card.size():
		if i != index:
			others.append_array(per_card[i])
	others.append_array(found.get("library", []))
	var label_of := func(i: int) -> String: return LibraryPanel.card_label(doc.cards()[i])
	diagnostics.show_diagnostics(current, others, label_of)
	graph.show_diagnostics(current)
	form.show_diagnostics(current)
	var about_text: Array = []
	for diagnostic: Variant in current:
		if str(diagnostic.get("place", {}).get("field", "")) == "text":
			about_text.append(diagnostic)
	var card := doc.card(index)
	if not card.is_empty():
		text.show_text(str(card.get("text", "")), made, about_text)
	preview.get_parent().visible = not card.is_empty()
	preview.show_card(preview_data(card, made))


## What the card preview is given for [param card] (as written) and its generated text
## [param made]: what a battle's hand gives its card view (see
## [method PyBridgeCardView.show_card]), the text the designer wrote or else the runtime's.
func preview_data(card: Dictionary, made: Dictionary) -> Dictionary:
	var mode := str(card.get("target", ""))
	var facts: Dictionary = graph.schema.modes.get(mode, {}) if graph.schema != null else {}
	var written := str(card.get("text", "")) if card.get("text") is String else ""
	var cost: Variant = card.get("cost", 0)
	return {
		"id": str(card.get("id", "")),
		"card": str(card.get("id", "")),
		"name": str(card.get("name", card.get("id", ""))),
		"text": written if not written.is_empty() else str(made.get("text", "")),
		"cost": int(cost) if cost is int or cost is float else 0,
		"type": str(card.get("type", "skill")),
		"rarity": str(card.get("rarity", "common")),
		"keywords": card.get("keywords", []) if card.get("keywords") is Array else [],
		"owner": str(card.get("owner", "")) if card.get("owner") is String else "",
		"playable": true,
		"reason": "",
		"mode_label": str(facts.get("label", "")),
		"facts": facts,
		"art": null,
		"definition": card,
		"targets": {},
	}


## Shows the library's name, whether it has unsaved changes, and [param problem].
func show_title(library_name: String, dirty: bool, problem: String) -> void:
	var shown := library_name if not library_name.is_empty() else "no library open"
	title.text = "Library: %s%s" % [shown, "  (unsaved changes)" if dirty else ""]
	show_problem(problem)


## Shows [param problem] above the editor ([code]""[/code] hides it).
func show_problem(problem: String) -> void:
	banner.text = problem
	banner.visible = not problem.is_empty()


## Shows [param paths] in the library picker, [param current] chosen; [param can_create]
## shows "New library...".
func show_libraries(paths: PackedStringArray, current: String, can_create: bool) -> void:
	library_picker.clear()
	for path in paths:
		library_picker.add_item(path.trim_prefix("res://"))
		library_picker.set_item_metadata(library_picker.item_count - 1, path)
		if path == current:
			library_picker.select(library_picker.item_count - 1)
	library_picker.visible = paths.size() > 1 or (can_create and not paths.is_empty())
	new_library_button.visible = can_create


## Asks [param text]; [param on_yes] runs when the designer agrees.
func ask(text: String, on_yes: Callable) -> void:
	for connection: Dictionary in question.confirmed.get_connections():
		question.confirmed.disconnect(connection["callable"])
	question.dialog_text = text
	question.confirmed.connect(on_yes, CONNECT_ONE_SHOT)
	question.popup_centered()


## Asks for a new id for the card at [param index].
func ask_rename(index: int) -> void:
	if index < 0:
		return
	var dialog := ConfirmationDialog.new()
	dialog.title = "Rename card"
	var line := LineEdit.new()
	line.text = _workshop.doc.card_id(index)
	line.select_all_on_focus = true
	line.set_meta("field", "rename")
	dialog.add_child(line)
	dialog.register_text_enter(line)
	dialog.confirmed.connect(func() -> void: _workshop.edits.rename_card(index, line.text))
	dialog.confirmed.connect(dialog.queue_free)
	dialog.canceled.connect(dialog.queue_free)
	add_child(dialog)
	dialog.popup_centered(Vector2i(320, 100))
	line.grab_focus()


## Asks whether to delete the card at [param index].
func ask_delete(index: int) -> void:
	if index < 0:
		return
	ask(
		"Delete the card %s?" % LibraryPanel.card_label(_workshop.doc.cards()[index]),
		func() -> void: _workshop.edits.delete_card(index)
	)
	question.title = "Delete card"


## Focuses [param field] of node [param node_id], or the card property [param field].
func focus_place(node_id: String, field: String) -> void:
	if not node_id.is_empty() or field.begins_with("behavior.start"):
		tabs.current_tab = BEHAVIOR_TAB
		graph.focus_node(node_id, field)
	elif form.controls.has(field):
		(form.controls[field] as Control).grab_focus()
	elif field == "text":
		text.editor.grab_focus()
	elif not field.is_empty():
		tabs.current_tab = JSON_TAB
		json.code.grab_focus()


## Shows the sandbox in place of the editor, or the editor again.
func show_sandbox(on: bool) -> void:
	sandbox.visible = on
	_editor.visible = not on
	for action: String in buttons:
		(buttons[action] as Button).disabled = on and action != "save"


## Screen points for tools and tests, global coordinates.
func layout_points() -> Dictionary:
	return Points.of(self)


func _toolbar() -> Control:
	var bar := HBoxContainer.new()
	library_picker = OptionButton.new()
	library_picker.visible = false
	library_picker.tooltip_text = "The card libraries of the project"
	library_picker.item_selected.connect(
		func(i: int) -> void: library_picked.emit(str(library_picker.get_item_metadata(i)))
	)
	bar.add_child(library_picker)
	new_library_button = Button.new()
	new_library_button.text = "New library..."
	new_library_button.visible = false
	new_library_button.pressed.connect(_ask_new_library)
	bar.add_child(new_library_button)
	for action: String in TOOLBAR:
		if action == "sandbox":
			title = Label.new()
			title.size_flags_horizontal = Control.SIZE_EXPAND_FILL
			title.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
			bar.add_child(title)
		var button := Button.new()
		button.text = str(TOOLBAR[action][0])
		button.tooltip_text = str(TOOLBAR[action][1])
		button.focus_mode = Control.FOCUS_NONE
		button.pressed.connect(toolbar_pressed.emit.bind(action))
		bar.add_child(button)
		buttons[action] = button
	return bar


func _ask_new_library() -> void:
	var dialog := FileDialog.new()
	dialog.file_mode = FileDialog.FILE_MODE_SAVE_FILE
	dialog.access = FileDialog.ACCESS_RESOURCES
	dialog.filters = PackedStringArray(
		["*.json ; Card libraries (JSON)", "*.tres ; Card libraries (Resource)"]
	)
	dialog.title = "New card library"
	dialog.file_selected.connect(library_create_requested.emit)
	dialog.file_selected.connect(func(_path: String) -> void: dialog.queue_free())
	dialog.canceled.connect(dialog.queue_free)
	add_child(dialog)
	dialog.popup_centered_ratio(0.6)


func _middle_column() -> Control:
	var box := VBoxContainer.new()
	box.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	_no_card = Label.new()
	_no_card.visible = false
	box.add_child(_no_card)
	form = CardForm.new()
	box.add_child(form)
	tabs = TabContainer.new()
	tabs.size_flags_vertical = Control.SIZE_EXPAND_FILL
	graph = Graph.new()
	graph.name = "Behavior"
	tabs.add_child(graph)
	json = JsonPanel.new()
	json.name = "Card JSON"
	tabs.add_child(json)
	box.add_child(tabs)
	return box


func _right_column() -> Control:
	var box := VBoxContainer.new()
	box.custom_minimum_size.x = 300
	diagnostics = Checks.new()
	diagnostics.size_flags_vertical = Control.SIZE_EXPAND_FILL
	box.add_child(diagnostics)
	var preview_row := CenterContainer.new()
	preview = PyBridgeCardView.new()
	preview.custom_minimum_size = preview.card_size()
	preview.tooltip_text = "The card as the hand shows it"
	preview_row.add_child(preview)
	box.add_child(preview_row)
	text = TextPanel.new()
	box.add_child(text)
	return box
