@tool
@icon("res://addons/pybridge_targeting/icons/workshop.svg")
extends Control
## The card Workshop: design the cards of a library the way the targeting guide describes,
## with the Card Target, a Behavior graph, live contract checks, generated text and a sandbox.
##
## Everything it offers comes from the runtime ([member bridge]): the palette, the node forms,
## the port kinds and the Card Target picker from [code]schema[/code]; the checks from
## [code]lint[/code] (each card on its own, see [code]CardChecker[/code]); the generated text from
## [code]describe[/code]; the sandbox from [code]sandbox[/code] and the plays; the saved file
## from [code]library_text[/code]. Every edit can be undone (Godot's [UndoRedo]).
## [br][br]
## Keys: Ctrl+S saves, Ctrl+Z and Ctrl+Shift+Z (or Ctrl+Y) undo and redo, Ctrl+N adds a card,
## Ctrl+Shift+D duplicates it, F2 renames it, Ctrl+F searches, Ctrl+L arranges the graph, F5
## opens the sandbox, Escape leaves it; in the graph, Ctrl+A selects every node, Ctrl+C,
## Ctrl+V and Ctrl+D copy, paste and duplicate the selected ones (also in the graph's right
## click menu, which adds nodes too), and Delete removes them.

## A library was opened ([param path] as the store names it).
signal library_opened(path: String)
## The document, the selection or what the runtime says about them changed.
signal changed
## The library was saved as [param text].
signal saved(path: String, text: String)
## Saving failed.
signal save_failed(message: String)
## The designer was asked whether to drop unsaved changes.
signal guard_shown(question: String)

const WordLists := preload("res://addons/pybridge_targeting/workshop/pybridge_word_lists.gd")
const WorkshopLayout := preload(
	"res://addons/pybridge_targeting/workshop/pybridge_workshop_layout.gd"
)
const CardEdits := preload("res://addons/pybridge_targeting/workshop/pybridge_card_edits.gd")
const CardChecker := preload("res://addons/pybridge_targeting/workshop/pybridge_card_checker.gd")
const WorkshopSchema := preload(
	"res://addons/pybridge_targeting/workshop/pybridge_workshop_schema.gd"
)
const CardDocument := preload("res://addons/pybridge_targeting/workshop/pybridge_card_document.gd")
const LibraryStore := preload("res://addons/pybridge_targeting/workshop/pybridge_library_store.gd")
const Commands := preload("res://addons/pybridge_targeting/workshop/pybridge_workshop_commands.gd")
## How long the checks wait after an edit before asking the runtime again, in seconds.
const CHECK_DELAY := 0.12

## The runtime connection; without one the Workshop makes its own.
@export var bridge: PyBridgeClient = null

## Where libraries are read and written.
var store: LibraryStore = LibraryStore.new()
## Whether the designer may make new library files ("New library...": the editor does).
var can_create_libraries: bool = false
## The open library's path in [member store] ([code]""[/code]: none).
var library_path: String = ""
## The open library's name.
var library_name: String = ""
## The library being edited.
var doc: CardDocument = CardDocument.new()
## The runtime's vocabulary.
var schema: WorkshopSchema = null
## The runtime's checks and generated text, per card.
var checker: CardChecker = null
## The undoable edits and their history.
var edits: CardEdits = null
## The index of the card being edited (-1: none).
var selected: int = -1
## The last checks: [code]{"cards": [...], "library": [...]}[/code] (see [code]CardChecker[/code]).
var findings: Dictionary = {"cards": [], "library": []}
## What the Workshop could not do (the runtime unreachable, a file that is not JSON).
var problem: String = ""
## The parts of the screen.
var ui: WorkshopLayout = null
## The runtime's card templates ([code]templates[/code]: name, label, doc, card).
var templates: Array = []

var _saved_json: String = ""
var _word_lists: WordLists = null
var _check_timer: Timer = null
var _pending_rebuild: bool = false
var _after_guard: Callable = Callable()


func _ready() -> void:
	if bridge == null:
		bridge = PyBridgeClient.new()
		bridge.name = "Bridge"
		add_child(bridge)
	bridge.push_errors = false
	ui = WorkshopLayout.new(self)
	_check_timer = Timer.new()
	_check_timer.one_shot = true
	_check_timer.timeout.connect(_check_now)
	add_child(_check_timer)
	schema = WorkshopSchema.new(bridge.schema())
	if not schema.is_loaded():
		problem = (
			"The pybridge runtime did not answer (%s): %s"
			% [bridge.transport_name(), bridge.last_error.get("message", "")]
		)
	else:
		ui.use_schema(schema)
		# JSON numbers arrive as floats: a template's count of 1 is shown as 1, not 1.0.
		var answer := bridge.request("templates", {})
		templates = PyBridgeClient.integral(answer.get("templates", []))
		ui.library.show_templates(templates)
		ui.form.set_mode_sources(answer.get("mode_sources", {}))
	checker = CardChecker.new(bridge, schema.library_format())
	edits = CardEdits.new(self)
	Commands.connect_ui(self)
	refresh(true)


