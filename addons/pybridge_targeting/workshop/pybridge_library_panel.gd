@tool
extends VBoxContainer
## The library panel: the cards of the open library, a search field, and New, Duplicate,
## Rename, Delete and a new card from one of the runtime's templates. A card with problems
## carries the count of its errors and warnings.

## The designer picked the card at [param index].
signal card_chosen(index: int)
## New card.
signal new_requested
## Duplicate the card at [param index].
signal duplicate_requested(index: int)
## Rename the card at [param index].
signal rename_requested(index: int)
## Delete the card at [param index].
signal delete_requested(index: int)
## A new card from the template at [param index] (of those [method show_templates] gave).
signal template_requested(index: int)

## Colours of a card's problem count by its worst severity.
const MARK_COLORS := {"error": Color("ff5c6c"), "warning": Color("ffb347")}

## The list of cards (shown ones only).
var list: ItemList = null
## The search field.
var search: LineEdit = null
## The library's name above the list.
var title_label: Label = null
## Buttons by action: new, duplicate, rename, delete, template.
var buttons: Dictionary = {}
## "From template": a menu of the runtime's card templates.
var templates_button: MenuButton = null

var _cards: Array = []
var _counts: Array = []
var _selected: int = -1


func _init() -> void:
	custom_minimum_size = Vector2(210, 200)
	title_label = Label.new()
	title_label.text = "Cards"
	title_label.clip_text = true
	add_child(title_label)
	search = LineEdit.new()
	search.placeholder_text = "Search cards (Ctrl+F)"
	search.clear_button_enabled = true
	search.text_changed.connect(func(_text: String) -> void: _refill())
	add_child(search)
	list = ItemList.new()
	list.size_flags_vertical = Control.SIZE_EXPAND_FILL
	list.item_selected.connect(func(row: int) -> void: card_chosen.emit(_index_of(row)))
	add_child(list)
	var row := GridContainer.new()
	row.columns = 2
	for action: String in ["new", "duplicate", "rename", "delete"]:
		var button := Button.new()
		button.text = action.capitalize()
		button.size_flags_horizontal = Control.SIZE_EXPAND_FILL
		row.add_child(button)
		buttons[action] = button
	buttons["new"].tooltip_text = "A new card (Ctrl+N)"
	buttons["duplicate"].tooltip_text = "A copy of this card (Ctrl+Shift+D)"
	buttons["rename"].tooltip_text = "Change this card's id (F2)"
	buttons["delete"].tooltip_text = "Delete this card"
	buttons["new"].pressed.connect(new_requested.emit)
	buttons["duplicate"].pressed.connect(func() -> void: duplicate_requested.emit(_selected))
	buttons["rename"].pressed.connect(func() -> void: rename_requested.emit(_selected))
	buttons["delete"].pressed.connect(func() -> void: delete_requested.emit(_selected))
	add_child(row)
	templates_button = MenuButton.new()
	templates_button.text = "New from template..."
	templates_button.flat = false
	templates_button.tooltip_text = "A new card in one of the common shapes of the guide"
	templates_button.get_popup().index_pressed.connect(template_requested.emit)
	templates_button.disabled = true
	add_child(templates_button)
	buttons["template"] = templates_button


## Lists [param templates] (the runtime's [code]templates[/code]: each with its label and
## what it is for) in "New from template...".
func show_templates(templates: Array) -> void:
	var menu := templates_button.get_popup()
	menu.clear()
	for template: Variant in templates:
		menu.add_item(str(template.get("label", template.get("name", ""))))
		menu.set_item_tooltip(menu.item_count - 1, str(template.get("doc", "")))
	templates_button.disabled = templates.is_empty()


## Shows [param cards] (as written) with [param findings] (one array of diagnostics per card),
## [param selected] chosen.
func show_cards(cards: Array, findings: Array, selected: int) -> void:
	_cards = cards
	_counts = []
	for i in cards.size():
		var count := {"error": 0, "warning": 0}
		for diagnostic: Variant in findings[i] if i < findings.size() else []:
			var severity := str(diagnostic.get("severity"))
			if count.has(severity):
				count[severity] += 1
		_counts.append(count)
	_selected = selected
	_refill()
	for action: String in ["duplicate", "rename", "delete"]:
		(buttons[action] as Button).disabled = selected < 0


## The text a card shows in the list: its name and id.
static func card_label(card: Variant) -> String:
	if not card is Dictionary:
		return "(not a card: %s)" % JSON.stringify(card).left(24)
	var id := str(card.get("id", "?"))
	var card_name := str(card.get("name", ""))
	return id if card_name.is_empty() or card_name == id else "%s  (%s)" % [card_name, id]


## The middle of each shown card's row (by card index) and of the buttons, global coordinates.
func layout_points() -> Dictionary:
	var rows := {}
	for row in list.item_count:
		var rect := list.get_item_rect(row)
		var at := (
			list.get_global_transform_with_canvas()
			* (rect.get_center() - Vector2(0, list.get_v_scroll_bar().value))
		)
		rows[str(_index_of(row))] = [roundi(at.x), roundi(at.y)]
	var points := {"cards": rows, "search": _middle(search)}
	for action: String in buttons:
		points[action] = _middle(buttons[action])
	return points


func _refill() -> void:
	list.clear()
	var needle := search.text.strip_edges().to_lower()
	for i in _cards.size():
		var label := card_label(_cards[i])
		if not needle.is_empty() and not _matches(_cards[i], needle):
			continue
		var count: Dictionary = _counts[i] if i < _counts.size() else {}
		var problems := int(count.get("error", 0)) + int(count.get("warning", 0))
		var row := list.add_item(label if problems == 0 else "%s   [%d]" % [label, problems])
		list.set_item_metadata(row, i)
		if int(count.get("error", 0)) > 0:
			list.set_item_custom_fg_color(row, MARK_COLORS["error"])
		elif problems > 0:
			list.set_item_custom_fg_color(row, MARK_COLORS["warning"])
		if i == _selected:
			list.select(row)
			list.ensure_current_is_visible()


func _index_of(row: int) -> int:
	return int(list.get_item_metadata(row)) if row >= 0 and row < list.item_count else -1


static func _matches(card: Variant, needle: String) -> bool:
	if not card is Dictionary:
		return JSON.stringify(card).to_lower().contains(needle)
	for key: String in ["id", "name", "text"]:
		if str(card.get(key, "")).to_lower().contains(needle):
			return true
	return false


static func _middle(control: Control) -> Array:
	var at := control.get_global_transform_with_canvas() * (control.size * 0.5)
	return [roundi(at.x), roundi(at.y)]
