@tool
extends RefCounted
## The runtime's vocabulary ([code]schema[/code]) as the Workshop reads it: node types by
## name and palette group, target modes with their facts, and the typed slots of the graph.
##
## Nothing here is a hand-copied list: every name, group, field, port kind and exit comes
## from the answer of [method PyBridgeClient.schema]. Slot types are numbered from the port
## kinds found in it: [constant FLOW_SLOT] for flow links, one number per kind, and one per
## set of kinds a port accepts (a selector's input takes units or cards).

## The slot type of flow links (a flow node's entry, and the exits that lead to it).
const FLOW_SLOT := 0
## Colour of flow links and slots.
const FLOW_COLOR := Color("e8e4f0")
## Colours given to the port kinds in the order the schema names them.
const KIND_COLORS: Array[Color] = [
	Color("6fb1ff"),
	Color("ffb454"),
	Color("c792ff"),
	Color("7fe3a8"),
	Color("ff7aa8"),
]

## The whole [code]schema[/code] answer.
var data: Dictionary = {}
## Node type name -> its schema entry.
var node_types: Dictionary = {}
## Mode name -> its facts.
var modes: Dictionary = {}
## The port kinds, in the order the schema first names them.
var kinds: PackedStringArray = PackedStringArray()

var _slot_of_set: Dictionary = {}
var _docs_by_word: Dictionary = {}


func _init(answer: Dictionary = {}) -> void:
	data = answer
	for entry: Variant in data.get("node_types", []):
		node_types[str(entry.get("name"))] = entry
		for port: Variant in entry.get("ports", []):
			for kind: Variant in port.get("accepts", []):
				if not str(kind) in kinds:
					kinds.append(str(kind))
	for entry: Variant in data.get("node_types", []):
		var output := str(entry.get("output", ""))
		if entry.get("output") != null and not output in kinds and _is_kind_name(output):
			kinds.append(output)
	for facts: Variant in data.get("modes", []):
		modes[str(facts.get("mode"))] = facts


## Whether the schema answered (an empty one means the runtime could not be reached).
func is_loaded() -> bool:
	return not node_types.is_empty()


## The palette groups, in the order the schema gives them.
func groups() -> PackedStringArray:
	return PackedStringArray(data.get("node_groups", []))


## The node type names of [param group], in schema order.
func types_in(group: String) -> PackedStringArray:
	var names := PackedStringArray()
	for entry: Variant in data.get("node_types", []):
		if str(entry.get("group")) == group:
			names.append(str(entry.get("name")))
	return names


## The schema entry of node type [param type_name], or empty.
func node_type(type_name: String) -> Dictionary:
	return node_types.get(type_name, {})


## The target modes' facts, in schema order.
func mode_list() -> Array:
	return data.get("modes", [])


## The library document format name.
func library_format() -> String:
	return str(data.get("formats", {}).get("library", ""))


## The exits (flow links out) of a node type: [code]next[/code], [code]then[/code]...
func exits_of(type_name: String) -> PackedStringArray:
	return PackedStringArray(node_type(type_name).get("exits", []))


## Every exit name any node type has.
func exit_names() -> PackedStringArray:
	var names := PackedStringArray()
	for type_name: String in node_types:
		for exit in exits_of(type_name):
			if not exit in names:
				names.append(exit)
	return names


## Whether nodes of this type run in the flow (they have exits) rather than being pulled.
func is_flow(type_name: String) -> bool:
	return not exits_of(type_name).is_empty()


## The kind a node type yields when it is its own ([code]units[/code], ...), or
## [code]""[/code] when it yields what its first port is fed, or nothing.
func own_output(type_name: String) -> String:
	var output: Variant = node_type(type_name).get("output")
	return str(output) if output != null and str(output) in kinds else ""


## Whether a node type yields anything to other nodes' ports.
func has_output(type_name: String) -> bool:
	return node_type(type_name).get("output") != null


## The slot type for one kind, or for a port accepting [param accepted] kinds.
func slot_for(accepted: PackedStringArray) -> int:
	if accepted.size() == 1 and accepted[0] in kinds:
		return 1 + kinds.find(accepted[0])
	var key := ",".join(accepted)
	if not _slot_of_set.has(key):
		_slot_of_set[key] = 1 + kinds.size() + _slot_of_set.size()
	return _slot_of_set[key]


