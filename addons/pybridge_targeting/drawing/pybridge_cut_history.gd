@tool
extends RefCounted
## What became of a [PyBridgeCutView]'s entries, chain by chain: each entry that left the
## Cut with its outcome and the chain it was part of (a chain starts on an empty Cut and
## ends when the Cut is empty again), and how far the chain under way has resolved
## ("Resolving 2 of 3", then "Chain resolved"), and the rows that list them. It counts what
## the view was shown; every word about the rules stays the runtime's.

## How many resolved entries it remembers.
const KEPT := 6

## The entries that resolved, newest first:
## [code][{"id", "title", "label", "side", "outcome", "lines", "chain"}][/code] (see
## [member PyBridgeCutView.history]).
var items: Array[Dictionary] = []
## The number of the chain under way, or of the last one (1 for a battle's first).
var chain: int = 0
## Whether a chain is under way (an entry of it resolved and the Cut is not empty yet).
var open: bool = false
## How far the chain has come: [code]"Resolving 2 of 3: Strike…"[/code] while an entry
## resolves, [code]"Chain resolved."[/code] once the Cut is empty again, else [code]""[/code].
var status: String = ""


## Remembers [param item] as it starts to resolve, with [param waiting] entries on the Cut
## (itself included); the status counts it.
func remember(item: Dictionary, waiting: int) -> void:
	if items.is_empty() and not open:
		chain = 0  # a new battle (the history was cleared)
	if not open:
		chain += 1
		open = true
	item["chain"] = chain
	items.push_front(item)
	if items.size() > KEPT:
		items.resize(KEPT)
	var done := items.filter(func(each: Dictionary) -> bool: return each["chain"] == chain).size()
	status = tr("Resolving %d of %d: %s…") % [done, done - 1 + waiting, str(item["title"])]


## The Cut now holds [param entries]: an empty Cut ends the chain under way.
func shown(entries: Array) -> void:
	for item in items:
		if item["outcome"] == "resolving":
			item["outcome"] = "resolved"
	if entries.is_empty() and open:
		open = false
		status = tr("Chain resolved.")
	elif not entries.is_empty() or items.is_empty():
		status = ""


## Lists [member items] in [param into], newest first, each chain under its heading with a
## rule above the older chains; [param label] makes each line,
## [code]func(text: String, color: StringName, font_size: StringName) -> Label[/code] with the
## theme items of [code]PyBridgeCutView[/code].
func fill(into: Container, label: Callable) -> void:
	var heading := -1
	for each in items:
		if each["chain"] != heading:
			if heading != -1:
				into.add_child(HSeparator.new())
			heading = each["chain"]
			into.add_child(label.call(heading_of(heading), &"dim_text", &"detail_size"))
		into.add_child(_row(each, label))


## The heading of the chain [param number] ([code]"Chain 2"[/code]).
func heading_of(number: int) -> String:
	return tr("Chain %d") % number


## The headings of the chains [member items] lists, newest first.
func headings() -> Array[String]:
	var found: Array[String] = []
	for each in items:
		if not found.has(heading_of(each["chain"])):
			found.append(heading_of(each["chain"]))
	return found


## The remembered entry [param entry_id] (of the newest chain that had it), or a blank one.
func item(entry_id: String) -> Dictionary:
	for each in items:
		if each["id"] == entry_id:
			return each
	return {"outcome": "", "lines": []}


# An entry that left the Cut: its place in its chain, its name and outcome, and the runtime's
# lines about it.
func _row(item: Dictionary, label: Callable) -> Control:
	var failed: bool = item["outcome"] == "failed"
	var outcome := tr("fizzled") if failed else tr("resolving")
	if item["outcome"] == "resolved":
		outcome = tr("resolved")
	var text := "%d  %s · %s" % [int(item["label"]), str(item["title"]), outcome]
	var column := VBoxContainer.new()
	column.add_theme_constant_override(&"separation", 0)
	column.add_child(label.call(text, &"failed" if failed else &"resolved", &"entry_size"))
	for line: String in item["lines"]:
		var reason: Label = label.call(line, &"failed" if failed else &"dim_text", &"detail_size")
		reason.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
		column.add_child(reason)
	return column
