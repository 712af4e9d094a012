@tool
extends VBoxContainer
## The card's player-facing text: what the designer wrote, beside what the runtime writes
## from the Behavior ([code]describe[/code]), the checker's warnings about the text (editor
## words such as source or node names in it, promises the Behavior does not keep) and a
## one-click "Use generated text".

## The designer edited the text.
signal text_edited(text: String)
## The designer asked for the generated text.
signal use_generated_requested

## Colour of the generated text.
const GENERATED_COLOR := Color("a8e6b8")
## Colour of warnings about the text.
const WARNING_COLOR := Color("ffb347")

## The designer's text.
var editor: TextEdit = null
## The generated text.
var generated: Label = null
## Warnings about the text.
var warning: Label = null
## "Use generated text".
var use_button: Button = null

var _filling: bool = false


func _init() -> void:
	var heading := Label.new()
	heading.text = "Card text"
	add_child(heading)
	editor = TextEdit.new()
	editor.custom_minimum_size.y = 64
	editor.wrap_mode = TextEdit.LINE_WRAPPING_BOUNDARY
	editor.placeholder_text = "What the player reads on the card"
	editor.set_meta("field", "text")
	editor.text_changed.connect(_on_text_changed)
	# text_changed comes deferred, after the frame's other work: a check shown in between
	# would put the card's older text back into the editor and drop the keys just typed.
	# lines_edited_from comes with the edit itself.
	editor.lines_edited_from.connect(func(_from: int, _to: int) -> void: _on_text_changed())
	add_child(editor)
	var generated_heading := Label.new()
	generated_heading.text = "Generated from the Behavior"
	generated_heading.add_theme_font_size_override("font_size", 12)
	generated_heading.add_theme_color_override("font_color", Color("b8b3c9"))
	add_child(generated_heading)
	generated = Label.new()
	generated.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	generated.add_theme_color_override("font_color", GENERATED_COLOR)
	add_child(generated)
	warning = Label.new()
	warning.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	warning.add_theme_color_override("font_color", WARNING_COLOR)
	warning.add_theme_font_size_override("font_size", 13)
	add_child(warning)
	use_button = Button.new()
	use_button.text = "Use generated text"
	use_button.tooltip_text = "Replace the card's text with the generated one"
	use_button.pressed.connect(use_generated_requested.emit)
	add_child(use_button)


## Shows the card's [param authored] text, the runtime's [param made] answer
## ([code]{"text"}[/code] or [code]{"error"}[/code]) and the diagnostics about the text.
func show_text(authored: String, made: Dictionary, about_text: Array) -> void:
	if editor.text != authored:
		_filling = true
		var column := editor.get_caret_column()
		editor.text = authored
		editor.set_caret_column(column)
		_filling = false
	if made.has("text"):
		generated.text = (
			str(made["text"])
			if not str(made["text"]).is_empty()
			else "(the Behavior does nothing a player would read)"
		)
		generated.add_theme_color_override("font_color", GENERATED_COLOR)
	else:
		generated.text = "No text until the card loads (see the checks)."
		generated.add_theme_color_override("font_color", Color("8a8794"))
	use_button.disabled = (
		not made.has("text") or str(made["text"]) == authored or str(made["text"]).is_empty()
	)
	var lines := PackedStringArray()
	for diagnostic: Variant in about_text:
		lines.append("%s: %s" % [diagnostic.get("code"), diagnostic.get("message")])
	warning.text = "\n".join(lines)
	warning.visible = not lines.is_empty()


## Points of the editor and the button, global coordinates.
func layout_points() -> Dictionary:
	var points := {}
	for key: String in ["editor", "use_generated"]:
		var control: Control = editor if key == "editor" else use_button
		var at := control.get_global_transform_with_canvas() * (control.size * 0.5)
		points[key] = [roundi(at.x), roundi(at.y)]
	return points


func _on_text_changed() -> void:
	if not _filling:
		text_edited.emit(editor.text)
