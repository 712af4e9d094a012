@tool
extends RefCounted
## Portrait and card art as textures, from the [code]art[/code] paths of the battle data
## (docs/format.md) or from what the game hands the battle view.
##
## A path is a [code]res://[/code] path the runtime has checked. It loads as an imported
## [Texture2D] when the project has one there, else (a raw image packed without import) as
## an image; a path that does not load gives null, reported once, and the view draws its
## default look. Loaded textures are kept for the next ask.

## Raw image files that can be read without an import.
const IMAGE_EXTENSIONS: PackedStringArray = ["png", "jpg", "jpeg", "webp", "svg", "bmp", "tga"]

static var _loaded: Dictionary = {}


## The texture at [param path], or null (an empty path, or nothing loadable there).
static func texture(path: String) -> Texture2D:
	if path.is_empty():
		return null
	if _loaded.has(path):
		return _loaded[path]
	var found: Texture2D = null
	if path.begins_with("res://") and not ".." in path:
		if ResourceLoader.exists(path, "Texture2D"):
			found = ResourceLoader.load(path, "Texture2D") as Texture2D
		elif path.get_extension().to_lower() in IMAGE_EXTENSIONS and FileAccess.file_exists(path):
			var image := Image.load_from_file(path)
			if image != null and not image.is_empty():
				found = ImageTexture.create_from_image(image)
	if found == null:
		push_warning("PyBridge: no texture at the art path %s" % path)
	_loaded[path] = found
	return found


## The art for a unit or card: [param given] (what the game hands the view for this id), else
## the texture at the data's [param path], else null.
static func pick(given: Variant, path: Variant) -> Texture2D:
	if given is Texture2D:
		return given
	return texture(str(path)) if path is String else null


## Forgets every loaded texture (e.g. after the game swapped its art files).
static func forget() -> void:
	_loaded.clear()
