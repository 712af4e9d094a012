@tool
extends RefCounted
## The theme items the built-in views draw with, looked up the Godot way with the addon's
## default theme behind them.
##
## A view asks for an item of its theme type ([code]PyBridgeCardView[/code],
## [code]PyBridgeUnitView[/code], [code]PyBridgeBattleView[/code], [code]PyBridgeAimArrow[/code],
## [code]PyBridgeTooltip[/code]): a [Theme] on the view or any of its parents, or the project's
## theme, wins when it defines that item; otherwise the value comes from
## [code]pybridge_default_theme.tres[/code], shipped beside this script. A game restyles the
## views by defining only the items it wants to change.

## The theme every item falls back to.
const DEFAULT_THEME_PATH := "res://addons/pybridge_targeting/pybridge_default_theme.tres"

static var _default: Theme = null


## The addon's default theme (loaded once).
static func default_theme() -> Theme:
	if _default == null:
		_default = load(DEFAULT_THEME_PATH) as Theme
		if _default == null:
			push_error("PyBridge: the default theme %s is missing" % DEFAULT_THEME_PATH)
			_default = Theme.new()
	return _default


## The colour [param item] of [param type] as [param control] sees it.
static func color(control: Control, item: StringName, type: StringName) -> Color:
	if control.has_theme_color(item, type):
		return control.get_theme_color(item, type)
	return default_theme().get_color(item, type)


## A colour named from data ([code]frame_attack[/code] for a card of type
## [code]attack[/code]): [param item] when any theme defines it, else [param fallback].
static func color_or(
	control: Control, item: StringName, fallback: StringName, type: StringName
) -> Color:
	if control.has_theme_color(item, type) or default_theme().has_color(item, type):
		return color(control, item, type)
	return color(control, fallback, type)


## The constant [param item] of [param type] (sizes and spacings in pixels).
static func constant(control: Control, item: StringName, type: StringName) -> int:
	if control.has_theme_constant(item, type):
		return control.get_theme_constant(item, type)
	return default_theme().get_constant(item, type)


## The font size [param item] of [param type].
static func font_size(control: Control, item: StringName, type: StringName) -> int:
	var found := _defining_theme(control, Theme.DATA_TYPE_FONT_SIZE, item, type)
	return (found if found != null else default_theme()).get_font_size(item, type)


## The font [param item] of [param type] ([code]font[/code], [code]bold_font[/code]); the
## control's default font when no theme has one ([code]bold_font[/code]: that font
## emboldened).
static func font(control: Control, item: StringName, type: StringName) -> Font:
	var found := _defining_theme(control, Theme.DATA_TYPE_FONT, item, type)
	if found == null and item in default_theme().get_font_list(type):
		found = default_theme()
	if found != null:
		return found.get_font(item, type)
	var base := control.get_theme_default_font()
	if item != &"bold_font":
		return base
	var bold := FontVariation.new()
	bold.base_font = base
	bold.variation_embolden = 0.7
	return bold


## The style box [param item] of [param type].
static func stylebox(control: Control, item: StringName, type: StringName) -> StyleBox:
	if control.has_theme_stylebox(item, type):
		return control.get_theme_stylebox(item, type)
	return default_theme().get_stylebox(item, type)


# Fonts and font sizes: a theme "has" every one of them once it has a default font (size), so
# the themes on the way up are asked for the items they really define.
static func _defining_theme(
	control: Control, data_type: Theme.DataType, item: StringName, type: StringName
) -> Theme:
	var node: Node = control
	while node != null:
		var theme: Theme = null
		if node is Control:
			theme = (node as Control).theme
		elif node is Window:
			theme = (node as Window).theme
		if theme != null and item in theme.get_theme_item_list(data_type, type):
			return theme
		node = node.get_parent()
	var project := ThemeDB.get_project_theme()
	if project != null and item in project.get_theme_item_list(data_type, type):
		return project
	return null


## The lookups of one view's own theme type: its fonts (the bold one kept until
## [method forget], as a view does when its theme changes), colours, constants and sizes.
class Lookup:
	extends RefCounted

	var _control: Control
	var _type: StringName
	var _bold: Font = null

	func _init(control: Control, type: StringName) -> void:
		_control = control
		_type = type

	func font() -> Font:
		return PyBridge.ViewTheme.font(_control, &"font", _type)

	func bold_font() -> Font:
		if _bold == null:
			_bold = PyBridge.ViewTheme.font(_control, &"bold_font", _type)
		return _bold

	func color(item: StringName) -> Color:
		return PyBridge.ViewTheme.color(_control, item, _type)

	func constant(item: StringName) -> int:
		return PyBridge.ViewTheme.constant(_control, item, _type)

	func font_size(item: StringName) -> int:
		return PyBridge.ViewTheme.font_size(_control, item, _type)

	func forget() -> void:
		_bold = null
