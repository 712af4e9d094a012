class_name DemoArt
extends RefCounted
## The demo's unit portraits and card art: icons of the Game Icons set (CC BY 3.0, see the
## demo's README), which [code]pybridge demo[/code] draws into [code]res://art/icons/[/code]
## when it packs the demo ([code]unit_<unit id>.svg[/code], [code]card_<card id>.svg[/code],
## chosen in [code]res://art/game_icons.json[/code]). They are handed to the battle views
## through their [member PyBridgeBattleView.art_provider]; a unit or card without a file keeps
## the view's own look (initials, the target mode's glyph).

## Where the drawn icons are.
const FOLDER := "res://art/icons"
## The credit the icons' licence asks for, as the pack writes it.
const CREDITS_FILE := "res://art/icons/CREDITS.txt"

static var _loaded: Dictionary = {}


## The art of [param kind] ([code]unit[/code] or [code]card[/code]) [param id] (the unit's id,
## the card's definition id), or null: the battle views' art provider.
static func provide(kind: String, id: String, _data: Dictionary) -> Texture2D:
	var path := "%s/%s_%s.svg" % [FOLDER, kind, id]
	if not _loaded.has(path):
		_loaded[path] = _load(path)
	return _loaded[path]


## Gives [param view] the demo's art.
static func use(view: PyBridgeBattleView) -> void:
	view.art_provider = provide


## The credit of the icons ([code]""[/code] when the demo was packed without them).
static func credit() -> String:
	if not FileAccess.file_exists(CREDITS_FILE):
		return ""
	return FileAccess.get_file_as_string(CREDITS_FILE).strip_edges()


# The packed demo holds the raw SVG (no import): Godot's SVG loader draws it into an image.
static func _load(path: String) -> Texture2D:
	if not FileAccess.file_exists(path):
		return null
	var image := Image.new()
	if image.load_svg_from_buffer(FileAccess.get_file_as_bytes(path)) != OK or image.is_empty():
		push_warning("DemoArt: %s does not draw" % path)
		return null
	image.generate_mipmaps()
	return ImageTexture.create_from_image(image)
