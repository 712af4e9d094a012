@tool
@icon("res://addons/pybridge_targeting/icons/pybridge_cut_view.svg")
class_name PyBridgeCutView
extends PanelContainer
## The Cut on screen: the effects waiting to resolve, the top of the stack first, whose
## answer the top entry waits for, Respond and Pass, and what became of the entries that
## resolved (a failed one fizzles with the runtime's reason).
##
## Give it to [member PyBridgeBattleView.cut_view]: the battle view then puts plays on the
## Cut ([code]activate[/code]), shows every [code]cut[/code] answer here with
## [method show_cut], plays each resolution back here step by step ([method show_step]) and
## answers the buttons ([signal pass_pressed], [signal respond_pressed]). Each entry shows
## its place on the Cut (1 at the bottom, the number TargetMarks puts on its units),
## its card or move, who played it, the targets it locked, the range an "all ~" entry reaches
## now, or that it chooses as it resolves; the pointer over an entry shows its card's or
## move's whole text, its source and its targets in a tooltip ([signal tooltip_changed]).
## While an entry resolves the panel says how far the chain has come ([member status]), and
## the resolved entries are listed chain by chain. Every word about the rules is the
## runtime's: names and texts from the state, outcomes from its log lines. Styled by the
## theme items of the type [code]PyBridgeCutView[/code] (colours [code]player[/code],
## [code]enemy[/code], [code]resolving[/code], [code]failed[/code], [code]resolved[/code],
## [code]text[/code], [code]dim_text[/code], [code]background[/code]; font sizes
## [code]title_size[/code], [code]entry_size[/code], [code]detail_size[/code]) and the game's
## Label and Button styles.

## The Pass button (or its action) was pressed.
signal pass_pressed
## The Respond button (or its action) was pressed.
signal respond_pressed
## The entry tooltip changed: the pointer is over [param entry_id], whose tooltip shows
## [param title] and [param text] (all [code]""[/code] when it hides).
signal tooltip_changed(entry_id: String, title: String, text: String)

const Tooltip := preload("res://addons/pybridge_targeting/drawing/pybridge_tooltip.gd")
const BattleInput := preload("res://addons/pybridge_targeting/battle/pybridge_battle_input.gd")
const BattleLayout := preload("res://addons/pybridge_targeting/battle/pybridge_battle_layout.gd")
const CutFlow := preload("res://addons/pybridge_targeting/battle/pybridge_cut_flow.gd")
const CutHistory := preload("res://addons/pybridge_targeting/drawing/pybridge_cut_history.gd")
const CutRows := preload("res://addons/pybridge_targeting/drawing/pybridge_cut_rows.gd")
const CutTip := preload("res://addons/pybridge_targeting/drawing/pybridge_cut_tip.gd")
const Relay := preload("res://addons/pybridge_targeting/battle/pybridge_relay.gd")
const Sentences := preload("res://addons/pybridge_targeting/pybridge_sentences.gd")
## The theme type of every item it reads.
const THEME_TYPE := &"PyBridgeCutView"
## How many resolved entries it remembers.
const HISTORY := CutHistory.KEPT

## The runtime's last [code]cut[/code] answer.
var cut: Dictionary = {}
## The entries that resolved, newest first:
## [code][{"id", "title", "label", "side", "outcome", "lines", "chain"}][/code],
## [code]outcome[/code] being [code]"resolving"[/code], [code]"resolved"[/code] or
## [code]"failed"[/code], [code]lines[/code] the runtime's log lines about it and
## [code]chain[/code] the number of its chain ([code]label[/code] is its place in that chain).
var history: Array[Dictionary]:
	get:
		return _history.items
## How far the chain has come: [code]"Resolving 2 of 3: Strike…"[/code] while an entry
## resolves, [code]"Chain resolved."[/code] once the Cut is empty again, else [code]""[/code].
var status: String:
	get:
		return _history.status
## The tooltip of the entry under the pointer.
var tooltip: Tooltip = Tooltip.new()
## The entry resolving now, or [code]""[/code].
var resolving: String = ""
## The Respond button.
var respond_button: Button = Button.new()
## The Pass button.
var pass_button: Button = Button.new()

var _look: PyBridge.ViewTheme.Lookup = null
var _history: CutHistory = CutHistory.new()
var _texts: Dictionary = {}
var _tip: CutTip = CutTip.new(self)
var _drawn: CutRows = null
var _restyling: bool = false
var _rows: Dictionary = {}
var _title: Label = Label.new()
var _awaiting: Label = Label.new()
var _status: Label = Label.new()
var _entries: VBoxContainer = VBoxContainer.new()
var _past_title: Label = Label.new()
var _past: VBoxContainer = VBoxContainer.new()


