class_name DemoMenu
extends RefCounted
## The way from a battle screen back to the start screen: its Menu buttons and, where a
## screen offers it, the M key.

## The start screen.
const START_SCENE := "res://start.tscn"


## Takes [param screen]'s tree to the start screen.
static func back(screen: Node) -> void:
	screen.get_tree().change_scene_to_file(START_SCENE)


## Makes each of [param buttons] call [param leave]; without one, each takes [param screen]
## back to the start screen.
static func connect_buttons(screen: Node, buttons: Array[Button], leave := Callable()) -> void:
	var go := leave if leave.is_valid() else func() -> void: back(screen)
	for button in buttons:
		button.pressed.connect(go)


## Gives [param button] the M key (keyboard players need no mouse to leave), and says so on it.
static func add_key(button: Button) -> void:
	var key := InputEventKey.new()
	key.keycode = KEY_M
	button.shortcut = Shortcut.new()
	button.shortcut.events = [key]
	button.text = button.tr("Menu (M)")
