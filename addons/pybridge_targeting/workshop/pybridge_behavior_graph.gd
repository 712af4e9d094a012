@tool
extends GraphEdit
## A card's Behavior as a graph: a [code]BehaviorNode[/code] per node, plus the start node the flow
## begins at. Data links go from a node's output to a typed port ([code]units[/code],
## [code]cards[/code], [code]condition[/code], as the schema's port kinds), flow links from an
## exit to a flow node's entry; the slot types make a wrong link impossible to draw.
##
## The graph never changes the card itself: it reports what the designer did as signals,
## which the Workshop turns into undoable edits and then shows again with [method show_card].

## A node of [param type_name] was added at [param at] (graph coordinates).
signal node_added(type_name: String, at: Vector2)
## Port [param port] of node [param to_id] is now fed by [param from_id] ([code]""[/code]: none).
signal port_linked(to_id: String, port: String, from_id: String)
## Exit [param exit] of [param from_id] ([code]""[/code]: the start) now leads to
## [param to_id] ([code]""[/code]: nowhere).
signal exit_linked(from_id: String, exit: String, to_id: String)
## The designer deleted these nodes.
signal nodes_deleted(node_ids: PackedStringArray)
## The designer moved nodes: node id -> new position.
signal nodes_moved(positions: Dictionary)
## A node's field changed (see [code]BehaviorNode.field_changed[/code]).
signal field_changed(node_id: String, field: String, value: Variant)
## A node was given a new id.
signal node_renamed(node_id: String, new_id: String)
## The designer chose Copy, Paste or Duplicate ([param action]: copy, paste, duplicate) in
## the graph's menu, opened at [param at] (graph coordinates).
signal edit_requested(action: String, at: Vector2)

const LinkRouter := preload("res://addons/pybridge_targeting/workshop/pybridge_link_router.gd")
const Arranger := preload("res://addons/pybridge_targeting/workshop/pybridge_graph_arranger.gd")
const GraphSpots := preload("res://addons/pybridge_targeting/workshop/pybridge_graph_spots.gd")
const GraphLinks := preload("res://addons/pybridge_targeting/workshop/pybridge_graph_links.gd")
const CardDocument := preload("res://addons/pybridge_targeting/workshop/pybridge_card_document.gd")
const GraphMenu := preload("res://addons/pybridge_targeting/workshop/pybridge_graph_menu.gd")
const BehaviorNode := preload("res://addons/pybridge_targeting/workshop/pybridge_graph_node.gd")
const Schema := preload("res://addons/pybridge_targeting/workshop/pybridge_workshop_schema.gd")
## What the start node is called.
const START_LABEL := "When played"
## Drag data key of a palette entry.
const DRAG_KEY := "pybridge_node_type"
## How wide nodes are drawn.
const NODE_WIDTH := 230.0
## How far the view zooms out to show a whole Behavior: below this a node's text is hard to
## read, so a larger graph is scrolled instead.
const MIN_FIT_ZOOM := 0.8

## The schema the nodes are built from.
var schema: Schema = null
## Node id -> its [code]BehaviorNode[/code] (the first one, when two nodes share an id).
var graph_nodes: Dictionary = {}
## The start node.
var start_node: BehaviorNode = null

## Whether there are copied nodes to paste (the menu offers Paste then).
var can_paste: bool = false

var _card: Dictionary = {}
var _start_at: Vector2 = Vector2.ZERO
var _shown: int = 0
var _menu: GraphMenu = null
var _menu_at: Vector2 = Vector2.ZERO
var _reroute_queued: bool = false
var _dragging: bool = false


func _init() -> void:
	right_disconnects = true
	minimap_enabled = false
	show_zoom_label = true
	connection_request.connect(_on_connection_request)
	disconnection_request.connect(_on_disconnection_request)
	delete_nodes_request.connect(_on_delete_nodes_request)
	begin_node_move.connect(func() -> void: _dragging = true)
	end_node_move.connect(_on_end_node_move)
	popup_request.connect(_on_popup_request)
	child_entered_tree.connect(_on_child_entered)
	child_exiting_tree.connect(_reroute_later.unbind(1))


