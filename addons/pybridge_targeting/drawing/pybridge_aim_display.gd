@tool
extends RefCounted
## What a [PyBridgeBattleView] draws for the aim (BattleAim): the arrow and the
## look of the unit under it, the lit units, the play area a card without a target is
## dropped on, the preview marks of the play, the numbered picks of a choice and its prompt,
## and the tooltip. Everything it shows is the runtime's answer, asked through the view.
##
## It never holds the view: it draws on a plain [Control] canvas (the view's node: its
## children, theme, translations, font and viewport) and is given the stage and the Cut's flow
## when it is made; the view's wiring ([code]battle/pybridge_battle_wiring.gd[/code]) gives it
## the aim, the target marks and the choice prompt once they are made, and Callables for
## what it asks the view.

# The view emits each as its own signal of the same name (battle/pybridge_relay.gd).
signal highlight_changed(card_id: String, unit_ids: PackedStringArray)
signal tooltip_changed(title: String, text: String)

const ViewDrawing := preload("res://addons/pybridge_targeting/drawing/pybridge_view_drawing.gd")
const HandSlot := preload("res://addons/pybridge_targeting/battle/pybridge_hand_slot.gd")
const Tooltip := preload("res://addons/pybridge_targeting/drawing/pybridge_tooltip.gd")
const AimArrow := preload("res://addons/pybridge_targeting/drawing/pybridge_aim_arrow.gd")
const BattleAim := preload("res://addons/pybridge_targeting/battle/pybridge_battle_aim.gd")
const BattleStage := preload("res://addons/pybridge_targeting/battle/pybridge_battle_stage.gd")
const PreviewMarks := preload("res://addons/pybridge_targeting/drawing/pybridge_preview_marks.gd")
const CutFlow := preload("res://addons/pybridge_targeting/battle/pybridge_cut_flow.gd")
const TargetMarks := preload("res://addons/pybridge_targeting/drawing/pybridge_target_marks.gd")
const ChoicePrompt := preload("res://addons/pybridge_targeting/battle/pybridge_choice_prompt.gd")

## The unit ids lit now.
var lit_units: PackedStringArray = PackedStringArray()
## The card (or Cut entry choosing as it resolves) whose units are lit ([code]""[/code]:
## none).
var lit_card: String = ""
## Whether the play area is lit (a card without a target is held or armed).
var zone_active: bool = false
## The aiming arrow.
var arrow: AimArrow = null
## The tooltip.
var tooltip: Tooltip = null
## Where the play area and its hint are drawn: a layer over the units, so that the hint is
## never hidden under their intent bubbles.
var zone_layer: Control = null

## The aim it draws.
var aim: BattleAim = null
## The markers over the units (the numbered picks of a choice).
var target_marks: TargetMarks = null
## The prompt of a choice that takes more than one unit or is made as an effect resolves.
var choice_prompt: ChoicePrompt = null
## Lays the hand out: [code]func() -> void[/code].
var layout_hand: Callable
## Whether a point (global) is in the play area: [code]func(point: Vector2) -> bool[/code].
var in_play_area: Callable
## Where a card without a target is played (global): [code]func() -> Rect2[/code].
var play_rect: Callable
## Whether the battle is over: [code]func() -> bool[/code].
var battle_over: Callable
## Whether a turn is played back: [code]func() -> bool[/code].
var playing_back: Callable
## Whether a battle is open: [code]func() -> bool[/code].
var battle_open: Callable
## The units a card lights: [code]func(card_id: String) -> PackedStringArray[/code].
var units_lit_by: Callable
## A card's tooltip: [code]func(card_id: String) -> Dictionary[/code].
var card_tip: Callable
## The runtime's [code]targets[/code] answer for a card:
## [code]func(card_id: String) -> Dictionary[/code].
var targets_of: Callable
## The runtime connection: [code]func() -> PyBridgeClient[/code].
var client: Callable
## The view's party area, or null: [code]func() -> Control[/code].
var party_area: Callable
## The view's Cut view, or null: [code]func() -> PyBridgeCutView[/code].
var cut_view: Callable

