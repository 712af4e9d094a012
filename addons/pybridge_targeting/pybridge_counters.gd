@tool
@icon("res://addons/pybridge_targeting/icons/pybridge_battle_view.svg")
class_name PyBridgeCounters
extends BoxContainer
## The battle counters a game's extensions declare (gold, combo, mana of a colour): one chip
## per counter with its label and its value in the battle state, updated on every state change.
##
## Which counters there are, their labels, defaults and who may see them are the runtime's
## ([code]schema[/code]'s [code]counters[/code]); the values are the state's
## [code]counters[/code], where a counter at its default may be left out. A counter that no
## one may see ([code]visibility[/code] [code]no_one[/code], bookkeeping) gets no chip. A label
## is its message's English through [method Object.tr], with the message id as the context, so
## a game translates it like any text. Give it a [member battle_view] and it follows that view;
## or call [method show_counters] with a schema's counters and a state.

## The chips changed: [param shown] is what they show (see [method shown]).
signal counters_shown(shown: Dictionary)

## The visibility of a counter that gets no chip.
const HIDDEN := "no_one"

## The battle view whose state it shows (the counters are read from its [code]schema[/code]).
@export var battle_view: PyBridgeBattleView:
	set(value):
		if battle_view != null and battle_view.battle_state_changed.is_connected(_on_state):
			battle_view.battle_state_changed.disconnect(_on_state)
		battle_view = value
		if battle_view != null and is_inside_tree():
			_follow_view()
## The theme type variation of each chip (a [PanelContainer]); empty: a plain one.
@export var chip_variation: StringName = &""
## The theme type variation of a chip's label (a [Label]); empty: a plain one.
@export var label_variation: StringName = &""
## The theme type variation of a chip's value (a [Label]); empty: a plain one.
@export var value_variation: StringName = &""

## The counters that get a chip, in the schema's order (its entries: [code]name[/code],
## [code]label[/code], [code]default[/code], [code]visibility[/code]...).
var declared: Array[Dictionary] = []
## Counter name -> the value its chip shows.
var values: Dictionary = {}

var _chips: Dictionary = {}


func _init() -> void:
	# The battle view reads the pointer in _unhandled_input: a chip must not take it.
	mouse_filter = Control.MOUSE_FILTER_IGNORE


func _ready() -> void:
	if battle_view != null:
		_follow_view()


func _notification(what: int) -> void:
	if what == NOTIFICATION_TRANSLATION_CHANGED:
		for counter in declared:
			var label: Label = _chips[str(counter.get("name"))]["label"]
			label.text = label_of(counter)


## Shows the counters of [param schema_counters] (a [code]schema[/code] answer's
## [code]counters[/code]) with their values in [param state]: a [PyBridge.BattleState], or a
## battle state's JSON.
func show_counters(schema_counters: Array, state: Variant) -> void:
	var shown_now: Array[Dictionary] = []
	for counter: Variant in schema_counters:
		if counter is Dictionary and str(counter.get("visibility", "")) != HIDDEN:
			shown_now.append(counter)
	if shown_now != declared:
		declared = shown_now
		_build_chips()
	var held: Dictionary = {}
	if state is PyBridge.BattleState:
		held = state.counters
	elif state is Dictionary:
		held = state.get("counters", {})
	values.clear()
	for counter in declared:
		var counter_name := str(counter.get("name"))
		values[counter_name] = int(held.get(counter_name, counter.get("default", 0)))
		(_chips[counter_name]["value"] as Label).text = str(values[counter_name])
	counters_shown.emit(shown())


## What the chips show, in their order: counter name -> [code]{"label", "value", "point"}[/code]
## (the label's text, the value, the chip's centre in global coordinates).
func shown() -> Dictionary:
	var out := {}
	for counter in declared:
		var counter_name := str(counter.get("name"))
		var chip: Dictionary = _chips[counter_name]
		var centre := (chip["chip"] as Control).get_global_rect().get_center()
		out[counter_name] = {
			"label": (chip["label"] as Label).text,
			"value": values.get(counter_name, 0),
			"point": [roundi(centre.x), roundi(centre.y)],
		}
	return out


## The label a player reads for [param counter] (a schema counter): its message's English,
## translated with the message id as the context; its name when it has no label.
func label_of(counter: Dictionary) -> String:
	var label: Variant = counter.get("label")
	if label is Dictionary:
		return tr(str(label.get("english", "")), str(label.get("id", "")))
	return str(counter.get("name", "")).capitalize()


func _follow_view() -> void:
	if not battle_view.battle_state_changed.is_connected(_on_state):
		battle_view.battle_state_changed.connect(_on_state)
	if battle_view.battle_state != null:
		_on_state(battle_view.battle_state)


func _on_state(state: PyBridge.BattleState) -> void:
	show_counters(battle_view.schema.get("counters", []), state)


func _build_chips() -> void:
	for chip: Dictionary in _chips.values():
		remove_child(chip["chip"])
		(chip["chip"] as Node).queue_free()
	_chips.clear()
	for counter in declared:
		var counter_name := str(counter.get("name"))
		var chip := PanelContainer.new()
		chip.name = counter_name
		chip.theme_type_variation = chip_variation
		chip.mouse_filter = Control.MOUSE_FILTER_IGNORE
		var line := HBoxContainer.new()
		line.mouse_filter = Control.MOUSE_FILTER_IGNORE
		chip.add_child(line)
		var label := Label.new()
		label.theme_type_variation = label_variation
		var value := Label.new()
		value.theme_type_variation = value_variation
		for part: Label in [label, value]:
			part.auto_translate_mode = Node.AUTO_TRANSLATE_MODE_DISABLED  # translated here
			part.vertical_alignment = VERTICAL_ALIGNMENT_CENTER
			line.add_child(part)
		label.text = label_of(counter)
		add_child(chip)
		_chips[counter_name] = {"chip": chip, "label": label, "value": value}
