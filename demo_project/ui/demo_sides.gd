class_name DemoSides
extends RefCounted
## A side of a battle between two card-playing sides, as the duel screens show it: its typed
## state, the name it goes by and the other side; and what the duel screens print of the
## plays.


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


## The other side of [param view]'s battle than [param team] (the state's sides;
## [code]""[/code] before a battle shows).
static func other_of(view: PyBridgeBattleView, team: String) -> String:
	if view.battle_state == null:
		return ""
	for each: PyBridge.Side in view.battle_state.sides:
		if each.team != team:
			return each.team
	return ""


## Prints what the duel screens tell of [param view]'s plays: [code]highlight[/code] and
## [code]target[/code] as the player aims, [code]activated[/code] and [code]turn[/code] (the
## runtime's answers, from [param bridge]); adds an activation's log lines to
## [param battle_log]; and tells each refusal: a [code]refused[/code] line
## ([code]op[/code], [code]reason[/code], [code]card[/code]) and [param toast] "Not now",
## the reason in the player's language.
static func follow_plays(
	view: PyBridgeBattleView,
	bridge: PyBridgeClient,
	battle_log: PyBridgeBattleLog,
	toast: DemoToast
) -> void:
	var refused := func(op: String, reason: String, card_id: String) -> void:
		DemoLines.say("refused", {"op": op, "reason": reason, "card": card_id})
		toast.flash(view.tr("Not now: %s") % reason, 1.8)
	view.highlight_changed.connect(
		func(card_id: String, unit_ids: PackedStringArray) -> void:
			DemoLines.say("highlight", {"card": card_id, "units": unit_ids})
	)
	view.target_selected.connect(
		func(card_id: String, unit_id: String) -> void:
			DemoLines.say("target", {"card": card_id, "unit": unit_id})
	)
	view.play_refused.connect(
		func(card_id: String, why: PyBridge.Refusal) -> void:
			refused.call("activate", why.said(), card_id)
	)
	view.request_denied.connect(
		func(op: String, why: PyBridge.Refusal) -> void: refused.call(op, why.said(), "")
	)
	view.card_activation_answered.connect(
		func(_card_id: String, _targets: PackedStringArray, outcome: PyBridge.Outcome) -> void:
			battle_log.add_lines(outcome.log_lines)
			DemoLines.say_raw("activated", bridge.last_response_of("activate"))
	)
	view.turn_end_answered.connect(
		func(_outcome: PyBridge.Outcome) -> void:
			DemoLines.say_raw("turn", bridge.last_response_of("end_turn"))
	)