var _canvas: Control = null
var _stage: BattleStage = null
var _cut_flow: CutFlow = null
var _marks: PreviewMarks = PreviewMarks.new()


## Draws on [param canvas] (the view) what the aim over [param stage] shows; the choice's
## title is [param cut_flow]'s.
func _init(canvas: Control, stage: BattleStage, cut_flow: CutFlow) -> void:
	_canvas = canvas
	_stage = stage
	_cut_flow = cut_flow


## Makes the arrow and the tooltip, children of the canvas.
func build() -> void:
	arrow = AimArrow.new()
	arrow.name = "AimArrow"
	_canvas.add_child(arrow)
	arrow.apply_theme(_canvas)
	tooltip = Tooltip.new()
	tooltip.name = "Tooltip"
	_canvas.add_child(tooltip)
	zone_layer = Control.new()
	zone_layer.name = "PlayZone"
	zone_layer.mouse_filter = Control.MOUSE_FILTER_IGNORE
	zone_layer.set_anchors_preset(Control.PRESET_FULL_RECT)
	zone_layer.z_index = 15  # above the units (0) and their markers (10), below raised cards
	zone_layer.draw.connect(draw_zone)
	_canvas.add_child(zone_layer)


## Forgets every preview (the battle changed).
func forget_previews() -> void:
	_marks.clear()


## The aim started on [param slot] (null: a late choice).
func aim_began(slot: HandSlot) -> void:
	if slot != null:
		slot.set_selected(true)
	refresh()


## The aim at [param slot] ended.
func aim_ended(slot: HandSlot) -> void:
	if slot != null:
		slot.set_selected(false)
	arrow.hide()
	zone_active = false
	_marks.forget_shown()
	zone_layer.queue_redraw()
	_stage.mark_target("", PyBridgeUnitView.TargetLook.NONE)
	_stage.show_marks({})
	refresh()


## Lays the hand out and shows the lit units, the tooltip and the choice as the aim has them.
func refresh() -> void:
	layout_hand.call()
	refresh_highlight()
	refresh_tooltip()
	refresh_choice()


## Draws the aim as it is now: the arrow and the unit under it, or the held card and the play
## area, the units picked so far, and the preview of the play.
func show_aim() -> void:
	var slot := aim.card
	refresh_choice()
	refresh_highlight()
	if not aim.is_aiming():
		return
	var target := aim.aimed_unit()
	if aim.needs_unit():
		var valid: bool = target != "" and target in aim.candidates()
		var look := AimArrow.Look.EMPTY
		var unit_look := PyBridgeUnitView.TargetLook.NONE
		var end := aim.pointer
		if target != "":
			look = AimArrow.Look.VALID if valid else AimArrow.Look.INVALID
			unit_look = (
				PyBridgeUnitView.TargetLook.VALID if valid else PyBridgeUnitView.TargetLook.INVALID
			)
			var unit_view: Control = _stage.unit_views.get(target)
			if valid and unit_view != null:
				end = BattleStage.target_point_of(unit_view)
		_stage.mark_target(target, unit_look)
		if aim.state == BattleAim.State.PRESSED:
			arrow.hide()
		else:
			arrow.aim(_arrow_origin(), end, look)
		if slot != null:
			var picked := aim.choice.chosen.duplicate()
			if valid:
				picked.append(target)
			_show_preview(slot.card_id, picked, not valid)
		return
	_stage.mark_target("", PyBridgeUnitView.TargetLook.NONE)
	arrow.hide()
	if slot == null:
		return
	if aim.state == BattleAim.State.DRAGGING:
		slot.follow(aim.pointer)
		layout_hand.call()
	zone_active = aim.state in [BattleAim.State.DRAGGING, BattleAim.State.ARMED]
	zone_layer.queue_redraw()
	var over_zone: bool = in_play_area.call(aim.pointer) or aim.state == BattleAim.State.ARMED
	_show_preview(slot.card_id, PackedStringArray(), not over_zone)


