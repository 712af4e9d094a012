extends "res://suite.gd"
## The built-in unit: floating numbers never cover the intent bubble, the invalid-target mark
## shows over the portrait, statuses and intents explain themselves in tooltips.

const FORECAST := {
	"acts": true,
	"kind": "attack",
	"label": "9",
	"title": "Smash 9",
	"detail": "at Cleric",
	"lines": ["Cleric takes 9 damage, 15 HP left."]
}


func unit(hp: int = 30, statuses: Array = []) -> Dictionary:
	return {
		"id": "orc",
		"name": "Orc Brute",
		"team": "enemy",
		"hp": hp,
		"max_hp": 34,
		"armor": 0,
		"alive": hp > 0,
		"statuses": statuses,
		"intent": FORECAST,
		"art": null
	}


func test_floating_numbers_stay_clear_of_the_intent_bubble() -> void:
	var view := PyBridgeUnitView.new()
	add_child(view)
	view.show_unit(unit(34))
	var bubble := view.intent_rect()
	check(bubble.has_area(), "the enemy shows its intent")
	for hits in range(1, 4):
		view.show_unit(unit(34 - hits * 5))  # one more number floating each time
		var count := view.floater_count()
		check_eq(count, mini(hits, PyBridgeUnitView.MAX_FLOATERS), "numbers floating at once")
		for step in 23:
			var age := step * 0.05
			var boxes: Array[Rect2] = []
			for index in count:
				var box := view.floater_box(view.floater_point(index, age))
				check(
					not box.intersects(bubble),
					"number %d of %d at %.2f s covers the intent" % [index, count, age]
				)
				check(
					view.portrait_rect().grow(4).encloses(box),
					"number %d stays on the portrait: %s" % [index, box]
				)
				for other in boxes:
					check(not box.intersects(other), "two numbers overlap at %.2f s" % age)
				boxes.append(box)


func test_the_invalid_mark_is_drawn_over_the_portrait() -> void:
	var holder := SubViewport.new()
	holder.size = Vector2i(160, 240)
	holder.transparent_bg = false
	holder.render_target_update_mode = SubViewport.UPDATE_ALWAYS
	add_child(holder)
	var view := PyBridgeUnitView.new()
	holder.add_child(view)
	view.show_unit(unit())
	await RenderingServer.frame_post_draw
	var centre := Vector2i(view.portrait_rect().get_center())
	var plain := holder.get_texture().get_image().get_pixelv(centre)
	view.set_target_look(PyBridgeUnitView.TargetLook.INVALID)
	await RenderingServer.frame_post_draw
	await RenderingServer.frame_post_draw
	var marked := holder.get_texture().get_image().get_pixelv(centre)
	var invalid := PyBridge.ViewTheme.color(view, &"invalid", PyBridgeUnitView.THEME_TYPE)
	check(
		_distance(marked, invalid) < 0.12,
		(
			"the portrait's centre shows the invalid colour %s, got %s (before: %s)"
			% [invalid, marked, plain]
		)
	)
	check(_distance(plain, invalid) > 0.3, "and did not before")


func test_a_status_chip_explains_its_status() -> void:
	var view := PyBridgeUnitView.new()
	add_child(view)
	var thorns := {
		"id": "thorns",
		"name": "Thorns",
		"stacks": 2,
		"text": "When attacked, deals damage equal to its Thorns back to the attacker."
	}
	view.show_unit(unit(30, [thorns]))
	var chips := view.status_chips()
	check_eq(chips.size(), 1, "one chip")
	var chip_point: Vector2 = view.get_global_transform() * (chips[0]["rect"] as Rect2).get_center()
	var chip_tip := view.tooltip_at(chip_point)
	check_eq(chip_tip.get("title"), "Thorns", "the chip's tooltip names the status")
	check_eq(chip_tip.get("text"), thorns["text"], "and gives its text")
	check((chip_tip.get("rect") as Rect2).has_point(chip_point), "beside the chip")
	var bubble_point := view.get_global_transform() * view.intent_rect().get_center()
	var tip := view.tooltip_at(bubble_point)
	check_eq(tip.get("title"), "Smash 9", "the intent's tooltip names the move")
	check("Cleric takes 9 damage" in str(tip.get("text")), "and says what it will do: %s" % tip)
	check_eq(view.tooltip_at(view.center_point()), {}, "the portrait has no tooltip")


func test_a_change_of_hp_floats_its_number() -> void:
	var view := PyBridgeUnitView.new()
	add_child(view)
	view.show_unit(unit(30))
	check(not view.is_processing(), "nothing floats at first")
	view.show_unit(unit(24))
	check(view.is_processing(), "a loss of 6 floats")
	await frames(2)
	view.show_unit(unit(0))
	check(not view.is_alive(), "at 0 HP the unit is down")
	check(view.intent_rect() == Rect2(), "a fallen unit shows no intent")


func _distance(a: Color, b: Color) -> float:
	return Vector3(a.r - b.r, a.g - b.g, a.b - b.b).length()
