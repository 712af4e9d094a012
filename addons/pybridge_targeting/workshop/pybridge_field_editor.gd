@tool
extends RefCounted
## Makes the control that edits one field, from the field's entry in the runtime's schema
## ([code]type[/code], [code]choices[/code], [code]required[/code], [code]default[/code],
## [code]doc[/code], and [code]suggests[/code]: the word list an id's values are drawn from,
## whose words in use a [code]Completer[/code] offers).
##
## A value the designer types is kept as typed when it is not what the field takes (the
## runtime then names the problem): a count written [code]3x[/code] stays [code]"3x"[/code]
## until it is fixed. Every control carries the field's name as its [code]field[/code] meta.

const Completer := preload("res://addons/pybridge_targeting/workshop/pybridge_completer.gd")
const WhereEditor := preload("res://addons/pybridge_targeting/workshop/pybridge_where_editor.gd")
## The label of "no value" in a choice list.
const UNSET := "—"


## A control for [param field] showing [param value]; [param changed] gets the new value
## (null when the field is cleared). [param filter_keys]: the filter keys a
## [code]where[/code] field offers.
static func make(
	field: Dictionary, value: Variant, changed: Callable, filter_keys: Array = []
) -> Control:
	var control: Control
	match str(field.get("type", "")):
		"choice":
			var docs: Dictionary = field.get("choice_docs", {})
			control = _choice(PackedStringArray(field.get("choices", [])), value, changed, docs)
		"boolean":
			var to_bool := func(picked: Variant) -> void: changed.call(_bool_value(picked))
			control = _choice(PackedStringArray(["true", "false"]), _bool_text(value), to_bool)
		"integer", "amount":
			control = _line(value, _hint(field), changed, true)
		"where":
			control = WhereEditor.new(value, filter_keys, changed)
		"id":
			control = _line(value, _hint(field), changed, false)
			if str(field.get("suggests", "")) != "":
				# The words of the game's data this field takes, offered while it is typed.
				var line := control as LineEdit
				line.add_child(Completer.new(line, Callable(), str(field["suggests"])))
		_:
			control = _json_line(value, changed)
	control.set_meta("field", str(field.get("name", "")))
	control.tooltip_text = str(field.get("doc", ""))
	if control is OptionButton:
		# The field, then what the chosen value means; each item says its own when hovered.
		var button := control as OptionButton
		var about := str(field.get("doc", ""))
		var show_chosen := func(i: int) -> void:
			var tip := button.get_item_tooltip(i) if i >= 0 else ""
			button.tooltip_text = (
				about + ("\n%s: %s" % [button.get_item_text(i), tip] if tip != "" else "")
			)
		show_chosen.call(button.selected)
		button.item_selected.connect(show_chosen)
	control.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	return control


## What the designer typed as a number field's value: an int, null when empty, else the
## text as it is.
static func number_from(text: String) -> Variant:
	var trimmed := text.strip_edges()
	if trimmed.is_empty():
		return null
	if trimmed.is_valid_int():
		return trimmed.to_int()
	return trimmed


static func _choice(
	choices: PackedStringArray, value: Variant, changed: Callable, docs: Dictionary = {}
) -> OptionButton:
	var button := OptionButton.new()
	button.fit_to_longest_item = false
	button.clip_text = true
	button.add_item(UNSET)
	button.set_item_metadata(0, null)
	for choice in choices:
		button.add_item(choice)
		button.set_item_metadata(button.item_count - 1, choice)
		button.set_item_tooltip(button.item_count - 1, str(docs.get(choice, "")))
	var selected := 0
	if value != null:
		selected = choices.find(str(value)) + 1
		if selected == 0:
			# A value the runtime does not know (a typo in the file): shown, so it can be fixed.
			button.add_item("%s (unknown)" % str(value))
			button.set_item_metadata(button.item_count - 1, value)
			selected = button.item_count - 1
	button.select(selected)
	button.item_selected.connect(func(i: int) -> void: changed.call(button.get_item_metadata(i)))
	return button


static func _line(value: Variant, hint: String, changed: Callable, numeric: bool) -> LineEdit:
	var line := LineEdit.new()
	line.text = "" if value == null else str(value)
	line.placeholder_text = hint
	line.select_all_on_focus = true
	line.custom_minimum_size.x = 90
	line.text_changed.connect(func(text: String) -> void: changed.call(_typed(text, numeric)))
	return line


static func _json_line(value: Variant, changed: Callable) -> LineEdit:
	var line := LineEdit.new()
	line.text = JSON.stringify(value)
	line.select_all_on_focus = true
	line.text_changed.connect(func(text: String) -> void: changed.call(_parsed(text)))
	return line


static func _typed(text: String, numeric: bool) -> Variant:
	if numeric:
		return number_from(text)
	return null if text.strip_edges().is_empty() else text.strip_edges()


static func _parsed(text: String) -> Variant:
	var parsed: Variant = JSON.parse_string(text)
	return PyBridgeClient.integral(parsed) if parsed != null else text


static func _hint(field: Dictionary) -> String:
	if bool(field.get("required", false)):
		return "required"
	if field.get("default") != null:
		# JSON numbers arrive as floats: a whole default reads "3", not "3.0".
		var shown: Variant = PyBridgeClient.integral(field["default"])
		return "default %s" % (shown if shown is String else JSON.stringify(shown))
	return "optional"


static func _bool_text(value: Variant) -> Variant:
	if value is bool:
		return "true" if value else "false"
	return value


static func _bool_value(picked: Variant) -> Variant:
	if picked is String and picked in ["true", "false"]:
		return picked == "true"
	return picked