## Draws the play area on [member zone_layer] while a card without a target is held, with
## its hint on a dark plate, drawn over the units (never under an intent bubble).
func draw_zone() -> void:
	if not zone_active:
		return
	var canvas := zone_layer
	var zone: Rect2 = play_rect.call()
	var local := Rect2(canvas.get_global_transform().affine_inverse() * zone.position, zone.size)
	var own := PyBridgeBattleView.THEME_TYPE
	var color := PyBridge.ViewTheme.color(_canvas, &"play_area", own)
	ViewDrawing.round_rect(canvas, local.grow(-6), Color(color, 0.07), 18, Color(color, 0.6), 3)
	var hint := zone_hint()
	var plate := Rect2(
		canvas.get_global_transform().affine_inverse() * hint["rect"].position, hint["rect"].size
	)
	ViewDrawing.round_rect(canvas, plate, Color(0, 0, 0, 0.78), 12, Color(color, 0.8), 2)
	ViewDrawing.centered_text(
		canvas,
		_canvas.get_theme_default_font(),
		hint["text"],
		Vector2(plate.get_center().x, plate.end.y - 12),
		PyBridge.ViewTheme.font_size(_canvas, &"play_hint_size", own),
		color,
		0,
		Color(0, 0, 0, 0)
	)


## The play area's hint: [code]{"visible", "text", "rect"}[/code], [code]rect[/code] its
## plate (global), drawn over the units while a card without a target is held, where it
## covers no unit's portrait or intent bubble if it can (between the sides, in the duel).
func zone_hint() -> Dictionary:
	var dragging := aim.state == BattleAim.State.DRAGGING
	var text := _canvas.tr("Release to play") if dragging else _canvas.tr("Click here to play")
	var font := _canvas.get_theme_default_font()
	var font_size := PyBridge.ViewTheme.font_size(
		_canvas, &"play_hint_size", PyBridgeBattleView.THEME_TYPE
	)
	var width := font.get_string_size(text, HORIZONTAL_ALIGNMENT_LEFT, -1, font_size).x + 32.0
	var zone: Rect2 = play_rect.call()
	var height := float(font_size) + 20.0
	# The first of these places that covers no portrait and no intent bubble: the top of the
	# play area, just above the party's row (between the sides), the middle, the bottom.
	var tops: Array[float] = [zone.position.y + 18.0]
	var party: Control = party_area.call()
	if party != null:
		tops.append(party.get_global_rect().position.y - 8.0)
	tops.append_array([zone.get_center().y - height * 0.5, zone.end.y - height - 8.0])
	var rect := Rect2(zone.get_center().x - width * 0.5, tops[0], width, height)
	for top in tops:
		var spot := Rect2(rect.position.x, top, width, height)
		if zone.encloses(spot) and _covers_no_unit(spot):
			rect = spot
			break
	var shown := zone_active and zone_layer != null and zone_layer.is_visible_in_tree()
	return {"visible": shown, "text": text, "rect": rect}


## Lights what the aim (or the hovered card) reaches: a choice's candidates, else the units
## the card lights ([method PyBridgeBattleView.units_lit_by]).
func refresh_highlight() -> void:
	var slot := aim.card if aim.card != null else aim.hovered
	if battle_over.call() or playing_back.call() or not (aim.needs_unit() or slot != null):
		set_lit("", PackedStringArray())
	elif aim.needs_unit():
		set_lit(aim.choice.source_id(), aim.choice.candidates)
	else:
		set_lit(slot.card_id, units_lit_by.call(slot.card_id))


## Lights [param ids] for [param card_id] ([signal PyBridgeBattleView.highlight_changed]).
func set_lit(card_id: String, ids: PackedStringArray) -> void:
	if card_id == lit_card and ids == lit_units:
		return
	lit_card = card_id
	lit_units = ids
	for id: String in _stage.unit_views:
		BattleStage.tell(_stage.unit_views[id], &"set_highlighted", [id in ids])
	highlight_changed.emit(card_id, ids)


