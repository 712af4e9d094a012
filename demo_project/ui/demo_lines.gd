class_name DemoLines
extends RefCounted
## The machine-readable lines the demo prints for tools and tests, one per thing worth
## knowing: [code]PYBRIDGE <kind> <json>[/code] (demo_project/README.md lists the kinds).

## Every machine-readable line starts with this word.
const PREFIX := "PYBRIDGE"


## Prints a [param kind] line with [param data] as its JSON.
static func say(kind: String, data: Variant) -> void:
	print("%s %s %s" % [PREFIX, kind, JSON.stringify(PyBridgeClient.integral(data))])


## Prints a [param kind] line with the runtime's exact response text [param raw_json].
static func say_raw(kind: String, raw_json: String) -> void:
	print("%s %s %s" % [PREFIX, kind, raw_json])


## Prints an [code]error[/code] line ([code]code[/code], [code]message[/code]) for each
## request of [param bridge] that fails, and says on [param battle_log] that the runtime
## refused it.
static func follow_failures(bridge: PyBridgeClient, battle_log: PyBridgeBattleLog) -> void:
	bridge.request_failed.connect(
		func(code: String, message: String) -> void:
			say("error", {"code": code, "message": message})
			battle_log.add_line(battle_log.tr("The runtime refused: %s") % message, "error")
	)


## [param point] as [code][x, y][/code], rounded to whole pixels.
static func xy(point: Vector2) -> Array:
	return [roundi(point.x), roundi(point.y)]


## The centre of [param control] as [code][x, y][/code] (global).
static func center_of(control: Control) -> Array:
	return xy(control.get_global_rect().get_center())


## The ids of the hand's cards of [param state]'s player side, for the lines that name the
## hand.
static func hand_ids(state: PyBridge.BattleState) -> Array[String]:
	var ids: Array[String] = []
	var side := state.side("player") if state != null else null
	for instance: PyBridge.Card in side.hand if side != null else []:
		ids.append(instance.id)
	return ids


## The layout points of a duel screen: [param view]'s own, the centres of [param end_turn],
## [param menu] and [param cut]'s Pass and Respond, and [code]play[/code], a spot in the play
## area on no unit (left, just below [param upper_row], the upper row of units).
static func duel_points(
	view: PyBridgeBattleView,
	cut: PyBridgeCutView,
	end_turn: Button,
	menu: Button,
	upper_row: Control
) -> Dictionary:
	var points := view.layout_points()
	points["end_turn"] = center_of(end_turn)
	points["menu"] = center_of(menu)
	points["pass"] = center_of(cut.pass_button)
	points["respond"] = center_of(cut.respond_button)
	var row := upper_row.get_global_rect()
	points["play"] = xy(Vector2(row.position.x + 60.0, row.end.y + 2.0))
	return points
