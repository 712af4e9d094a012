@tool
extends RefCounted
## The runtime's [code]lint[/code] of a document Resource: the Resource holds data only, so
## whether it is a valid battle or library, and how to fix it, is the runtime's answer. A
## card or a unit is checked inside the document that holds it: a card in a library of its
## own (the library format named by the runtime's [code]schema[/code]).

const DocumentResource := preload(
	"res://addons/pybridge_targeting/resources/pybridge_document_resource.gd"
)


## The diagnostics of [param resource] (a battle, library or card Resource), each as the
## runtime gives it ([code]code[/code], [code]severity[/code], [code]path[/code],
## [code]message[/code], [code]fix[/code]...); one with code [code]""[/code] and the error's
## message when the runtime did not answer.
static func check(bridge: PyBridgeClient, resource: DocumentResource) -> Array:
	var document := resource.write()
	if resource is PyBridgeCardResource:
		var schema: Dictionary = await bridge.ask("schema")
		var formats: Dictionary = schema.get("formats", {})
		document = {"format": formats.get("library", ""), "cards": [document]}
	var answer: Dictionary = await bridge.ask("lint", {"document": document})
	if not answer.has("diagnostics"):
		var message := str(bridge.last_error.get("message", "the runtime did not answer"))
		return [{"code": "", "severity": "error", "path": "", "message": message}]
	return answer["diagnostics"]


## One line per diagnostic: [code]CODE severity at path: message[/code].
static func lines(diagnostics: Array) -> PackedStringArray:
	var out := PackedStringArray()
	for diagnostic: Variant in diagnostics:
		if diagnostic is Dictionary:
			out.append(
				(
					"%s %s at %s: %s"
					% [
						diagnostic.get("code", ""),
						diagnostic.get("severity", ""),
						diagnostic.get("path", ""),
						diagnostic.get("message", "")
					]
				)
			)
	return out
