extends Control
## Starts the addon's Workshop on one card library: in a browser, the library that
## [code]pybridge workshop LIBRARY[/code] serves and saves back; on the desktop, the file given
## after [code]--[/code] on the command line ([code]-- --library=cards.json[/code]).
##
## For tools and tests it prints one line per thing worth knowing, each
## [code]PYBRIDGE <kind> <json>[/code]: [code]ready[/code] and [code]workshop[/code] (the state:
## the card as written, its diagnostics and where they show, the texts, what has focus, and
## the screen points of everything a pointer may want; F12 prints it again once every check
## has run), [code]dock[/code] (F11: every library checked as the editor's dock does),
## [code]game[/code] (F10: a battle using every card of the library, opened as a game would),
## [code]saved[/code], [code]save_failed[/code], [code]guard[/code] (a question about unsaved
## changes), [code]popup[/code] (a list opened: its items, and the rows the keys skip),
## [code]sandbox[/code] (the test battle opened, or why not), [code]played[/code] (the
## runtime's exact response to a sandbox play) and [code]choice[/code] (the sandbox asks a
## choice of cards: the picker as it shows it).

const Completer := preload("res://addons/pybridge_targeting/workshop/pybridge_completer.gd")
const BehaviorNode := preload("res://addons/pybridge_targeting/workshop/pybridge_graph_node.gd")
const WebLibraryStore := preload(
	"res://addons/pybridge_targeting/workshop/pybridge_web_library_store.gd"
)
const LibraryStore := preload("res://addons/pybridge_targeting/workshop/pybridge_library_store.gd")
const LibraryDock := preload("res://addons/pybridge_targeting/workshop/pybridge_library_dock.gd")
const Workshop := preload("res://addons/pybridge_targeting/workshop/pybridge_workshop.gd")
## Every machine-readable line starts with this word.
const LINE_PREFIX := "PYBRIDGE"
## The key that asks for the state.
const REPORT_KEY := KEY_F12
## The key that checks every library as the editor's dock does, and prints its rows.
const DOCK_KEY := KEY_F11
## The key that opens a battle whose hand holds every card of the library, as a game would.
const GAME_KEY := KEY_F10

var _popup: PopupMenu = null

@onready var _workshop: Workshop = $Workshop


func _ready() -> void:
	_workshop.saved.connect(_on_saved)
	_workshop.save_failed.connect(func(message: String) -> void: _say("save_failed", message))
	_workshop.guard_shown.connect(_on_guard_shown)
	_workshop.ui.sandbox.opened.connect(_on_sandbox_opened)
	_workshop.ui.sandbox.played.connect(_on_sandbox_played)
	_workshop.ui.sandbox.view.choice_changed.connect(_on_choice_changed)
	var store := _store()
	_workshop.store = store
	var found := store.list(_workshop.schema.library_format())
	var given := _given_library()
	if not given.is_empty():
		_workshop.open_library(given)
	elif found.is_empty():
		_workshop.open_text("", "", "no library")
	else:
		_workshop.open_library(found[0])
	await _settled()
	_say("ready", _state())


func _input(event: InputEvent) -> void:
	var key := event as InputEventKey
	if key != null and key.pressed and not key.echo and key.keycode == REPORT_KEY:
		get_viewport().set_input_as_handled()
		_report()
	elif key != null and key.pressed and not key.echo and key.keycode == DOCK_KEY:
		get_viewport().set_input_as_handled()
		_report_dock()
	elif key != null and key.pressed and not key.echo and key.keycode == GAME_KEY:
		get_viewport().set_input_as_handled()
		_open_as_a_game()


func _on_saved(path: String, text: String) -> void:
	_say("saved", {"path": path, "text": text})


## A dialog takes the keys while it is open (F12 too): its buttons' points come with it.
func _on_guard_shown(question: String) -> void:
	await get_tree().process_frame
	await get_tree().process_frame
	_say(
		"guard", {"question": question, "buttons": _workshop.ui.layout_points().get("question", {})}
	)


func _on_sandbox_opened(state: Dictionary, error: String) -> void:
	await _settled()
	_say(
		"sandbox",
		{"opened": not state.is_empty(), "error": error, "layout": _workshop.ui.layout_points()}
	)


func _on_sandbox_played(_result: Dictionary) -> void:
	print("%s played %s" % [LINE_PREFIX, _workshop.bridge.last_response_of("play")])


func _on_choice_changed(_choice: PyBridge.Choice) -> void:
	await get_tree().process_frame  # the picker lays its cards out first
	await get_tree().process_frame
	_say("choice", _picker())


func _process(_delta: float) -> void:
	var shown: PopupMenu = null
	for window in get_viewport().get_embedded_subwindows():
		if window is PopupMenu and window.visible:
			shown = window
	if shown != _popup and shown != null:
		_say_popup(shown)
	_popup = shown


