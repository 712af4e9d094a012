extends Control
## The demo's first screen: the party battle (three against three, soft rules, a hand of every
## target mode), the trading-card duel (the strict law and its Cut), the hot-seat duel of two
## card-playing sides, or that duel online, one seat per screen. A click, the keys 1 to 4, or
## the arrows and Enter choose. Prints [code]PYBRIDGE menu {"party", "duel", "rivals",
## "online"}[/code]: the screen points of the choices.

## The party battle.
const PARTY_SCENE := "res://main.tscn"
## The duel.
const DUEL_SCENE := "res://duel.tscn"
## The hot-seat duel of two card-playing sides.
const RIVALS_SCENE := "res://rivals.tscn"
## The duel online, against a player at another screen.
const ONLINE_SCENE := "res://online.tscn"

@onready var _party_button: Button = $Box/Choices/PartyButton
@onready var _duel_button: Button = $Box/Choices/DuelButton
@onready var _rivals_button: Button = $Box/Choices/RivalsButton
@onready var _online_button: Button = $Box/Choices/OnlineButton


func _ready() -> void:
	theme = DemoTheme.build()
	_party_button.pressed.connect(_go.bind(PARTY_SCENE))
	_duel_button.pressed.connect(_go.bind(DUEL_SCENE))
	_rivals_button.pressed.connect(_go.bind(RIVALS_SCENE))
	_online_button.pressed.connect(_go.bind(ONLINE_SCENE))
	_party_button.grab_focus()
	_show_credit()
	await get_tree().process_frame
	(
		DemoLines
		. say(
			"menu",
			{
				"party": DemoLines.center_of(_party_button),
				"duel": DemoLines.center_of(_duel_button),
				"rivals": DemoLines.center_of(_rivals_button),
				"online": DemoLines.center_of(_online_button),
			}
		)
	)


# The credit the art's licence asks for, at the foot of the screen.
func _show_credit() -> void:
	var credit := DemoArt.credit()
	if credit.is_empty():
		return
	var label := Label.new()
	label.name = "Credits"
	label.text = credit
	label.theme_type_variation = &"DimLabel"
	label.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	label.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED  # names and a licence
	label.add_theme_font_size_override(&"font_size", 13)
	label.position = Vector2(24, 652)
	label.size = Vector2(1090, 52)
	add_child(label)


func _unhandled_key_input(event: InputEvent) -> void:
	var key := event as InputEventKey
	if key == null or not key.pressed or key.echo:
		return
	if key.keycode == KEY_1:
		_go(PARTY_SCENE)
	elif key.keycode == KEY_2:
		_go(DUEL_SCENE)
	elif key.keycode == KEY_3:
		_go(RIVALS_SCENE)
	elif key.keycode == KEY_4:
		_go(ONLINE_SCENE)


func _draw() -> void:
	var w := size.x
	var h := size.y
	draw_polygon(
		PackedVector2Array([Vector2(0, 0), Vector2(w, 0), Vector2(w, h), Vector2(0, h)]),
		PackedColorArray([Color("1d1738"), Color("241a33"), Color("0d0a14"), Color("0b0d18")])
	)


func _go(scene: String) -> void:
	get_tree().change_scene_to_file(scene)
