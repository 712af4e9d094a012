@tool
extends RefCounted
## The battle view's parts emit their own signals; the view emits each as its own signal of
## the same name, so a part never reaches into the view to tell the game something.


## Connects each signal [param part]'s script declares to [param view]'s signal of the same
## name (every one of them has its twin there), but for a part's requests to the view itself
## (a signal named [code]..._asked[/code]), which the view's wiring connects to what answers.
static func relay(part: Object, view: Object) -> void:
	for declared: Dictionary in part.get_script().get_script_signal_list():
		var name: StringName = declared["name"]
		if String(name).ends_with("_asked"):
			continue
		assert(view.has_signal(name), "the view has no signal %s" % name)
		part.connect(name, Signal(view, name).emit)
