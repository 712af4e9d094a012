@tool
extends EditorPlugin
## Registers the addon: the [code]Bridge[/code] autoload (a [PyBridgeClient]) while enabled,
## and the Web export plugin that puts Python beside an exported page.
##
## The nodes themselves ([PyBridgeClient], [BattleView], [AimArrow], [UnitView], [CardView])
## are global classes and need no registration.

const AUTOLOAD_NAME := "Bridge"
const AUTOLOAD_PATH := "res://addons/pybridge_targeting/bridge.gd"
const WebExportPlugin := preload("res://addons/pybridge_targeting/web_export_plugin.gd")

var _web_export: EditorExportPlugin = null


func _enter_tree() -> void:
	_web_export = WebExportPlugin.new()
	add_export_plugin(_web_export)


func _exit_tree() -> void:
	if _web_export != null:
		remove_export_plugin(_web_export)
		_web_export = null


func _enable_plugin() -> void:
	if not ProjectSettings.has_setting("autoload/" + AUTOLOAD_NAME):
		add_autoload_singleton(AUTOLOAD_NAME, AUTOLOAD_PATH)


func _disable_plugin() -> void:
	if ProjectSettings.has_setting("autoload/" + AUTOLOAD_NAME):
		remove_autoload_singleton(AUTOLOAD_NAME)
