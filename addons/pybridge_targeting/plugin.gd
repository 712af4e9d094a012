@tool
extends EditorPlugin
## Registers the addon: the [code]Bridge[/code] autoload (a [PyBridgeClient]) while enabled.
##
## The nodes themselves ([PyBridgeClient], [BattleView], [AimArrow], [UnitView], [CardView])
## are global classes and need no registration.

const AUTOLOAD_NAME := "Bridge"
const AUTOLOAD_PATH := "res://addons/pybridge_targeting/bridge.gd"


func _enable_plugin() -> void:
	if not ProjectSettings.has_setting("autoload/" + AUTOLOAD_NAME):
		add_autoload_singleton(AUTOLOAD_NAME, AUTOLOAD_PATH)


func _disable_plugin() -> void:
	if ProjectSettings.has_setting("autoload/" + AUTOLOAD_NAME):
		remove_autoload_singleton(AUTOLOAD_NAME)
