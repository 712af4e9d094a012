@tool
extends RefCounted
## The views a [PyBridgeBattleView] shows and where they are: one unit view per unit in the
## party and enemy areas, one card view per card of the hand, made from the game's scenes
## (or the built-in views), kept in step with the state and laid out by
## BattleLayout.

const BattleData := preload("res://addons/pybridge_targeting/battle/pybridge_battle_data.gd")
const HandSlot := preload("res://addons/pybridge_targeting/battle/pybridge_hand_slot.gd")
const BattleLayout := preload("res://addons/pybridge_targeting/battle/pybridge_battle_layout.gd")
const CardMotion := preload("res://addons/pybridge_targeting/battle/pybridge_card_motion.gd")
const Sentences := preload("res://addons/pybridge_targeting/pybridge_sentences.gd")

## Unit id -> its view (a [PyBridgeUnitView] or the game's unit scene).
var unit_views: Dictionary = {}
## The hand, left to right, in the player's order (see [method move_card]).
var hand_slots: Array[HandSlot] = []
## The cards flying between the hand and the piles.
var motion: CardMotion = null

var _view: PyBridgeBattleView = null
var _reported: PackedStringArray = []
var _lunges: Array[Tween] = []
var _order := PackedStringArray()
var _piles := {}
var _piles_of := ""


func _init(view: PyBridgeBattleView) -> void:
	_view = view
	motion = CardMotion.new(view)


## Calls [param method] on [param view] when the view has it (the optional parts of a view's
## interface).
static func tell(view: Object, method: StringName, arguments: Array = []) -> void:
	if view != null and view.has_method(method):
		view.callv(method, arguments)


## Frees every view (a new battle).
func clear() -> void:
	for id: String in unit_views:
		(unit_views[id] as Node).queue_free()
	unit_views.clear()
	motion.finish()
	for slot in hand_slots:
		slot.view.queue_free()
	hand_slots.clear()
	_order.clear()
	_piles = {}


## Makes, updates and drops unit views to match the units of [param data]'s state.
func sync_units(data: BattleData) -> void:
	Sentences.use(_view.schema.get("messages", []))  # the runtime's sentences, before any is said
	var seen := {}
	for unit: Variant in data.state.get("units", []):
		var id := str(unit.get("id"))
		seen[id] = true
		var view: Control = unit_views.get(id)
		if view == null:
			view = _new_view(_view.unit_scene, &"show_unit", PyBridgeUnitView)
			view.name = "Unit_" + id.validate_node_name()
			_area_of(unit).add_child(view)
			unit_views[id] = view
		view.call(&"show_unit", data.unit_data(unit))
	for id: String in unit_views.keys():
		if not seen.has(id):
			(unit_views[id] as Node).queue_free()
			unit_views.erase(id)


## Makes, updates and drops card views to match the hand of [param data]'s state; their
## playability is the view's [method PyBridgeBattleView.targets_of]. The hand keeps the
## player's order; a card new to it goes to its right end. Cards drawn, played and discarded
## fly ([member motion]). Returns the slots dropped.
func sync_hand(data: BattleData) -> Array[HandSlot]:
	var kept: Array[HandSlot] = []
	var arrived: Array[HandSlot] = []
	var piles := data.piles()
	for instance: Variant in piles.get("hand", []):
		var id := str(instance.get("id"))
		var slot := hand_slot(id)
		if slot == null:
			var view := new_card_view()
			view.name = "Card_" + id.validate_node_name()
			_view.hand_area.add_child(view)
			# The built-in views size themselves from the theme when they enter the tree.
			var card_size := (
				view.size if view.size != Vector2.ZERO else view.get_combined_minimum_size()
			)
			slot = HandSlot.new(id, view, card_size)
			arrived.append(slot)
		slot.view.call(&"show_card", _view.card_data(id))
		kept.append(slot)
	var order := PackedStringArray()
	for id in _order:
		if kept.any(func(slot: HandSlot) -> bool: return slot.card_id == id):
			order.append(id)
	for slot in kept:
		if not slot.card_id in order:
			order.append(slot.card_id)
	kept.sort_custom(
		func(a: HandSlot, b: HandSlot) -> bool: return order.find(a.card_id) < order.find(b.card_id)
	)
	_order = order
	var dropped: Array[HandSlot] = []
	var gone := {}
	for slot in hand_slots:
		if not slot in kept:
			gone[slot.card_id] = slot.view
			dropped.append(slot)
	hand_slots = kept
	# The same side's piles move (a new battle's hand is dealt); another side's hand just shows.
	var whose := "%s|%s" % [data.side, data.state.get("turn_side", "") if data.side == "" else ""]
	var planned: Array[Dictionary] = []
	if whose == _piles_of or _piles.is_empty():
		planned = CardMotion.plan(_piles, piles, motion.played)
	else:
		arrived.clear()
	_piles = piles
	_piles_of = whose
	_view.layout_hand()
	motion.run(planned, gone, arrived)
	return dropped