## Uses [param new_schema] for the nodes, their slots and the add menu.
func set_schema(new_schema: Schema) -> void:
	schema = new_schema
	schema.register_slot_types(self)
	if _menu != null:
		_menu.queue_free()
	_menu = GraphMenu.new(schema)
	_menu.has_selection = func() -> bool: return not selected_ids().is_empty()
	_menu.can_paste = func() -> bool: return can_paste
	_menu.type_chosen.connect(func(type_name: String) -> void: node_added.emit(type_name, _menu_at))
	_menu.edit_chosen.connect(func(action: String) -> void: edit_requested.emit(action, _menu_at))
	add_child(_menu)


## Shows [param card]'s Behavior (rebuilding every node). [param fresh]: another card than
## the one shown before, so the start node is placed anew and the view framed.
func show_card(card: Dictionary, fresh: bool = false) -> void:
	_card = card
	clear_connections()
	for child in get_children():
		if child is GraphNode:
			remove_child(child)
			child.queue_free()
	graph_nodes.clear()
	start_node = null
	if card.is_empty():
		return  # no card (an empty library): nothing to start, so no When played either
	start_node = BehaviorNode.new()
	start_node.build_start(START_LABEL)
	add_child(start_node)
	var nodes := CardDocument.nodes_of(card)
	var leftmost := Vector2(INF, INF)
	for i in nodes.size():
		var data: Dictionary = nodes[i] if nodes[i] is Dictionary else {"id": "", "type": ""}
		var view := BehaviorNode.new()
		view.name = "n%d" % i
		var fed := PackedStringArray()
		for port in schema.node_type(str(data.get("type", ""))).get("ports", []).size():
			fed.append(GraphLinks.input_kind(schema, card, data, port))
		view.build(data, schema, fed)
		var fallback := Vector2(280 * (i % 4), 40 + 220 * floori(i / 4.0))
		view.position_offset = CardDocument.node_at(data, fallback)
		view.field_changed.connect(field_changed.emit)
		view.id_changed.connect(node_renamed.emit)
		add_child(view)
		if not graph_nodes.has(view.node_id):
			graph_nodes[view.node_id] = view
		if view.position_offset.x < leftmost.x:
			leftmost = view.position_offset
	if fresh:
		# Left of every node, level with the first one run (the format keeps no place for it).
		_start_at = GraphSpots.start_place(self, CardDocument.start_of(card), leftmost)
	start_node.position_offset = _start_at
	# Links once the nodes have laid out their ports.
	_shown += 1
	_connect_links.call_deferred(card, _shown)
	if fresh:
		frame_all.call_deferred()


## Shows every node, the start node first: scrolls to their top left corner and zooms out
## (not below [constant MIN_FIT_ZOOM]) when they do not fit.
func frame_all() -> void:
	if not GraphSpots.frame(self) and not resized.is_connected(frame_all):
		# Not laid out yet (a graph shown for the first time): its size would ask for the
		# smallest zoom. Frame it once it has its size.
		resized.connect(frame_all, CONNECT_ONE_SHOT)


## Shows each diagnostic on the node it names ([code]place.node[/code]); a diagnostic about
## [code]behavior.start[/code] shows on the start node.
func show_diagnostics(diagnostics: Array) -> void:
	var by_node := {}
	var at_start: Array = []
	for diagnostic: Variant in diagnostics:
		var place: Dictionary = diagnostic.get("place", {})
		var key := str(place.get("node", ""))
		if key.is_empty() and str(place.get("field", "")).begins_with("behavior.start"):
			at_start.append(diagnostic)
		elif not key.is_empty():
			if not by_node.has(key):
				by_node[key] = []
			by_node[key].append(diagnostic)
	for node_id: String in graph_nodes:
		(graph_nodes[node_id] as BehaviorNode).show_diagnostics(by_node.get(node_id, []))
	if start_node != null:
		start_node.show_diagnostics(at_start)