func _init() -> void:
	_look = PyBridge.ViewTheme.Lookup.new(self, THEME_TYPE)
	_drawn = CutRows.new(_look)
	Relay.relay(_tip, self)
	custom_minimum_size = Vector2(300, 200)
	clip_contents = true
	var rows := VBoxContainer.new()
	rows.add_theme_constant_override(&"separation", 6)
	add_child(rows)
	# The title and the buttons first: the buttons keep their place as the Cut grows.
	var head := HBoxContainer.new()
	head.add_theme_constant_override(&"separation", 8)
	rows.add_child(head)
	_title.text = tr("THE CUT")
	_title.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	head.add_child(_title)
	for button in [respond_button, pass_button]:
		button.focus_mode = Control.FOCUS_NONE
		button.custom_minimum_size = Vector2(112, 38)
		head.add_child(button)
	# How far the chain has come, then what the runtime asks now.
	_status.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	rows.add_child(_status)
	_awaiting.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	rows.add_child(_awaiting)
	# The stack and its history scroll inside the panel: a long Cut never grows it over the
	# screen below.
	var scroll := ScrollContainer.new()
	scroll.horizontal_scroll_mode = ScrollContainer.SCROLL_MODE_DISABLED
	scroll.size_flags_vertical = Control.SIZE_EXPAND_FILL
	rows.add_child(scroll)
	var listed := VBoxContainer.new()
	listed.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	listed.add_theme_constant_override(&"separation", 6)
	scroll.add_child(listed)
	_entries.add_theme_constant_override(&"separation", 5)
	listed.add_child(_entries)
	_past_title.text = tr("Resolved")
	listed.add_child(_past_title)
	_past.add_theme_constant_override(&"separation", 3)
	listed.add_child(_past)
	respond_button.pressed.connect(func() -> void: respond_pressed.emit())
	pass_button.pressed.connect(func() -> void: pass_pressed.emit())
	tooltip.name = "EntryTooltip"
	add_child(tooltip)  # top level: the panel does not lay it out


func _ready() -> void:
	_restyle()
	_rebuild()


func _input(event: InputEvent) -> void:
	if event is InputEventMouseMotion and not Engine.is_editor_hint():
		_tip.hover_at(get_global_mouse_position())


func _notification(what: int) -> void:
	# Restyling overrides the panel's own style box, which notifies a theme change again.
	if what == NOTIFICATION_THEME_CHANGED and is_inside_tree() and not _restyling:
		_restyling = true
		_restyle()
		_rebuild()
		_restyling = false


## Shows the runtime's [code]cut[/code] [param answer]; [param names] gives display names
## ([method PyBridgeBattleView.names]) and [param texts] the cards' and moves' texts for the
## entries' tooltips ([code]BattleData.texts()[/code]). An entry that left the Cut keeps
## its outcome in [member history]; an empty Cut ends the chain.
func show_cut(answer: Dictionary, names: Dictionary, texts: Dictionary = {}) -> void:
	cut = answer
	_drawn.names = names
	_texts = texts
	_drawn.ranges.clear()
	_history.shown(answer.get("cut", []))
	resolving = ""
	_rebuild()


## Shows one step of a resolution's playback: the runtime's log [param line] and the
## [param events] it tells, as CutFlow reads them (the one place that tells the
## Cut's events apart).
func show_step(line: Dictionary, events: Array) -> void:
	CutFlow.read_step(line, events, self)
	_rebuild()


## The entry [param entry_id] resolves now: [member status] says how far the chain has come.
func show_resolving(entry_id: String) -> void:
	resolving = entry_id
	_remember(entry_id)


## The range [param units] an "all ~" entry [param entry_id] collected again.
func show_range(entry_id: String, units: Array) -> void:
	_drawn.ranges[entry_id] = units


## A target of the entry [param entry_id] was lost: the runtime's line [param text] joins
## its history. The entry is not failed by it (under soft rules it resolves on the targets
## it keeps): only [method show_failed] fails it.
func show_lost(entry_id: String, _unit: String, text: String) -> void:
	_tell(entry_id, text)


## The runtime failed the effect of the entry [param entry_id] (effect_failed): it fizzles,
## with the runtime's line [param text].
func show_failed(entry_id: String, text: String) -> void:
	_history.item(entry_id)["outcome"] = "failed"
	_tell(entry_id, text)


## Where the entry [param entry_id] is drawn (global), or an empty rectangle.
func entry_rect(entry_id: String) -> Rect2:
	var row: Control = _rows.get(entry_id)
	return row.get_global_rect() if row != null and row.is_inside_tree() else Rect2()


## The tooltip of the entry [param entry_id] on the Cut: [code]{"title", "text", "note"}[/code],
## its card's or move's text, and its source and targets; empty when it is not on the Cut.
func entry_tip(entry_id: String) -> Dictionary:
	for entry in _listed():
		if str(entry.get("id", "")) == entry_id:
			return _tip.tip_of(entry, _drawn.title_of(entry), _texts, _drawn.names, _drawn.ranges)
	return {}


