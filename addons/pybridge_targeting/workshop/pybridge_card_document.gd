@tool
extends RefCounted
## A card library document as the designer has it: plain JSON data, kept as written even
## where it is broken, so that every card stays editable while the runtime reports what is
## wrong with it.
##
## The card operations work on [member document]; the Behavior operations take one card
## (a [Dictionary]) and change it in place. None of them decides whether the result is valid:
## the runtime's [code]lint[/code] says that.

## Keys of a Behavior node that are not its fields.
const NODE_KEYS: PackedStringArray = ["id", "type", "ports", "at"]

## The library document ([code]{"format", "cards"}[/code]).
var document: Dictionary = {}


func _init(from: Dictionary = {}) -> void:
	document = from


## [param text] read as a library document: [code]{"document", "error"}[/code]; the error
## (with its line) is set when the text is not a JSON object.
static func parse(text: String) -> Dictionary:
	var json := JSON.new()
	if json.parse(text) != OK:
		return {
			"document": {},
			"error": "line %d: %s" % [json.get_error_line(), json.get_error_message()],
		}
	if not json.data is Dictionary:
		return {"document": {}, "error": "the file is not a JSON object"}
	return {"document": PyBridgeClient.integral(json.data), "error": ""}


## The cards, as written (an empty list when [code]cards[/code] is not a list).
func cards() -> Array:
	var found: Variant = document.get("cards")
	return found if found is Array else []


## The card at [param index], or an empty [Dictionary] when there is none or it is not an
## object.
func card(index: int) -> Dictionary:
	var all := cards()
	if index < 0 or index >= all.size() or not all[index] is Dictionary:
		return {}
	return all[index]


## The id of the card at [param index] as written ([code]""[/code] when it has none).
func card_id(index: int) -> String:
	var found: Variant = card(index).get("id")
	return found if found is String else ""


## Every card's id, in order.
func card_ids() -> PackedStringArray:
	var ids := PackedStringArray()
	for i in cards().size():
		ids.append(card_id(i))
	return ids


## Every word the cards list under [param field] (tags, keywords), each once, sorted.
func words_used(field: String) -> PackedStringArray:
	var found := PackedStringArray()
	for one: Variant in cards():
		var listed: Variant = one.get(field) if one is Dictionary else null
		for word: Variant in listed if listed is Array else []:
			if word is String and not word in found:
				found.append(word)
	found.sort()
	return found


## [param base], or [param base] with the first free number appended.
func free_card_id(base: String) -> String:
	return _free_id(base, card_ids())


## Appends [param new_card] and returns its index.
func add_card(new_card: Dictionary) -> int:
	if not document.get("cards") is Array:
		document["cards"] = []
	document["cards"].append(new_card)
	return document["cards"].size() - 1


## Inserts a copy of the card at [param index] after it, with a free id; returns its index.
func duplicate_card(index: int) -> int:
	var copy: Variant = cards()[index].duplicate(true)
	if copy is Dictionary:
		copy["id"] = free_card_id(card_id(index) if card_id(index) != "" else "card")
	cards().insert(index + 1, copy)
	return index + 1


## Removes the card at [param index].
func remove_card(index: int) -> void:
	cards().remove_at(index)


## Gives the card at [param index] the id [param new_id].
func rename_card(index: int, new_id: String) -> void:
	if cards()[index] is Dictionary:
		cards()[index]["id"] = new_id


# -- Behavior graphs (one card) ---------------------------------------------------------------


## The Behavior's nodes as written (an empty list when there are none).
static func nodes_of(of_card: Dictionary) -> Array:
	var behavior: Variant = of_card.get("behavior")
	if behavior is Dictionary and behavior.get("nodes") is Array:
		return behavior["nodes"]
	return []


## The node [param node_id] of the card's Behavior, or an empty [Dictionary].
static func node_of(of_card: Dictionary, node_id: String) -> Dictionary:
	for node: Variant in nodes_of(of_card):
		if node is Dictionary and str(node.get("id", "")) == node_id:
			return node
	return {}


## The Behavior's [code]start[/code] ([code]""[/code] when unset).
static func start_of(of_card: Dictionary) -> String:
	var behavior: Variant = of_card.get("behavior")
	if behavior is Dictionary and behavior.get("start") is String:
		return behavior["start"]
	return ""


