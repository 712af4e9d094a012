@tool
extends VBoxContainer
## The card as JSON, for what the graph and the form cannot show: a card that is not an
## object, a Behavior that is not a graph, a field of a type nothing edits. Apply replaces the
## card with what is written here; text that is not JSON is refused, naming the line.

## The designer applied [param card] (any JSON value).
signal card_replaced(card: Variant)

## The JSON of the card.
var code: CodeEdit = null
## What went wrong with the last Apply.
var status: Label = null
## Apply.
var apply_button: Button = null


func _init() -> void:
	code = CodeEdit.new()
	code.size_flags_vertical = Control.SIZE_EXPAND_FILL
	code.gutters_draw_line_numbers = true
	code.indent_automatic = true
	code.set_meta("field", "json")
	add_child(code)
	var bar := HBoxContainer.new()
	status = Label.new()
	status.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	status.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	bar.add_child(status)
	apply_button = Button.new()
	apply_button.text = "Apply"
	apply_button.tooltip_text = "Replace the card with this JSON"
	apply_button.pressed.connect(_apply)
	bar.add_child(apply_button)
	add_child(bar)


## Shows [param card] (as written), unless the designer is typing in it.
func show_card(card: Variant) -> void:
	if code.has_focus():
		return
	var text := JSON.stringify(card, "  ", false)
	if code.text != text:
		code.text = text
	status.text = ""


func _apply() -> void:
	var json := JSON.new()
	if json.parse(code.text) != OK:
		status.text = "Not JSON, line %d: %s" % [json.get_error_line(), json.get_error_message()]
		status.add_theme_color_override("font_color", Color("ff6b8a"))
		return
	status.text = "Applied."
	status.remove_theme_color_override("font_color")
	card_replaced.emit(PyBridgeClient.integral(json.data))
