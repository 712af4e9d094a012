class_name DemoSides
extends RefCounted
## A side of a battle between two card-playing sides, as the duel screens show it: its typed
## state and the name it goes by.


## The side [param team] of [param view]'s battle state, typed (a blank one, at zero, when
## there is none).
static func of(view: PyBridgeBattleView, team: String) -> PyBridge.Side:
	var found: PyBridge.Side = null
	if view.battle_state != null and not team.is_empty():
		found = view.battle_state.side(team)
	return found if found != null else PyBridge.Side.new()


## The name a side goes by: its active player's (the state's), in the player's language.
static func name_of(view: PyBridgeBattleView, team: String) -> String:
	var player := of(view, team).active_player
	if player.is_empty():
		player = team
	return str(view.names().get("units", {}).get(player, player))
