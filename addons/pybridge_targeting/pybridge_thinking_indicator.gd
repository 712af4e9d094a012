@tool
@icon("res://addons/pybridge_targeting/icons/pybridge_client.svg")
class_name PyBridgeThinkingIndicator
extends PanelContainer
## Shows that the search AI is thinking of a move ([method PyBridgeClient.think]): its words
## and how far it is, while [member bridge] thinks, and nothing otherwise. The page keeps
## drawing meanwhile (the client searches a slice a frame), so the bar moves as it thinks.

## The client whose thinking this shows.
@export var bridge: PyBridgeClient:
	set(value):
		if bridge != null and bridge.thinking_changed.is_connected(_on_thinking_changed):
			bridge.thinking_changed.disconnect(_on_thinking_changed)
			bridge.think_progressed.disconnect(_on_progressed)
		bridge = value
		if bridge != null and not Engine.is_editor_hint():
			bridge.thinking_changed.connect(_on_thinking_changed)
			bridge.think_progressed.connect(_on_progressed)
		update_configuration_warnings()
## What it says while the AI thinks ("Vex is thinking...").
@export var text: String = "Thinking...":
	set(value):
		text = value
		if _label != null:
			_label.text = value

var _label: Label = null
var _bar: ProgressBar = null


func _ready() -> void:
	mouse_filter = Control.MOUSE_FILTER_IGNORE
	var rows := VBoxContainer.new()
	rows.mouse_filter = Control.MOUSE_FILTER_IGNORE
	_label = Label.new()
	_label.text = text
	_label.horizontal_alignment = HORIZONTAL_ALIGNMENT_CENTER
	_bar = ProgressBar.new()
	_bar.show_percentage = false
	_bar.custom_minimum_size = Vector2(0, 8)
	_bar.max_value = 1.0
	_bar.step = 0.0
	rows.add_child(_label)
	rows.add_child(_bar)
	add_child(rows)
	visible = bridge != null and bridge.thinking and not Engine.is_editor_hint()


func _get_configuration_warnings() -> PackedStringArray:
	if bridge == null:
		return PackedStringArray(["Set bridge to the PyBridgeClient whose thinking to show."])
	return PackedStringArray()


## The words shown now and whether they show: [code]{"visible", "text", "progress"}[/code].
func shown() -> Dictionary:
	var progress := 0.0 if _bar == null else _bar.value
	return {"visible": is_visible_in_tree(), "text": text, "progress": progress}


func _on_thinking_changed(is_thinking: bool) -> void:
	if _bar != null:
		_bar.value = 0.0
	visible = is_thinking


func _on_progressed(searched: int, iterations: int) -> void:
	if _bar != null:
		_bar.value = float(searched) / float(maxi(iterations, 1))
