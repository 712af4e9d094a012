@tool
extends VBoxContainer
## A card's properties: name, cost, owner, type, rarity, tags, keywords, and the Card Target
## picker, which says what the chosen mode means from the runtime's facts (arrow or not,
## which side, area, random, and what the player does).
##
## Lint diagnostics about a property colour its label and explain themselves in its tooltip.

## The designer changed [param field] to [param value] (null: removed).
signal field_changed(field: String, value: Variant)

const FieldEditor := preload("res://addons/pybridge_targeting/workshop/pybridge_field_editor.gd")
const Completer := preload("res://addons/pybridge_targeting/workshop/pybridge_completer.gd")
const WorkshopSchema := preload(
	"res://addons/pybridge_targeting/workshop/pybridge_workshop_schema.gd"
)
## The properties edited as text, in order: field -> [label, hint, kind]. Kinds: text, number,
## list (comma separated).
const TEXT_FIELDS := {
	"name": ["Name", "the name players see", "text"],
	"cost": ["Cost", "energy", "number"],
	"owner": ["Owner", "the party member who plays it", "text"],
	"type": ["Type", "attack, skill...", "text"],
	"rarity": ["Rarity", "common, rare...", "text"],
	"tags": ["Tags", "comma separated", "list"],
	"keywords": ["Keywords", "comma separated", "list"],
}
## The field of the Card Target.
const TARGET_FIELD := "target"
## Colours by severity.
const SEVERITY_COLORS := {
	"error": Color("ff5c6c"),
	"warning": Color("ffb347"),
	"info": Color("7fb8ff"),
}

## Field -> its editing control.
var controls: Dictionary = {}
## Field -> its label.
var labels: Dictionary = {}
## The Card Target picker.
var target_picker: OptionButton = null
## What the chosen mode means.
var meaning: Label = null

## The suggestions under each list field (tags, keywords), by field.
var completers: Dictionary = {}

var _schema: WorkshopSchema = null
var _suggestions: Dictionary = {}
var _mode_sources: Dictionary = {}
var _filling: bool = false


func _init() -> void:
	var grid := GridContainer.new()
	grid.columns = 8
	add_child(grid)
	for field: String in TEXT_FIELDS:
		var spec: Array = TEXT_FIELDS[field]
		var label := Label.new()
		label.text = str(spec[0])
		label.mouse_filter = Control.MOUSE_FILTER_PASS
		grid.add_child(label)
		var line := LineEdit.new()
		line.placeholder_text = str(spec[1])
		line.set_meta("field", field)
		line.custom_minimum_size.x = 150 if field == "name" else 90
		line.size_flags_horizontal = Control.SIZE_EXPAND_FILL
		line.select_all_on_focus = true
		line.text_changed.connect(_on_text_changed.bind(field, str(spec[2])))
		grid.add_child(line)
		controls[field] = line
		if str(spec[2]) == "list":
			var words := func() -> PackedStringArray: return _suggestions.get(field, [])
			completers[field] = Completer.new(line, words)
			add_child(completers[field])
		labels[field] = label
	var target_row := HBoxContainer.new()
	var target_label := Label.new()
	target_label.text = "Card Target"
	target_label.mouse_filter = Control.MOUSE_FILTER_PASS
	target_row.add_child(target_label)
	target_picker = OptionButton.new()
	target_picker.set_meta("field", TARGET_FIELD)
	target_picker.custom_minimum_size.x = 230
	target_picker.item_selected.connect(_on_target_selected)
	target_row.add_child(target_picker)
	meaning = Label.new()
	meaning.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	meaning.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	meaning.add_theme_color_override("font_color", Color("c8c2dc"))
	meaning.add_theme_font_size_override("font_size", 14)
	# Two lines always, so that the graph below does not move when the mode changes.
	meaning.custom_minimum_size.y = 44
	meaning.vertical_alignment = VERTICAL_ALIGNMENT_CENTER
	target_row.add_child(meaning)
	add_child(target_row)
	controls[TARGET_FIELD] = target_picker
	labels[TARGET_FIELD] = target_label


