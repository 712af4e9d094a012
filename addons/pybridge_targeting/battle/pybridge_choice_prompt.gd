@tool
extends PanelContainer
## What a choice of units asks while it is made: what chooses, how many it takes and how
## many are chosen, with Confirm (an "up to" card may be confirmed early) and Cancel. The
## [PyBridgeBattleView] shows it over the field for a card that takes more than one unit and
## for a late choice; the counts are the runtime's ([PyBridge.Choice]).

## Confirm was pressed.
signal confirm_pressed
## Cancel was pressed.
signal cancel_pressed

const BattleInput := preload("res://addons/pybridge_targeting/battle/pybridge_battle_input.gd")
const BattleLayout := preload("res://addons/pybridge_targeting/battle/pybridge_battle_layout.gd")

## The Confirm button.
var confirm_button: Button = Button.new()
## The Cancel button.
var cancel_button: Button = Button.new()

var _text: Label = Label.new()


func _init() -> void:
	visible = false
	z_index = 50
	var line := HBoxContainer.new()
	line.add_theme_constant_override(&"separation", 10)
	add_child(line)
	_text.vertical_alignment = VERTICAL_ALIGNMENT_CENTER
	line.add_child(_text)
	for button in [confirm_button, cancel_button]:
		button.focus_mode = Control.FOCUS_NONE
		line.add_child(button)
	confirm_button.pressed.connect(func() -> void: confirm_pressed.emit())
	cancel_button.pressed.connect(func() -> void: cancel_pressed.emit())


## Shows [param choice] of [param title] (the card's name) centred on [param center]
## (global), or hides the prompt when [param choice] is null.
func show_choice(choice: PyBridge.Choice, title: String, center: Vector2) -> void:
	visible = choice != null
	if choice == null:
		return
	_text.text = choice.prompt_text(title)
	confirm_button.text = BattleInput.with_key(tr("Confirm"), BattleInput.CONFIRM)
	cancel_button.text = BattleInput.with_key(tr("Cancel"), BattleInput.CANCEL)
	confirm_button.disabled = not choice.can_confirm
	reset_size()
	global_position = (center - size * 0.5).round()


## What it shows now: [code]{"visible", "text", "confirm": {"enabled", "point"},
## "cancel": {"point"}}[/code] (points global).
func shown() -> Dictionary:
	return {
		"visible": visible,
		"text": _text.text,
		"confirm":
		{
			"enabled": not confirm_button.disabled,
			"point": BattleLayout.xy(confirm_button.get_global_rect().get_center())
		},
		"cancel": {"point": BattleLayout.xy(cancel_button.get_global_rect().get_center())},
	}