func _input(event: InputEvent) -> void:
	var key := event as InputEventKey
	if key == null or not key.pressed or key.echo or not is_visible_in_tree():
		return
	if ui.sandbox.visible:
		if key.keycode == KEY_ESCAPE:
			close_sandbox()
			get_viewport().set_input_as_handled()
		return
	var focus := get_viewport().gui_get_focus_owner()
	var action := Commands.for_key(key, focus is LineEdit or focus is TextEdit, _graph_shown())
	if not action.is_empty():
		Commands.run(self, action)
		get_viewport().set_input_as_handled()


# -- the library ----------------------------------------------------------------------------


## Opens the library at [param path] of [member store]; with unsaved changes, asks first.
func open_library(path: String) -> void:
	rescan_libraries()  # the picker shows the open one until the designer agrees
	guard(func() -> void: _open_now(path), "Discard the unsaved changes to %s?" % library_name)


## Opens a library from its [param text], named [param name] (and saved back to
## [param path] of the store).
func open_text(text: String, path: String, name_shown: String) -> void:
	var parsed := CardDocument.parse(text)
	problem = ""
	if not str(parsed["error"]).is_empty():
		problem = (
			"%s is not a card library (%s). Saving replaces it." % [name_shown, parsed["error"]]
		)
		parsed["document"] = {"format": schema.library_format(), "cards": []}
	doc = CardDocument.new(parsed["document"])
	library_path = path
	library_name = name_shown
	_saved_json = JSON.stringify(doc.document) if problem.is_empty() else ""
	selected = 0 if not doc.cards().is_empty() else -1
	edits.clear()
	checker.clear()
	refresh(true)
	rescan_libraries()
	library_opened.emit(path)


## Lists the libraries [member store] holds in the library picker.
func rescan_libraries() -> void:
	if schema.is_loaded():
		ui.show_libraries(store.list(schema.library_format()), library_path, can_create_libraries)


## Makes an empty library at [param path] of [member store] and opens it (asking first when
## there are unsaved changes).
func create_library(path: String) -> void:
	guard(_create_now.bind(path), "Discard the unsaved changes to %s?" % library_name)


## Whether there are changes not saved yet.
func is_dirty() -> bool:
	return JSON.stringify(doc.document) != _saved_json


## Runs [param action] now, or after the designer agrees to [param question] when there are
## unsaved changes.
func guard(action: Callable, question: String) -> void:
	if not is_dirty() or library_path.is_empty():
		action.call()
		return
	_after_guard = action
	ui.ask(question, _guard_accepted)
	guard_shown.emit(question)


## Saves the library in its canonical form (the runtime's [code]library_text[/code]).
func save() -> bool:
	if library_path.is_empty():
		return false
	var answer := bridge.request("library_text", {"document": doc.document})
	var error := ""
	if answer.is_empty():
		error = str(bridge.last_error.get("message", "the runtime did not answer"))
	else:
		error = store.write(library_path, str(answer.get("text", "")))
	if not error.is_empty():
		problem = "Not saved: " + error
		ui.show_problem(problem)
		save_failed.emit(error)
		return false
	_saved_json = JSON.stringify(doc.document)
	problem = ""
	ui.show_problem("")
	_update_title()
	saved.emit(library_path, str(answer.get("text", "")))
	return true


# -- cards ----------------------------------------------------------------------------------


## The card being edited ([code]{}[/code]: none, or not an object).
func current_card() -> Dictionary:
	return doc.card(selected)


## The words of the schema's word list [param list_name] that the library and its sandbox
## battle use: what a Filter's condition suggests ([code]WhereEditor[/code]).
func suggested_words(list_name: String) -> PackedStringArray:
	if _word_lists == null:
		_word_lists = WordLists.new(bridge)
	var data: Dictionary = schema.data if schema != null else {}
	return _word_lists.words(list_name, data, doc, current_card())


## Shows the card at [param index].
func select_card(index: int) -> void:
	if index == selected or index < -1 or index >= doc.cards().size():
		return
	selected = index
	refresh(true)


