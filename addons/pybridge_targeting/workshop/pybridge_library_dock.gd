@tool
extends VBoxContainer
## Every card library of the project with what the runtime's checks say about it: one row per
## library (its counts of errors and warnings), under it one row per diagnostic (card, code,
## where, message). Double-click a row to open it in the Workshop. The editor shows this as a
## dock; it works the same in a running project.

## The designer picked a diagnostic ([param diagnostic] empty: the library itself).
signal diagnostic_chosen(path: String, diagnostic: Dictionary)

const DiagnosticsPanel := preload(
	"res://addons/pybridge_targeting/workshop/pybridge_diagnostics_panel.gd"
)
const LibraryPanel := preload("res://addons/pybridge_targeting/workshop/pybridge_library_panel.gd")
const CardDocument := preload("res://addons/pybridge_targeting/workshop/pybridge_card_document.gd")
const CardChecker := preload("res://addons/pybridge_targeting/workshop/pybridge_card_checker.gd")
const WorkshopSchema := preload(
	"res://addons/pybridge_targeting/workshop/pybridge_workshop_schema.gd"
)
const LibraryStore := preload("res://addons/pybridge_targeting/workshop/pybridge_library_store.gd")
## Colours by severity.
const SEVERITY_COLORS := {
	"error": Color("ff5c6c"),
	"warning": Color("ffb347"),
	"info": Color("7fb8ff"),
}

## Where libraries are found.
var store: LibraryStore = LibraryStore.new()
## The runtime connection (one of its own when none is given).
var bridge: PyBridgeClient = null
## The list.
var tree: Tree = null
## Library path -> its checks ([code]{"cards", "library"}[/code]) from the last refresh.
var results: Dictionary = {}

var _schema: WorkshopSchema = null


func _init() -> void:
	name = "Card Libraries"
	var bar := HBoxContainer.new()
	var refresh_button := Button.new()
	refresh_button.text = "Check all libraries"
	refresh_button.pressed.connect(refresh)
	bar.add_child(refresh_button)
	add_child(bar)
	tree = Tree.new()
	tree.hide_root = true
	tree.size_flags_vertical = Control.SIZE_EXPAND_FILL
	tree.item_activated.connect(_on_item_activated)
	add_child(tree)


## Checks every library [member store] lists, and shows the results.
func refresh() -> void:
	if bridge == null:
		bridge = PyBridgeClient.new()
		bridge.push_errors = false
		add_child(bridge)
	if _schema == null or not _schema.is_loaded():
		_schema = WorkshopSchema.new(bridge.schema())
	results.clear()
	tree.clear()
	var root := tree.create_item()
	if not _schema.is_loaded():
		root.create_child().set_text(0, "The pybridge runtime did not answer.")
		return
	var checker := CardChecker.new(bridge, _schema.library_format())
	for path in store.list(_schema.library_format()):
		var read := store.read(path)
		var parsed := CardDocument.parse(str(read.get("text", "")))
		var document: Dictionary = parsed["document"]
		var found := checker.check(document) if str(parsed["error"]).is_empty() else {}
		results[path] = found
		_show_library(root, path, document, found, str(read.get("error", parsed["error"])))


## Every diagnostic shown, as [code][path, diagnostic][/code] pairs, in order.
func shown() -> Array:
	var rows: Array = []
	for path: String in results:
		var found: Dictionary = results[path]
		for list: Variant in found.get("cards", []) + [found.get("library", [])]:
			for diagnostic: Variant in list:
				rows.append([path, diagnostic])
	return rows


func _show_library(
	root: TreeItem, path: String, document: Dictionary, found: Dictionary, problem: String
) -> void:
	var item := root.create_child()
	item.set_metadata(0, [path, {}])
	var rows: Array = []
	for list: Variant in found.get("cards", []) + [found.get("library", [])]:
		rows.append_array(list)
	var errors := rows.filter(func(d: Dictionary) -> bool: return d.get("severity") == "error")
	var doc := CardDocument.new(document)
	item.set_text(
		0,
		(
			"%s: %d cards, %d errors, %d other notes"
			% [path, doc.cards().size(), errors.size(), rows.size() - errors.size()]
		)
	)
	if not problem.is_empty():
		item.set_text(0, "%s: %s" % [path, problem])
		item.set_custom_color(0, SEVERITY_COLORS["error"])
	for diagnostic: Dictionary in rows:
		var row := item.create_child()
		var index := int(diagnostic.get("card_index", -1))
		var card_label := LibraryPanel.card_label(doc.cards()[index]) if index >= 0 else "library"
		row.set_text(
			0,
			(
				"%s  %s, %s: %s"
				% [
					diagnostic.get("code"),
					card_label,
					DiagnosticsPanel.where_text(diagnostic),
					diagnostic.get("message")
				]
			)
		)
		row.set_tooltip_text(0, "Fix: %s" % diagnostic.get("fix", ""))
		row.set_custom_color(0, SEVERITY_COLORS.get(str(diagnostic.get("severity")), Color.WHITE))
		row.set_metadata(0, [path, diagnostic])
	item.collapsed = rows.size() > 20


func _on_item_activated() -> void:
	var item := tree.get_selected()
	if item != null and item.get_metadata(0) is Array:
		var picked: Array = item.get_metadata(0)
		diagnostic_chosen.emit(str(picked[0]), picked[1])