## Moves [param card_id] to [param index] of the hand (the order is the player's: it does not
## change the state); false when the card is not in the hand.
func move_card(card_id: String, index: int) -> bool:
	var slot := hand_slot(card_id)
	if slot == null:
		return false
	hand_slots.erase(slot)
	hand_slots.insert(clampi(index, 0, hand_slots.size()), slot)
	_order.clear()
	for each in hand_slots:
		_order.append(each.card_id)
	return true


## The card ids of the hand, left to right.
func hand_order() -> PackedStringArray:
	return _order.duplicate()


## A new card view of the game's card scene (or the built-in card), in no tree yet.
func new_card_view() -> Control:
	return _new_view(_view.card_scene, &"show_card", PyBridgeCardView)


## The hand slot of [param card_id], or null.
func hand_slot(card_id: String) -> HandSlot:
	for slot in hand_slots:
		if slot.card_id == card_id:
			return slot
	return null


## Puts every unit in a row of its area, in the order of [param units] (the state's).
func layout_units(units: Array) -> void:
	var rows := {}
	for unit: Variant in units:
		var id := str(unit.get("id"))
		if unit_views.has(id):
			var area := _area_of(unit)
			if not rows.has(area):
				rows[area] = []
			rows[area].append(id)
	var gap := float(PyBridge.ViewTheme.constant(_view, &"unit_gap", _view.THEME_TYPE))
	for area: Control in rows:
		var ids: Array = rows[area]
		var unit_size := (unit_views[ids[0]] as Control).size
		var points := BattleLayout.unit_row(area, ids.size(), unit_size, gap)
		for i in ids.size():
			(unit_views[ids[i]] as Control).position = points[i]


## Lays the hand out on its fan: [param raised] cards stand straight, rise and grow,
## [param skipped] (a card dragged along with the pointer) is left where it is.
func layout_hand(raised: Array, skipped: HandSlot) -> void:
	if hand_slots.is_empty():
		return
	var area := _view.hand_area
	var own := _view.THEME_TYPE
	var card_type := PyBridgeCardView.THEME_TYPE
	var count := hand_slots.size()
	var card_size := hand_slots[0].card_size
	var fan := BattleLayout.hand_fan(
		count,
		PyBridge.ViewTheme.constant(_view, &"fan_step_degrees", own),
		PyBridge.ViewTheme.constant(_view, &"fan_max_degrees", own),
		PyBridge.ViewTheme.constant(_view, &"fan_radius", own)
	)
	# The turned ends lean out by their height's share and sit lower: the row keeps clear of
	# the area's sides, and the whole fan rises by the ends' drop.
	var lean := ceilf(card_size.y * absf(sin(fan["angles"][0]))) if count > 1 else 0.0
	var lift: float = fan["drops"][0] if count > 1 else 0.0
	var row := BattleLayout.hand_row(
		count,
		card_size,
		area.size.x - 2.0 * lean,
		area.size.y,
		PyBridge.ViewTheme.constant(_view, &"card_gap", own),
		PyBridge.ViewTheme.constant(_view, &"min_card_percent", own) / 100.0,
		PyBridge.ViewTheme.constant(_view, &"hand_margin", own)
	)
	var rise := float(PyBridge.ViewTheme.constant(_view, &"raised_offset", card_type))
	var raised_scale := PyBridge.ViewTheme.constant(_view, &"raised_percent", card_type) / 100.0
	for i in hand_slots.size():
		var slot := hand_slots[i]
		if slot == skipped:
			continue
		var up := slot in raised
		var at: Vector2 = row["points"][i] + Vector2(lean, fan["drops"][i] - lift)
		slot.place(at, row["scale"], up, rise, raised_scale, area.size.x, fan["angles"][i])
		tell(slot.view, &"set_visible_width", [slot.card_size.x if up else row["visible"][i]])


## The hand card under [param point] (global): the later card wins where two overlap, and a
## card of [param raised] also owns the space above it that it is raised into.
func card_at(point: Vector2, raised: Array) -> HandSlot:
	for i in range(hand_slots.size() - 1, -1, -1):
		var slot := hand_slots[i]
		# A raised card owns its column up to its raised top, not its neighbours' columns.
		var above := slot.raised_above if slot in raised else 0.0
		if slot.contains(point, above):
			return slot
	return null