func _say_popup(popup: PopupMenu) -> void:
	var items := PackedStringArray()
	var disabled: Array[int] = []
	for i in popup.item_count:
		items.append(popup.get_item_text(i))
		if popup.is_item_disabled(i) or popup.is_item_separator(i):
			disabled.append(i)
	var rect := [popup.position.x, popup.position.y, popup.size.x, popup.size.y]
	_say("popup", {"items": items, "skipped": disabled, "rect": rect})


## A game's battle (the sandbox's party and enemies) with every library card in the hand,
## opened with the library beside it: a broken card refuses the battle, naming the card.
func _open_as_a_game() -> void:
	var bridge := _workshop.bridge
	var battle: Dictionary = bridge.request("sandbox", {"card": _workshop.doc.card(0)}).get(
		"battle", {}
	)
	battle["cards"] = []
	var hand: Array = []
	for card_id in _workshop.doc.card_ids():
		hand.append({"id": "c%d" % (hand.size() + 1), "card": card_id})
	battle["piles"] = {"hand": hand}
	var opened := bridge.request("open", {"battle": battle, "libraries": [_workshop.doc.document]})
	_say("game", {"opened": not opened.is_empty(), "error": bridge.last_error})
	if not opened.is_empty():
		bridge.request("close", {"session": opened.get("session")})


func _report_dock() -> void:
	var dock := LibraryDock.new()
	dock.store = _workshop.store
	dock.bridge = _workshop.bridge
	dock.visible = false
	add_child(dock)
	dock.refresh()
	var rows: Array = []
	for row: Array in dock.shown():
		var diagnostic: Dictionary = row[1]
		rows.append(
			[row[0], diagnostic.get("code"), diagnostic.get("card_index"), diagnostic.get("place")]
		)
	var lines := PackedStringArray()
	var item := dock.tree.get_root().get_first_child()
	while item != null:
		lines.append(item.get_text(0))
		item = item.get_next_in_tree()
	_say("dock", {"rows": rows, "lines": lines})
	dock.queue_free()


func _report() -> void:
	await _settled()
	_say("workshop", _state())


## Waits until every scheduled check has run and neither the library nor the screen changed
## over a frame (a new graph scrolls into place over a few frames). Keys sent just before the
## report may reach their field a frame after it: their edit's checks run then too.
func _settled() -> void:
	var last := ""
	for frame in 12:
		_workshop.settle()
		await get_tree().process_frame
		var now := JSON.stringify([_workshop.ui.layout_points(), _workshop.doc.document])
		if now == last:
			return
		last = now


func _store() -> LibraryStore:
	if WebLibraryStore.available():
		return WebLibraryStore.new()
	var given := _given_library()
	return LibraryStore.new(given.get_base_dir() if not given.is_empty() else "res://")


## The library named on the command line ([code]-- --library=PATH[/code]), or [code]""[/code].
func _given_library() -> String:
	if WebLibraryStore.available():
		return ""
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--library="):
			return arg.trim_prefix("--library=")
	return ""


## What the Workshop shows now, as data.
func _state() -> Dictionary:
	var graph := _workshop.ui.graph
	var badges := {}
	var flagged := {}
	var overridden := {}
	var forms := {}
	for node_id: String in graph.graph_nodes:
		var view: BehaviorNode = graph.graph_nodes[node_id]
		badges[node_id] = view.badge_codes
		flagged[node_id] = view.flagged
		overridden[node_id] = view.source_overridden
		if view.is_visible_in_tree():  # a hidden GraphNode has no port positions to give
			forms[node_id] = _form(view)
	var tips := {}
	for type_name: String in _workshop.ui.palette.buttons:
		tips[type_name] = (_workshop.ui.palette.buttons[type_name] as Button).tooltip_text
	var shown: Array = []
	for diagnostic: Variant in _workshop.ui.diagnostics.shown:
		shown.append(
			{
				"code": diagnostic.get("code"),
				"severity": diagnostic.get("severity"),
				"card_index": diagnostic.get("card_index"),
				"place": diagnostic.get("place"),
				"message": diagnostic.get("message")
			}
		)
	var text := _workshop.ui.text
	return {
		"library": _workshop.library_name,
		"dirty": _workshop.is_dirty(),
		"problem": _workshop.problem,
		"empty_note": _workshop.ui.empty_note(),
		"title": _workshop.ui.title.text,
		"selected": _workshop.selected,
		"cards": _workshop.doc.card_ids(),
		"library_cards": _workshop.doc.cards(),
		"card": _workshop.current_card(),
		"diagnostics": _workshop.card_findings(_workshop.selected),
		"listed": shown,
		"badges": badges,
		"flagged": flagged,
		"overridden": overridden,
		"forms": forms,
		"palette_tips": tips,
		"picker": _picker(),
		"start_badges": graph.start_node.badge_codes if graph.start_node != null else [],
		"selected_nodes": graph.selected_ids(),
		"target_meaning": _workshop.ui.form.meaning.text,
		"preview": _preview(),
		"suggestions": _suggestions(),
		"graph_suggestions": _graph_suggestions(),
		"clipboard": _workshop.edits.clipboard,
		"text":
		{
			"authored": text.editor.text,
			"generated": text.generated.text,
			"warning": text.warning.text,
			"use_enabled": not text.use_button.disabled
		},
		"focus": _focus(),
		"sandbox": _workshop.ui.sandbox.visible,
		"history":
		{
			"undo": _workshop.edits.history.has_undo(),
			"redo": _workshop.edits.history.has_redo(),
			"last": _workshop.edits.history.get_current_action_name(),
		},
		"layout": _workshop.ui.layout_points(),
	}