## Adds a node of [param type_name] at [param at]; a flow node becomes the start when the
## Behavior has none. Returns the new node's id.
static func add_node(of_card: Dictionary, type_name: String, at: Vector2, is_flow: bool) -> String:
	var behavior := _behavior(of_card)
	var ids := PackedStringArray()
	for node: Variant in nodes_of(of_card):
		if node is Dictionary:
			ids.append(str(node.get("id", "")))
	var node_id := _free_id(type_name.to_snake_case(), ids)
	behavior["nodes"].append({"id": node_id, "type": type_name, "at": [roundi(at.x), roundi(at.y)]})
	if is_flow and start_of(of_card) == "":
		behavior["start"] = node_id
	return node_id


## The nodes [param node_ids] of the card as a clipboard: [code]{"nodes", "start"}[/code],
## deep copies in the Behavior's order, and which of them the flow starts at ([code]""[/code]
## when none does).
static func copy_nodes(of_card: Dictionary, node_ids: PackedStringArray) -> Dictionary:
	var copied: Array = []
	for node: Variant in nodes_of(of_card):
		if node is Dictionary and str(node.get("id", "")) in node_ids:
			copied.append(node.duplicate(true))
	var start := start_of(of_card)
	return {"nodes": copied, "start": start if start in node_ids else ""}


## Adds the nodes of [param clip] (see [method copy_nodes]) to the card, [param offset] away
## from where they were drawn, each under a free id. Links between the pasted nodes follow
## them (ports and the exits named [param exit_names]); links to nodes that were not copied
## are dropped, so a pasted group never reaches into the rest of the graph. The copy of the
## start node becomes the start when the card has none. Returns the new ids, in order.
static func paste_nodes(
	of_card: Dictionary, clip: Dictionary, offset: Vector2, exit_names: PackedStringArray
) -> PackedStringArray:
	var behavior := _behavior(of_card)
	var taken := PackedStringArray()
	for node: Variant in behavior["nodes"]:
		if node is Dictionary:
			taken.append(str(node.get("id", "")))
	var renamed := {}
	var copies: Array[Dictionary] = []
	for node: Variant in clip.get("nodes", []):
		if not node is Dictionary:
			continue
		var copy: Dictionary = node.duplicate(true)
		var new_id := _free_id(str(copy.get("id", "")), taken)
		taken.append(new_id)
		renamed[str(copy.get("id", ""))] = new_id
		copy["id"] = new_id
		copy["at"] = _shifted(node_at(copy, Vector2.ZERO), offset)
		copies.append(copy)
	var pasted := PackedStringArray()
	for copy in copies:
		for key in exit_names:
			if copy.has(key):
				if renamed.has(str(copy[key])):
					copy[key] = renamed[str(copy[key])]
				else:
					copy.erase(key)
		if copy.get("ports") is Dictionary:
			var ports: Dictionary = copy["ports"]
			for port: Variant in ports.keys():
				if renamed.has(str(ports[port])):
					ports[port] = renamed[str(ports[port])]
				else:
					ports.erase(port)
			if ports.is_empty():
				copy.erase("ports")
		behavior["nodes"].append(copy)
		pasted.append(str(copy["id"]))
	var start := str(clip.get("start", ""))
	if start_of(of_card).is_empty() and renamed.has(start):
		behavior["start"] = renamed[start]
	return pasted


## Removes the nodes [param node_ids] and every link to them: ports, start, and the exits
## named [param exit_names] (the schema's).
static func remove_nodes(
	of_card: Dictionary, node_ids: PackedStringArray, exit_names: PackedStringArray
) -> void:
	var kept: Array = []
	for node: Variant in nodes_of(of_card):
		if not (node is Dictionary and str(node.get("id", "")) in node_ids):
			kept.append(node)
	if kept.size() == nodes_of(of_card).size():
		return
	_behavior(of_card)["nodes"] = kept
	for node_id in node_ids:
		_relink(of_card, node_id, null, exit_names)


