@tool
extends EditorPlugin
## Registers the addon while it is enabled: the [code]Bridge[/code] autoload (a
## [PyBridgeClient]), the Web export plugin that puts Python beside an exported page, and the
## battle view's input actions with their default events (see [PyBridgeBattleInput]), written
## into the project so they show in Project Settings > Input Map to be rebound. An action the
## project already has is left as it is.
##
## The nodes themselves ([PyBridgeClient], [PyBridgeBattleView], [PyBridgeAimArrow],
## [PyBridgeUnitView], [PyBridgeCardView]) are global classes and need no registration.

const AUTOLOAD_NAME := "Bridge"
const AUTOLOAD_PATH := "res://addons/pybridge_targeting/pybridge_client.gd"
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
	var bindings := PyBridgeBattleInput.default_bindings()
	var added := false
	for action: StringName in bindings:
		var setting := "input/" + action
		if not ProjectSettings.has_setting(setting):
			ProjectSettings.set_setting(setting, {"deadzone": 0.5, "events": bindings[action]})
			added = true
	if added:
		ProjectSettings.save()


func _disable_plugin() -> void:
	if ProjectSettings.has_setting("autoload/" + AUTOLOAD_NAME):
		remove_autoload_singleton(AUTOLOAD_NAME)