## What the card preview shows: its data and where it is on screen.
func _preview() -> Dictionary:
	var view := _workshop.ui.preview
	var data := view.card.duplicate()
	data.erase("definition")
	var rect := view.get_global_rect()
	data["shown"] = view.is_visible_in_tree()
	data["rect"] = [rect.position.x, rect.position.y, rect.size.x, rect.size.y]
	data["title_lines"] = view.title_lines()
	return data


## The suggestions shown under each list field of the card form (tags, keywords).
func _suggestions() -> Dictionary:
	var shown := {}
	for field: String in _workshop.ui.form.completers:
		shown[field] = (_workshop.ui.form.completers[field] as Completer).shown()
	return shown


## The suggestions under the graph's fields (a Filter condition's words), by node and field:
## the words, each row's middle, the list's rect and the rect of the field it completes.
func _graph_suggestions() -> Dictionary:
	var shown := {}
	for node_id: String in _workshop.ui.graph.graph_nodes:
		var view: BehaviorNode = _workshop.ui.graph.graph_nodes[node_id]
		for found: Node in view.find_children("*", "PanelContainer", true, false):
			var completer := found as Completer
			if completer == null:
				continue
			var rows: Array = []
			for i in completer.shown().size():
				var row := completer.list.get_item_rect(i)
				rows.append(
					_xy(completer.list.get_global_transform_with_canvas() * row.get_center())
				)
			var line := completer.line_edit()
			var fields: Dictionary = shown.get_or_add(node_id, {})
			fields[str(line.get_meta("field", ""))] = {
				"words": completer.shown(),
				"rows": rows,
				"rect": _screen_rect(completer) if completer.visible else [],
				"field": _screen_rect(line),
			}
	return shown


func _screen_rect(control: Control) -> Array:
	var xform := control.get_global_transform_with_canvas()
	var corner := xform * Vector2.ZERO
	var drawn := control.size * xform.get_scale()
	return [roundi(corner.x), roundi(corner.y), roundi(drawn.x), roundi(drawn.y)]


func _xy(point: Vector2) -> Array:
	return [roundi(point.x), roundi(point.y)]


## What the sandbox's pile picker shows ([code]{}[/code] before its battle view is set up).
func _picker() -> Dictionary:
	var picker := _workshop.ui.sandbox.view.pile_picker
	return picker.shown() if picker != null else {}


## What each field control of [param view] shows: its kind, value, hint, tooltip and, for a
## list, its items and their tooltips.
func _form(view: BehaviorNode) -> Dictionary:
	var shown := {}
	for field: String in view.layout_points()["fields"]:
		var control := view.field_control(field)
		var entry := {"class": control.get_class(), "tip": control.tooltip_text}
		if control is LineEdit:
			entry["text"] = (control as LineEdit).text
			entry["hint"] = (control as LineEdit).placeholder_text
		elif control is OptionButton:
			var button := control as OptionButton
			var items := PackedStringArray()
			var item_tips := PackedStringArray()
			for i in button.item_count:
				items.append(button.get_item_text(i))
				item_tips.append(button.get_item_tooltip(i))
			entry["items"] = items
			entry["item_tips"] = item_tips
			entry["text"] = button.get_item_text(button.selected) if button.selected >= 0 else ""
		shown[field] = entry
	return shown


func _focus() -> Dictionary:
	var focus := get_viewport().gui_get_focus_owner()
	if focus == null:
		return {}
	var node := focus.get_parent()
	while node != null and not node is BehaviorNode:
		node = node.get_parent()
	return {
		"field": str(focus.get_meta("field", "")),
		"node": (node as BehaviorNode).node_id if node != null else null,
		"class": focus.get_class(),
	}


func _say(kind: String, data: Variant) -> void:
	print("%s %s %s" % [LINE_PREFIX, kind, JSON.stringify(PyBridgeClient.integral(data))])