## What it shows now, for scripts and tests: [code]{"entries": [{"id", "label", "side",
## "title", "detail", "state", "point"}] (the top first), "prompt" (the line shown),
## "status" ([member status]), "history", "chains" (the history's headings, newest first),
## "tooltip": {"entry", "title", "text", "note", "visible"}, "respond": {"enabled", "point"},
## "pass": {"enabled", "point"}}[/code] (points global).
func shown() -> Dictionary:
	var entries := []
	for entry in _listed():
		var id := str(entry.get("id", ""))
		var point := entry_rect(id).get_center()
		entries.append(
			{
				"id": id,
				"label": int(entry.get("label", 0)),
				"side": str(entry.get("side", "")),
				"title": _drawn.title_of(entry),
				"detail": _drawn.detail_of(entry),
				"state": "resolving" if id == resolving else "waiting",
				"point": BattleLayout.xy(point)
			}
		)
	return {
		"entries": entries,
		"prompt": _awaiting.text,
		"status": _status.text,
		"history": history.duplicate(true),
		"chains": _history.headings(),
		"tooltip":
		{
			"entry": _tip.entry,
			"title": tooltip.title,
			"text": tooltip.text,
			"note": tooltip.note,
			"visible": tooltip.visible
		},
		"respond": _button_state(respond_button),
		"pass": _button_state(pass_button),
	}


func _listed() -> Array[Dictionary]:
	var listed: Array[Dictionary] = []
	var entries: Array = cut.get("cut", [])
	for i in range(entries.size() - 1, -1, -1):
		var entry: Dictionary = entries[i].duplicate()
		entry["label"] = i + 1
		listed.append(entry)
	return listed


func _rebuild() -> void:
	if not is_inside_tree():
		return
	for child in _entries.get_children():
		child.queue_free()
	for child in _past.get_children():
		child.queue_free()
	_rows.clear()
	var listed := _listed()
	for entry in listed:
		var row := _drawn.row(entry, str(entry.get("id", "")) == resolving)
		_rows[str(entry.get("id", ""))] = row
		_entries.add_child(row)
	if listed.is_empty():
		_entries.add_child(
			_drawn.label(tr("Nothing waits on the Cut."), &"dim_text", &"detail_size")
		)
	_history.fill(_past, _drawn.label)
	_past_title.visible = not history.is_empty()
	# While an entry resolves the runtime's prompt is the one before the pass: the status
	# takes its place until the new answer comes.
	_awaiting.text = "" if not resolving.is_empty() else _prompt()
	_awaiting.visible = not _awaiting.text.is_empty()
	_status.text = status
	_status.visible = not status.is_empty()
	respond_button.text = BattleInput.with_key(tr("Respond"), BattleInput.RESPOND)
	pass_button.text = BattleInput.with_key(tr("Pass"), BattleInput.PASS)
	var idle := resolving.is_empty()
	respond_button.disabled = not (idle and bool(cut.get("can_respond", false)))
	pass_button.disabled = not (idle and bool(cut.get("can_pass", false)))
	_tip.rows_changed()


func _prompt() -> String:
	# The runtime's narrator words it (the cut answer's prompt), said in the current locale.
	return Sentences.say(cut.get("prompt_message"), str(cut.get("prompt", "")))


func _remember(entry_id: String) -> void:
	var listed := _listed()
	for entry in listed:
		if str(entry.get("id", "")) == entry_id:
			var item := {
				"id": entry_id,
				"title": _drawn.title_of(entry),
				"label": int(entry.get("label", 0)),
				"side": str(entry.get("side", "")),
				"outcome": "resolving",
				"lines": []
			}
			_history.remember(item, listed.size())
			return


func _tell(entry_id: String, text: String) -> void:
	var lines: Array = _history.item(entry_id)["lines"]
	if not text.is_empty() and (lines.is_empty() or lines[-1] != text):
		lines.append(text)


func _button_state(button: Button) -> Dictionary:
	var point := button.get_global_rect().get_center() if button.is_inside_tree() else Vector2()
	return {"enabled": not button.disabled, "point": BattleLayout.xy(point)}


func _restyle() -> void:
	add_theme_stylebox_override(
		&"panel", CutRows.box_of(_look.color(&"background"), Color(1, 1, 1, 0.12), 1)
	)
	_title.add_theme_font_size_override(&"font_size", _look.font_size(&"title_size"))
	_title.add_theme_color_override(&"font_color", _look.color(&"resolving"))
	_past_title.add_theme_font_size_override(&"font_size", _look.font_size(&"detail_size"))
	_past_title.add_theme_color_override(&"font_color", _look.color(&"dim_text"))
	_awaiting.add_theme_font_size_override(&"font_size", _look.font_size(&"detail_size"))
	_awaiting.add_theme_color_override(&"font_color", _look.color(&"text"))
	_status.add_theme_font_size_override(&"font_size", _look.font_size(&"detail_size"))
	_status.add_theme_color_override(&"font_color", _look.color(&"resolving"))