## Selects node [param node_id], scrolls it to the middle and focuses the control of
## [param field] in it (if it has one). False when there is no such node.
func focus_node(node_id: String, field: String) -> bool:
	var view: BehaviorNode = graph_nodes.get(node_id)
	if node_id.is_empty() and field.begins_with("behavior.start"):
		view = start_node
	if view == null:
		return false
	set_selected(view)
	if view != start_node:
		reveal(view.node_id)
	var control := view.field_control(field)
	if control != null and control.focus_mode != Control.FOCUS_NONE:
		control.grab_focus()
	else:
		view.grab_focus()
	return true


## A free spot in the visible part of the graph for a node of [param type_name] added by a
## click: the first place, left to right and top to bottom, where it fits without covering
## another node.
func free_spot(type_name: String) -> Vector2:
	return free_spot_for(estimated_size(type_name))


## A free spot in view for something of size [param room] (see [method free_spot]).
func free_spot_for(room: Vector2) -> Vector2:
	return GraphSpots.free_spot(self, room, _card)


## Lays every node out left to right along its links ([code]Arranger[/code]) and reports
## the new places as a move ([signal nodes_moved]).
func arrange_all() -> void:
	var placed := Arranger.arrange_graph(self, start_node)
	for node: GraphNode in placed:
		node.position_offset = placed[node]
	_on_end_node_move()
	frame_all.call_deferred()


## The ids of the selected nodes (the start node is never one: it is not a node of the card).
func selected_ids() -> PackedStringArray:
	var ids := PackedStringArray()
	for child in get_children():
		var view := child as BehaviorNode
		if view != null and view.selected and not view.is_start and not view.node_id in ids:
			ids.append(view.node_id)
	return ids


## Selects every node of the card (not the start node).
func select_all() -> void:
	select_nodes(PackedStringArray(graph_nodes.keys()))


## Selects the nodes [param node_ids] and only them.
func select_nodes(node_ids: PackedStringArray) -> void:
	for child in get_children():
		var view := child as BehaviorNode
		if view != null:
			view.selected = not view.is_start and view.node_id in node_ids


## How far to move the nodes of [param clip] so that the group's top left corner lands at
## [param at] (graph coordinates).
func offset_to(clip: Dictionary, at: Vector2) -> Vector2:
	return at - GraphSpots.clip_box(self, clip).position


## Where a copy of [param clip] goes by default: the first free spot in view for the whole
## group (see [method free_spot]), as an offset from where the nodes are.
func free_offset(clip: Dictionary) -> Vector2:
	var box := GraphSpots.clip_box(self, clip)
	return free_spot_for(box.size) - box.position


## About how large a node of [param type_name] is drawn, from its rows in the schema.
func estimated_size(type_name: String) -> Vector2:
	var spec := schema.node_type(type_name) if schema != null else {}
	var rows: int = 1 + spec.get("ports", []).size() + spec.get("fields", []).size()
	rows += schema.exits_of(type_name).size() if schema != null else 0
	rows += 1 if spec.has("source") else 0
	return Vector2(NODE_WIDTH, 44 + 33 * rows)


## Scrolls just enough to show node [param node_id] whole.
func reveal(node_id: String) -> void:
	var view: BehaviorNode = graph_nodes.get(node_id)
	if view != null:
		GraphSpots.reveal(self, view)


## Points for tools and tests: each node's (by id; the start node under [code]""[/code]) and
## the middle of the graph, global coordinates.
func layout_points() -> Dictionary:
	var nodes := {}
	if not is_visible_in_tree():
		# Hidden nodes have not laid out their ports; asking would only log errors.
		return {"nodes": nodes, "middle": [], "zoom": zoom}
	for node_id: String in graph_nodes:
		nodes[node_id] = (graph_nodes[node_id] as BehaviorNode).layout_points()
	if start_node != null:
		nodes[""] = start_node.layout_points()
	var middle := get_global_transform_with_canvas() * (size * 0.5)
	return {
		"nodes": nodes,
		"middle": [roundi(middle.x), roundi(middle.y)],
		"zoom": zoom,
		"links": LinkRouter.link_lines(self),
		"drawn": LinkRouter.drawn_lines(self),
	}