## The colour of a slot: flow, one kind, or a mix.
func slot_color(slot: int) -> Color:
	if slot == FLOW_SLOT:
		return FLOW_COLOR
	if slot <= kinds.size():
		return KIND_COLORS[(slot - 1) % KIND_COLORS.size()]
	return Color("b8b8c8")


## Lets [param graph] connect each kind into every port that accepts it among others.
func register_slot_types(graph: GraphEdit) -> void:
	for entry: Variant in data.get("node_types", []):
		for port: Variant in entry.get("ports", []):
			var accepted := PackedStringArray(port.get("accepts", []))
			var slot := slot_for(accepted)
			for kind in accepted:
				var single := slot_for(PackedStringArray([kind]))
				if single != slot:
					graph.add_valid_connection_type(single, slot)
					# An output whose kind is not known yet (a selector with nothing fed in)
					# may go where any of its kinds go.
					graph.add_valid_connection_type(slot, single)


## The choices of a choice field, or of an action's source field.
static func choices_of(field: Dictionary) -> PackedStringArray:
	return PackedStringArray(field.get("choices", []))


## [param field] with a description for each of its choices ([code]choice_docs[/code]):
## the field's own, else the schema's entry of that name among the sources, sort keys and
## Condition tests and measures (a source field's choices are the sources).
func documented(field: Dictionary) -> Dictionary:
	var choices: Array = field.get("choices", [])
	if choices.is_empty():
		return field
	var own: Dictionary = (
		field.get("choice_docs", {}) if field.get("choice_docs") is Dictionary else {}
	)
	var docs := {}
	for choice: Variant in choices:
		var doc: Variant = own.get(choice, _word_docs().get(str(choice)))
		if doc != null:
			docs[str(choice)] = str(doc)
	var copy := field.duplicate()
	copy["choice_docs"] = docs
	return copy


## The filter keys (each with name, type, doc, choices...) for elements of [param kind].
func filter_keys(kind: String) -> Array:
	return data.get("filters", {}).get(kind, [])


## A mode in a few words for a list: its label, then arrow or not, the side, area, random.
func mode_summary(mode: String) -> String:
	var facts: Dictionary = modes.get(mode, {})
	var parts := PackedStringArray()
	parts.append("arrow" if bool(facts.get("requires_target", false)) else "no arrow")
	var reach := str(facts.get("reach", ""))
	if reach != "" and reach != "none":
		parts.append(reach.replace("_", " "))
	if bool(facts.get("area", false)):
		parts.append("area")
	if bool(facts.get("random", false)):
		parts.append("random")
	return "%s  (%s)" % [facts.get("label", mode), ", ".join(parts)]


## The one-line meaning of a mode from its facts: arrow or not, who chooses, which side.
func mode_meaning(mode: String) -> String:
	var facts: Dictionary = modes.get(mode, {})
	if facts.is_empty():
		return "not a target mode this runtime knows"
	var parts := PackedStringArray()
	parts.append(
		"arrow: the player picks" if bool(facts.get("requires_target", false)) else "no arrow"
	)
	var reach := str(facts.get("reach", ""))
	if reach != "" and reach != "none":
		parts.append("side: " + reach.replace("_", " "))
	if bool(facts.get("area", false)):
		parts.append("area")
	if bool(facts.get("random", false)):
		parts.append("the runtime picks at random")
	var line := ", ".join(parts)
	return "%s. %s." % [line.left(1).to_upper() + line.substr(1), str(facts.get("action", ""))]


func _is_kind_name(output: String) -> bool:
	return output.is_valid_identifier()


## Word name -> its description, from every list of named words the schema gives.
func _word_docs() -> Dictionary:
	if not _docs_by_word.is_empty():
		return _docs_by_word
	var lists: Array = [data.get("unit_sources", []), data.get("card_sources", [])]
	for group: String in ["sorts", "conditions"]:
		var by_kind: Variant = data.get(group, {})
		if by_kind is Dictionary:
			lists.append_array(by_kind.values())
	for words: Variant in lists:
		for word: Variant in words if words is Array else []:
			if word is Dictionary and word.has("doc"):
				_docs_by_word[str(word.get("name"))] = str(word["doc"])
	return _docs_by_word
