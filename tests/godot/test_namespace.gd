extends "res://suite.gd"
## The addon's namespace class [PyBridge]: the typed objects a game is handed are its
## constants, not global classes, and every form game code writes with a global class works
## through it in the engine: a typed variable, a typed signal argument, a typed parameter,
## [code]is[/code], [code]new()[/code], a static call, a typed array; and the reader fills
## typed objects nested in one (a Cut entry's card, a targets answer's late choice) with no
## global name to find their class by.

signal unit_seen(unit: PyBridge.Unit)

var held: PyBridge.BattleState = null
var seen: PyBridge.Unit = null
var units: Array[PyBridge.Unit] = []


func hp_of(unit: PyBridge.Unit) -> int:
	return unit.hp


func _on_unit_seen(unit: PyBridge.Unit) -> void:
	seen = unit


func test_every_typed_form_works_through_the_namespace() -> void:
	var unit: PyBridge.Unit = PyBridge.Unit.from({"id": "hero", "hp": 7.0, "statuses": {}})
	check_eq(unit.hp, 7, "a static call through the constant, ints as ints")
	check_eq(hp_of(unit), 7, "a typed parameter")
	check(unit is PyBridge.Unit, "is PyBridge.Unit")
	var other: Variant = PyBridge.Card.new()
	check(not other is PyBridge.Unit, "a card is no unit")
	check(other is PyBridge.Card, "PyBridge.Card.new()")
	units.append(unit)
	check(units.get_typed_script() == PyBridge.Unit, "Array[PyBridge.Unit]")
	unit_seen.connect(_on_unit_seen)
	unit_seen.emit(unit)
	check(seen == unit, "a typed signal argument")
	held = PyBridge.BattleState.from({"turn": 2.0, "units": [{"id": "hero", "hp": 3}]})
	check_eq(held.turn, 2, "a typed variable")
	check(held.units[0] is PyBridge.Unit, "a typed array the reader filled")
	check_eq(PyBridge.Sentences.said_error({"message": "plain"}), "plain", "a static function")


func test_the_reader_fills_typed_objects_nested_in_one() -> void:
	var entry := PyBridge.CutEntry.from(
		{"id": "e1", "card": {"id": "h1", "card": "strike"}, "late_choice": {"chooses": "unit"}}
	)
	check(entry.card is PyBridge.Card, "a Cut entry's card is typed")
	check_eq(entry.card.card if entry.card != null else "", "strike", "its fields read")
	check(entry.late_choice is PyBridge.LateChoice, "its late choice is typed")
	var answer := PyBridge.Targets.from({"late_choice": {"chooses": "card"}, "candidates": ["a"]})
	check(answer.late_choice is PyBridge.LateChoice, "a targets answer's late choice is typed")


func test_the_namespace_holds_only_scripts_and_they_have_no_global_name() -> void:
	var members: Dictionary = (
		load("res://addons/pybridge_targeting/pybridge.gd").get_script_constant_map()
	)
	check(members.size() >= 13, "the namespace's members: %s" % [members.keys()])
	var globals := {}
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		globals[entry["path"]] = entry["class"]
	for member_name: String in members:
		var script := members[member_name] as Script
		if check(script != null, "%s is a script" % member_name):
			check(
				not globals.has(script.resource_path),
				"%s is also the global %s" % [member_name, globals.get(script.resource_path)]
			)
