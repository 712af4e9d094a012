@tool
extends PanelContainer
## Suggestions under a comma-separated [LineEdit] (a card's tags or keywords, a Filter
## condition's one word): the words of [member words] that start with what is typed after the
## last comma, and are not in the field yet. Down and Up walk the list, Tab or Enter take the
## lit word, a click takes any, Escape hides it. It is a plain control drawn above the others,
## not a popup window, so the field keeps the keys while the designer types. It is top level:
## no container lays it out and no parent clips it, so it may be added inside the field.

## How many suggestions show at most.
const MOST := 8

## Gives the words to suggest ([code]func() -> PackedStringArray[/code]), asked on each key.
var words: Callable = Callable()
## The suggestions shown now.
var list: ItemList = null

var _line: LineEdit = null


## A completer of [param line] offering the words [param source] gives; with no source, the
## words of the schema's word list [param list_name] that the nearest ancestor with
## [code]suggested_words(list_name) -> PackedStringArray[/code] gives (the Workshop), asked on
## each key.
func _init(line: LineEdit, source: Callable, list_name: String = "") -> void:
	_line = line
	words = source if source.is_valid() or list_name.is_empty() else _words_near.bind(list_name)
	top_level = true
	visible = false
	z_index = 10
	mouse_filter = Control.MOUSE_FILTER_STOP
	var look := StyleBoxFlat.new()
	look.bg_color = Color("1d1a2b")
	look.border_color = Color("7f6fd0")
	look.set_border_width_all(1)
	look.set_content_margin_all(2)
	add_theme_stylebox_override("panel", look)
	list = ItemList.new()
	list.focus_mode = Control.FOCUS_NONE
	list.item_clicked.connect(func(index: int, _at: Vector2, _button: int) -> void: take(index))
	add_child(list)
	line.text_changed.connect(func(_text: String) -> void: refresh())
	line.focus_exited.connect(_hide_later)
	line.gui_input.connect(_on_line_input)


## Shows the words that complete what is typed after the last comma (none: hidden), under
## the field, or above it when there is no room below.
func refresh() -> void:
	list.clear()
	var parts := _line.text.split(",")
	var typed := parts[parts.size() - 1].strip_edges().to_lower()
	var present := PackedStringArray()
	for part in parts.slice(0, parts.size() - 1):
		present.append(part.strip_edges())
	if _line.has_focus() and not typed.is_empty() and words.is_valid():
		for word: String in words.call():
			if word.to_lower().begins_with(typed) and word.to_lower() != typed:
				if not word in present and list.item_count < MOST:
					list.add_item(word)
	visible = list.item_count > 0
	if visible:
		list.select(0)
		# The list measures its rows only once drawn: size it from its font and spacing now,
		# with no blank row under the last (a gap between the list and a field below it).
		var font := list.get_theme_font("font")
		var row := font.get_height(list.get_theme_font_size("font_size"))
		row += list.get_theme_constant("v_separation")
		var frame := list.get_theme_stylebox("panel").get_minimum_size().y
		# Drawn as the field is (a zoomed graph scales its nodes; this list is top level).
		var field := _line.get_global_rect()
		list.custom_minimum_size = Vector2(maxf(field.size.x, 160), row * list.item_count + frame)
		reset_size()
		# Under the field, or above it when the window ends first (a field low in the graph).
		var room := get_viewport_rect().size
		var at := field.position + Vector2(0, field.size.y)
		if at.y + size.y > room.y and field.position.y - size.y >= 0:
			at.y = field.position.y - size.y
		at.x = clampf(at.x, 0, maxf(room.x - size.x, 0))
		global_position = at


## The field it completes.
func line_edit() -> LineEdit:
	return _line


## The words shown now, in order.
func shown() -> PackedStringArray:
	var out := PackedStringArray()
	for i in list.item_count if visible else 0:
		out.append(list.get_item_text(i))
	return out


## Replaces what is typed after the last comma with suggestion [param index].
func take(index: int) -> void:
	if index < 0 or index >= list.item_count:
		return
	var parts := Array(_line.text.split(","))
	parts[parts.size() - 1] = (" " if parts.size() > 1 else "") + list.get_item_text(index)
	visible = false
	_line.text = ",".join(PackedStringArray(parts))
	_line.caret_column = _line.text.length()
	_line.text_changed.emit(_line.text)  # setting the text in code does not tell the form
	visible = false


func _on_line_input(event: InputEvent) -> void:
	var key := event as InputEventKey
	if not visible or key == null or not key.pressed:
		return
	var lit := list.get_selected_items()
	var at: int = lit[0] if not lit.is_empty() else -1
	match key.keycode:
		KEY_DOWN, KEY_UP:
			var step := 1 if key.keycode == KEY_DOWN else -1
			list.select(clampi(at + step, 0, list.item_count - 1))
		KEY_TAB, KEY_ENTER, KEY_KP_ENTER:
			take(at)
		KEY_ESCAPE:
			visible = false
		_:
			return
	_line.accept_event()


func _words_near(list_name: String) -> PackedStringArray:
	var node := get_parent()
	while node != null:
		if node.has_method("suggested_words"):
			return node.call("suggested_words", list_name)
		node = node.get_parent()
	return PackedStringArray()


func _hide_later() -> void:
	# A click on a suggestion takes the focus from the field first: let the click land. A
	# field that loses the focus by leaving the tree (its row rebuilt) has nothing to hide, and
	# a connection, unlike an await, ends with this list if it is freed first.
	if is_inside_tree():
		get_tree().create_timer(0.2).timeout.connect(_hide_unless_focused)


func _hide_unless_focused() -> void:
	if not _line.has_focus():
		visible = false