## Gives node [param old_id] the id [param new_id], and every link to it (ports, start, the
## exits named [param exit_names], playable_if).
static func rename_node(
	of_card: Dictionary, old_id: String, new_id: String, exit_names: PackedStringArray
) -> void:
	var node := node_of(of_card, old_id)
	if node.is_empty():
		return
	node["id"] = new_id
	_relink(of_card, old_id, new_id, exit_names)


## Feeds port [param port] of node [param to_id] from node [param from_id]
## ([code]""[/code] disconnects it).
static func set_port(of_card: Dictionary, to_id: String, port: String, from_id: String) -> void:
	var node := node_of(of_card, to_id)
	if node.is_empty():
		return
	var ports: Dictionary = node.get("ports") if node.get("ports") is Dictionary else {}
	if from_id.is_empty():
		ports.erase(port)
	else:
		ports[port] = from_id
	if ports.is_empty():
		node.erase("ports")
	else:
		node["ports"] = ports


## Links exit [param exit] of node [param from_id] to node [param to_id]; [param from_id]
## [code]""[/code] is the Behavior's start. [param to_id] [code]""[/code] unlinks.
static func set_exit(of_card: Dictionary, from_id: String, exit: String, to_id: String) -> void:
	if from_id.is_empty():
		var behavior := _behavior(of_card)
		if to_id.is_empty():
			behavior.erase("start")
		else:
			behavior["start"] = to_id
		return
	set_field(of_card, from_id, exit, to_id if not to_id.is_empty() else null)


## Sets field [param field] of node [param node_id] to [param value]; null removes it.
static func set_field(of_card: Dictionary, node_id: String, field: String, value: Variant) -> void:
	var node := node_of(of_card, node_id)
	if node.is_empty():
		return
	if value == null:
		node.erase(field)
	else:
		node[field] = value


## Records where node [param node_id] is drawn.
static func set_node_at(of_card: Dictionary, node_id: String, at: Vector2) -> void:
	set_field(of_card, node_id, "at", [roundi(at.x), roundi(at.y)])


## Where node [param node] is drawn ([code]at[/code]), or [param fallback].
static func node_at(node: Dictionary, fallback: Vector2) -> Vector2:
	var at: Variant = node.get("at")
	if (
		at is Array
		and at.size() == 2
		and (at[0] is int or at[0] is float)
		and (at[1] is int or at[1] is float)
	):
		return Vector2(float(at[0]), float(at[1]))
	return fallback


static func _shifted(at: Vector2, offset: Vector2) -> Array:
	return [roundi(at.x + offset.x), roundi(at.y + offset.y)]


static func _behavior(of_card: Dictionary) -> Dictionary:
	if not of_card.get("behavior") is Dictionary:
		of_card["behavior"] = {}
	var behavior: Dictionary = of_card["behavior"]
	if not behavior.get("nodes") is Array:
		behavior["nodes"] = []
	return behavior


## Points every link to [param old_id] at [param new_id] (null: removes the link).
static func _relink(
	of_card: Dictionary, old_id: String, new_id: Variant, exit_names: PackedStringArray
) -> void:
	var behavior := _behavior(of_card)
	if str(behavior.get("start", "")) == old_id:
		if new_id == null:
			behavior.erase("start")
		else:
			behavior["start"] = new_id
	for node: Variant in nodes_of(of_card):
		if not node is Dictionary:
			continue
		for key in exit_names:
			if node.get(key) != old_id:
				continue
			if new_id == null:
				node.erase(key)
			else:
				node[key] = new_id
		if node.get("ports") is Dictionary:
			var ports: Dictionary = node["ports"]
			for port: Variant in ports.keys():
				if ports[port] != old_id:
					continue
				if new_id == null:
					ports.erase(port)
				else:
					ports[port] = new_id
			if ports.is_empty():
				node.erase("ports")
	if of_card.get("playable_if") is Array:
		for rule: Variant in of_card["playable_if"]:
			if rule is Dictionary and new_id != null and rule.values().has(old_id):
				for key: Variant in rule.keys():
					if rule[key] == old_id:
						rule[key] = new_id


static func _free_id(base: String, taken: PackedStringArray) -> String:
	if base.is_empty():
		base = "item"
	if not base in taken:
		return base
	var n := 2
	while "%s_%d" % [base, n] in taken:
		n += 1
	return "%s_%d" % [base, n]