## Copies, pastes or duplicates Behavior nodes, or selects them all ([param action]: copy,
## paste, duplicate, select_all). A paste or a copy goes to [param at] (graph coordinates of
## the group's top left corner), or by default to the first free spot in view.
func edit_nodes(action: String, at: Variant = null) -> void:
	Commands.edit_nodes(ui.graph, edits, current_card(), action, at)
	changed.emit()


# -- checks, text and sandbox ---------------------------------------------------------------


## Asks the runtime about every card now (a moment after each edit, or at once).
func _check_now() -> void:
	_check_timer.stop()
	if schema.is_loaded():
		findings = checker.check(doc.document)
	_show_findings()
	changed.emit()


## The diagnostics of the card at [param index].
func card_findings(index: int) -> Array:
	var cards: Array = findings.get("cards", [])
	return cards[index] if index >= 0 and index < cards.size() else []


## The generated text of the edited card ([code]{"text"}[/code] or [code]{"error"}[/code]).
func generated_text() -> Dictionary:
	return checker.generated_text(doc.cards()[selected]) if selected >= 0 else {}


## Replaces the edited card's text with the generated one.
func use_generated_text() -> void:
	var made := generated_text()
	if made.has("text"):
		edits.set_card_field("text", str(made["text"]))
		ui.text.show_text(str(made["text"]), made, [])


## Focuses what [param diagnostic] names: its card, then its node and field, or the card
## property it is about.
func focus_diagnostic(diagnostic: Dictionary) -> void:
	var index := int(diagnostic.get("card_index", -1))
	if index >= 0:
		select_card(index)
	var place: Dictionary = diagnostic.get("place", {})
	ui.focus_place(str(place.get("node", "")), str(place.get("field", "")))
	changed.emit()


## Opens the sandbox around the edited card.
func open_sandbox() -> void:
	if selected < 0 or not current_card().has("id"):
		return
	ui.show_sandbox(true)
	ui.sandbox.open(current_card(), doc.document)
	changed.emit()


## Leaves the sandbox.
func close_sandbox() -> void:
	ui.show_sandbox(false)
	changed.emit()


## Runs the checks and the rebuild an edit has scheduled, now.
func settle() -> void:
	if _pending_rebuild:
		_rebuild()
	if not _check_timer.is_stopped():
		_check_now()


## Shows what an edit changed: the graph and forms too when [param rebuild], and the checks
## a moment later ([code]CardEdits[/code] calls this after each edit, undo and redo).
func after_edit(rebuild: bool, check_later: bool) -> void:
	if rebuild:
		_pending_rebuild = true
		_rebuild.call_deferred()
	_update_title()
	store.set_unsaved(is_dirty())
	if check_later:
		_check_timer.start(CHECK_DELAY)
	else:
		_check_now()
	changed.emit()


## Shows everything again ([param rebuild]: the graph and the forms too, not just the checks).
func refresh(rebuild: bool) -> void:
	if rebuild:
		_pending_rebuild = true
		_rebuild.call_deferred()
	_update_title()
	_check_now()


# -- internals ------------------------------------------------------------------------------


func _rebuild() -> void:
	if not _pending_rebuild:
		return
	_pending_rebuild = false
	ui.show_card(doc, selected)
	if not edits.added.is_empty():
		ui.graph.reveal.call_deferred(edits.added)
		edits.added = ""
	if not edits.pasted.is_empty():
		ui.graph.select_nodes(edits.pasted)
		ui.graph.reveal.call_deferred(edits.pasted[0])
		edits.pasted = PackedStringArray()
	_show_findings()
	changed.emit()


func _show_findings() -> void:
	ui.show_findings(doc, selected, findings, generated_text())


## Whether the Behavior graph is on screen (so that its keys act on it).
func _graph_shown() -> bool:
	return ui.graph.is_visible_in_tree() and current_card().size() > 0


func _update_title() -> void:
	ui.show_title(library_name, is_dirty(), problem)


func _guard_accepted() -> void:
	var action := _after_guard
	_after_guard = Callable()
	if action.is_valid():
		action.call()


func _create_now(path: String) -> void:
	var empty := bridge.request(
		"library_text", {"document": {"format": schema.library_format(), "cards": []}}
	)
	var error := (
		store.write(path, str(empty.get("text", "")))
		if not empty.is_empty()
		else "the runtime did not answer"
	)
	if not error.is_empty():
		problem = error
		ui.show_problem(problem)
		return
	_open_now(path)
	rescan_libraries()


func _open_now(path: String) -> void:
	var read := store.read(path)
	if read.has("error"):
		problem = str(read["error"])
		ui.show_problem(problem)
		return
	open_text(str(read["text"]), path, str(read.get("name", path.get_file())))