## Links are drawn around the nodes ([code]LinkRouter[/code]); the points are in the graph's
## coordinates times the zoom, as GraphEdit gives them.
func _get_connection_line(from_position: Vector2, to_position: Vector2) -> PackedVector2Array:
	var rects := LinkRouter.node_rects(self)
	return LinkRouter.route(from_position, to_position, rects, zoom, connection_lines_curvature)


func _can_drop_data(_at_position: Vector2, data: Variant) -> bool:
	return data is Dictionary and data.has(DRAG_KEY)


func _drop_data(at_position: Vector2, data: Variant) -> void:
	node_added.emit(str(data[DRAG_KEY]), (at_position + scroll_offset) / zoom)


func _is_node_hover_valid(
	from_node: StringName, _from_port: int, to_node: StringName, _to_port: int
) -> bool:
	return from_node != to_node


func _connect_links(card: Dictionary, shown: int) -> void:
	if shown == _shown:  # else another card (or version) was shown since
		GraphLinks.connect_card(self, card)


func _view(node_name: StringName) -> BehaviorNode:
	return get_node_or_null(NodePath(node_name)) as BehaviorNode


func _on_connection_request(
	from_node: StringName, from_port: int, to_node: StringName, to_port: int
) -> void:
	var from := _view(from_node)
	var to := _view(to_node)
	if from == null or to == null or from == to:
		return
	var out: Dictionary = from.outputs[from_port]
	var into: Dictionary = to.inputs[to_port]
	if out["role"] == "output" and into["role"] == "port":
		port_linked.emit(to.node_id, str(into["name"]), from.node_id)
	elif out["role"] == "exit" and into["role"] == "flow":
		exit_linked.emit(from.node_id, str(out["name"]), to.node_id)


func _on_disconnection_request(
	from_node: StringName, from_port: int, to_node: StringName, to_port: int
) -> void:
	var from := _view(from_node)
	var to := _view(to_node)
	if from == null or to == null:
		return
	var out: Dictionary = from.outputs[from_port]
	var into: Dictionary = to.inputs[to_port]
	if into["role"] == "port":
		port_linked.emit(to.node_id, str(into["name"]), "")
	elif out["role"] == "exit":
		exit_linked.emit(from.node_id, str(out["name"]), "")


func _on_delete_nodes_request(names: Array[StringName]) -> void:
	var ids := PackedStringArray()
	for node_name in names:
		var view := _view(node_name)
		if view != null and not view.is_start:
			ids.append(view.node_id)
	if not ids.is_empty():
		nodes_deleted.emit(ids)


func _on_end_node_move() -> void:
	_dragging = false
	_reroute_later()
	if start_node != null:
		_start_at = start_node.position_offset
	var moved := {}
	for node_id: String in graph_nodes:
		var view: BehaviorNode = graph_nodes[node_id]
		var data := CardDocument.node_of(_card, node_id)
		if view.position_offset != CardDocument.node_at(data, -Vector2.ONE):
			moved[node_id] = view.position_offset
	if not moved.is_empty():
		nodes_moved.emit(moved)


func _on_child_entered(child: Node) -> void:
	var node := child as GraphNode
	if node != null:
		node.position_offset_changed.connect(_reroute_later)
		node.resized.connect(_reroute_later)
		_reroute_later()


## GraphEdit redraws only the links of a node that moved; a link routed around that node
## must follow too, so every link is drawn again (once a frame at most). While the designer
## drags nodes only theirs follow, and every link once they are dropped: routing them all on
## every frame of a drag would make it stutter on a large graph.
func _reroute_later() -> void:
	if not _reroute_queued and not _dragging:
		_reroute_queued = true
		_reroute.call_deferred()


func _reroute() -> void:
	_reroute_queued = false
	connection_lines_curvature = connection_lines_curvature  # marks every line to be redrawn


func _on_popup_request(at_position: Vector2) -> void:
	if _menu == null:
		return
	_menu_at = (at_position + scroll_offset) / zoom
	_menu.position = Vector2i(get_screen_position() + at_position)
	_menu.popup()