## Where each card of the hand is clicked: the middle of the part of it no later card covers,
## along the line across the card a little below its middle (global, whole pixels).
func card_points() -> Dictionary:
	var points := {}
	for slot in hand_slots:
		var xform := slot.base_transform()
		var y := slot.card_size.y * 0.55
		var runs: Array[Vector2] = []  # [first x, last x] of each stretch the card owns
		var x := 2.0
		while x <= slot.card_size.x - 2.0:
			if card_at(xform * Vector2(x, y), []) == slot:
				if runs.is_empty() or runs[-1].y < x - 4.5:
					runs.append(Vector2(x, x))
				else:
					runs[-1].y = x
			x += 4.0
		var best := Vector2(slot.card_size.x * 0.5, slot.card_size.x * 0.5)
		for run in runs:
			if run.y - run.x > best.y - best.x or runs.size() == 1:
				best = run
		points[slot.card_id] = BattleLayout.xy(xform * Vector2((best.x + best.y) * 0.5, y))
	return points


## The id of the unit under [param point] (global), or [code]""[/code].
func unit_at(point: Vector2) -> String:
	for id: String in unit_views:
		if (unit_views[id] as Control).get_global_rect().has_point(point):
			return id
	return ""


## Shows [param look] on the unit [param target_id] and no look on every other unit.
func mark_target(target_id: String, look: PyBridgeUnitView.TargetLook) -> void:
	for id: String in unit_views:
		var shown := look if id == target_id else PyBridgeUnitView.TargetLook.NONE
		tell(unit_views[id], &"set_target_look", [shown])


## Shows the preview marks [param per_unit] (unit id -> [code][{"text", "kind"}][/code]) on
## every unit (none on a unit without an entry).
func show_marks(per_unit: Dictionary) -> void:
	for id: String in unit_views:
		var lines: Array[Dictionary] = []
		lines.assign(per_unit.get(id, []))
		tell(unit_views[id], &"set_preview", [lines])


## What a tooltip says about [param point] (global) over a unit: its view's
## [code]tooltip_at()[/code] ([code]{"title", "text", "rect"}[/code]), or empty.
func tip_at(point: Vector2) -> Dictionary:
	var id := unit_at(point)
	if id == "" or not (unit_views[id] as Object).has_method(&"tooltip_at"):
		return {}
	var tip: Dictionary = unit_views[id].call(&"tooltip_at", point)
	if not tip.is_empty() and not tip.get("rect") is Rect2:
		tip["rect"] = Rect2(point - Vector2(14, 14), Vector2(28, 28))
	return tip


## Moves [param unit_id]'s view a step towards [param target_id]'s and back.
func lunge(unit_id: String, target_id: String) -> void:
	var view: Control = unit_views.get(unit_id)
	if view == null:
		return
	var toward := Vector2.DOWN
	var target: Control = unit_views.get(target_id)
	if target != null and target != view:
		toward = (center_of(target) - center_of(view)).normalized()
	var home := view.position
	var tween := view.create_tween()
	tween.tween_property(view, "position", home + toward * 28.0, 0.12).set_trans(Tween.TRANS_QUAD)
	tween.tween_property(view, "position", home, 0.2).set_trans(Tween.TRANS_QUAD)
	_lunges.append(tween)


## Stops every lunge (the views are laid out again).
func stop_lunges() -> void:
	for tween in _lunges:
		tween.kill()
	_lunges.clear()


## Screen points: [code]{"units": {id: [x, y]}, "cards": {id: [x, y]}}[/code] (see
## [method PyBridgeBattleView.layout_points]).
func layout_points() -> Dictionary:
	var units := {}
	for id: String in unit_views:
		units[id] = BattleLayout.xy(center_of(unit_views[id]))
	return {"units": units, "cards": card_points()}


## Where a click lands on [param view] (a unit): its [code]center_point()[/code], else its
## centre (global).
static func center_of(view: Control) -> Vector2:
	if view.has_method(&"center_point"):
		return view.call(&"center_point")
	return view.get_global_rect().get_center()


## Where the aiming arrow's head snaps to on [param view] (a unit): its
## [code]target_point()[/code], else the middle of its top (global).
static func target_point_of(view: Control) -> Vector2:
	if view.has_method(&"target_point"):
		return view.call(&"target_point")
	var rect := view.get_global_rect()
	return Vector2(rect.get_center().x, rect.position.y + 12.0)


func _area_of(unit: Variant) -> Control:
	return _view.party_area if str(unit.get("team")) == "player" else _view.enemy_area


func _new_view(scene: PackedScene, needed: StringName, built_in: GDScript) -> Control:
	if scene != null:
		var made := scene.instantiate()
		if made is Control and made.has_method(needed):
			return made
		push_error(
			(
				(
					"PyBridgeBattleView: the scene %s has no Control root with %s(); using the "
					% [scene.resource_path, needed]
				)
				+ "built-in view"
			)
		)
		if made != null:
			made.free()
	return built_in.new()