## Shows the numbered picks on the units, and the prompt of a choice that takes more than
## one unit or is made as an effect resolves.
func refresh_choice() -> void:
	if target_marks == null:
		return
	var choice := aim.choice if aim.needs_unit() else null
	target_marks.show_picks(choice.chosen if choice != null else PackedStringArray())
	if choice != null and (choice.count > 1 or choice.late):
		var play: Rect2 = play_rect.call()
		choice_prompt.show_choice(
			choice, _cut_flow.choice_title(choice), Vector2(play.get_center().x, play.end.y)
		)
		_beside_held_card(choice_prompt, play)
	else:
		choice_prompt.show_choice(null, "", Vector2.ZERO)


## Shows the tooltip of what the pointer is over (a card of the hand, a unit's status or
## intent), or hides it.
func refresh_tooltip() -> void:
	if tooltip == null:
		return
	var tip := {}
	var idle: bool = aim.state == BattleAim.State.IDLE and not playing_back.call()
	if idle and battle_open.call():
		if aim.hovered != null:
			tip = card_tip.call(aim.hovered.card_id)
			tip["rect"] = aim.hovered.shown_rect()
		else:
			tip = _stage.tip_at(aim.pointer)
	var title := str(tip.get("title", ""))
	var text := str(tip.get("text", ""))
	if tip.is_empty() and tooltip.visible:
		tooltip.hide_tip()
		tooltip_changed.emit("", "")
	elif (
		not tip.is_empty()
		and not (tooltip.visible and [title, text] == [tooltip.title, tooltip.text])
	):
		tooltip.show_beside(
			title, text, str(tip.get("note", "")), tip["rect"], _canvas.get_viewport_rect()
		)
		tooltip_changed.emit(title, text)


# Whether [param rect] (global) covers no unit's portrait or intent bubble (the whole view of
# a unit scene that does not tell them apart).
func _covers_no_unit(rect: Rect2) -> bool:
	for id: String in _stage.unit_views:
		var unit: Control = _stage.unit_views[id]
		var taken: Array[Rect2] = [unit.get_global_rect()]
		if unit.has_method(&"portrait_rect") and unit.has_method(&"intent_rect"):
			var local: Array[Rect2] = [unit.call(&"portrait_rect"), unit.call(&"intent_rect")]
			taken.assign(local.map(func(r: Rect2) -> Rect2: return unit.get_global_transform() * r))
		for each in taken:
			if each.has_area() and each.intersects(rect):
				return false
	return true


func _show_preview(card_id: String, target_ids: PackedStringArray, clear: bool) -> void:
	var info: Dictionary = targets_of.call(card_id)
	# A preview of a random pick would give the pick away; an arrow card shows one per unit;
	# a card that chooses as it resolves has nothing to show before its choice.
	var wanted := not clear and not bool(info.get("facts", {}).get("random", false))
	if bool(info.get("requires_target", false)) and target_ids.is_empty():
		wanted = false
	if info.get("late_choice") is Dictionary:
		wanted = false
	var per_unit: Variant = await _marks.shown_for(client.call(), card_id, target_ids, wanted)
	if per_unit is Dictionary:
		_stage.show_marks(per_unit)


# Where the arrow of a choice starts: the aimed card, else the Cut entry that chooses.
func _arrow_origin() -> Vector2:
	if aim.card != null:
		return aim.card.arrow_origin()
	var cuts: PyBridgeCutView = cut_view.call()
	if cuts != null and aim.choice != null:
		var row := cuts.entry_rect(aim.choice.entry_id)
		if row.has_area():
			return Vector2(row.position.x, row.get_center().y)
	return choice_prompt.get_global_rect().get_center()


# Moves [param prompt] (on the bottom edge of [param play]) aside when the card being aimed,
# raised out of the hand, lies under it: to the side with more room.
func _beside_held_card(prompt: Control, play: Rect2) -> void:
	var held := aim.card
	if held == null:
		return
	var card := held.view.get_global_rect()
	var box := prompt.get_global_rect()
	if not box.grow(8.0).intersects(card):
		return
	var half := box.size.x * 0.5 + 12.0
	var right := card.end.x - play.position.x < play.end.x - card.position.x
	var x := card.end.x + half if right else card.position.x - half
	x = clampf(x, play.position.x + half, play.end.x - half)
	prompt.global_position.x = roundf(x - box.size.x * 0.5)