## Uses [param schema] for the Card Target picker: each mode by its label, with its meaning
## as the tooltip.
## Names, beside each Card Target, the sources a Behavior reads its targets through
## ([param sources]: mode -> source names, the runtime's [code]mode_sources[/code]).
func set_mode_sources(sources: Dictionary) -> void:
	_mode_sources = sources


## Suggests [param words] while the designer types into list field [param field].
func set_suggestions(field: String, words: PackedStringArray) -> void:
	_suggestions[field] = words


func set_schema(schema: WorkshopSchema) -> void:
	_schema = schema


## Shows [param card] (as written).
func show_card(card: Dictionary) -> void:
	_filling = true
	for field: String in TEXT_FIELDS:
		var line: LineEdit = controls[field]
		var value: Variant = card.get(field)
		var text := ""
		if value is Array:
			text = ", ".join(PackedStringArray(value))
		elif value != null:
			text = str(value)
		if line.text != text:
			line.text = text
	_fill_modes(card.get(TARGET_FIELD))
	_filling = false


## Colours the labels of the properties [param diagnostics] name (their [code]place[/code]).
func show_diagnostics(diagnostics: Array) -> void:
	for field: String in labels:
		(labels[field] as Label).remove_theme_color_override("font_color")
		(labels[field] as Label).tooltip_text = ""
	for diagnostic: Variant in diagnostics:
		var place: Dictionary = diagnostic.get("place", {})
		var field := str(place.get("field", ""))
		if not str(place.get("node", "")).is_empty() or not labels.has(field):
			continue
		var label: Label = labels[field]
		label.add_theme_color_override(
			"font_color", SEVERITY_COLORS.get(str(diagnostic.get("severity")), Color.WHITE)
		)
		label.tooltip_text += "%s: %s\n" % [diagnostic.get("code"), diagnostic.get("message")]


## Points of every property's control, global coordinates.
func layout_points() -> Dictionary:
	var points := {}
	for field: String in controls:
		var control: Control = controls[field]
		var at := control.get_global_transform_with_canvas() * (control.size * 0.5)
		points[field] = [roundi(at.x), roundi(at.y)]
	return points


func _fill_modes(value: Variant) -> void:
	target_picker.clear()
	var selected := -1
	for facts: Variant in _schema.mode_list() if _schema != null else []:
		var mode := str(facts.get("mode"))
		target_picker.add_item(_schema.mode_summary(mode))
		var index := target_picker.item_count - 1
		target_picker.set_item_metadata(index, mode)
		target_picker.set_item_tooltip(index, _schema.mode_meaning(mode))
		if value != null and (str(value) == mode or str(value) in facts.get("aliases", [])):
			selected = index
	if selected < 0:
		target_picker.add_item("none chosen" if value == null else "%s (unknown)" % str(value))
		target_picker.set_item_metadata(target_picker.item_count - 1, value)
		selected = target_picker.item_count - 1
	target_picker.select(selected)
	var mode_name := str(target_picker.get_item_metadata(selected))
	meaning.text = _meaning_of(mode_name) if value != null else ""


func _on_text_changed(text: String, field: String, kind: String) -> void:
	if _filling:
		return
	var value: Variant = text if not text.strip_edges().is_empty() else null
	if kind == "number":
		value = FieldEditor.number_from(text)
	elif kind == "list":
		var items: Array = []
		for item in text.split(",", false):
			if not item.strip_edges().is_empty():
				items.append(item.strip_edges())
		value = items if not items.is_empty() else null
	field_changed.emit(field, value)


func _on_target_selected(index: int) -> void:
	if _filling:
		return
	var mode: Variant = target_picker.get_item_metadata(index)
	meaning.text = _meaning_of(str(mode)) if mode != null else ""
	field_changed.emit(TARGET_FIELD, mode)


## What [param mode] means, and the sources that read what it targets.
func _meaning_of(mode: String) -> String:
	var text := _schema.mode_meaning(mode) if _schema != null else ""
	var reads: Array = _mode_sources.get(mode, [])
	if not text.is_empty() and not reads.is_empty():
		text += " Read its targets through %s." % " or ".join(PackedStringArray(reads))
	return text
