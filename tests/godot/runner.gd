extends Control
## Runs every test_*.gd of this folder: each is a suite (extends suite.gd), each of its
## methods named test_* a test, awaited in turn with a fresh suite node in the tree. Prints
## one line per test and one at the end, for tests/test_gdscript.py:
## [code]PYBRIDGE_TEST {"suite", "test", "ok", "checks", "failures", "ms"}[/code] and
## [code]PYBRIDGE_TESTS_DONE {"passed", "failed", "suites"}[/code].

const LINE := "PYBRIDGE_TEST "
const DONE := "PYBRIDGE_TESTS_DONE "


func _ready() -> void:
	var passed := 0
	var failed := 0
	var files := Array(DirAccess.get_files_at("res://")).filter(
		func(name: String) -> bool: return name.begins_with("test_") and name.ends_with(".gd")
	)
	files.sort()
	for file: String in files:
		var script := load("res://" + file) as GDScript
		if script == null:
			print(
				(
					LINE
					+ JSON.stringify(
						{
							"suite": file,
							"test": "",
							"ok": false,
							"failures": ["the script does not load"]
						}
					)
				)
			)
			failed += 1
			continue
		for method: Dictionary in script.get_script_method_list():
			var test := str(method["name"])
			if not test.begins_with("test_"):
				continue
			var suite: Node = script.new()
			suite.name = file.get_basename()
			add_child(suite)
			var started := Time.get_ticks_msec()
			await suite.call(test)
			var failures: Array = suite.get("failures")
			var checks := int(suite.get("checks"))
			if checks == 0:
				failures.append("the test checked nothing")
			var ok := failures.is_empty()
			passed += 1 if ok else 0
			failed += 0 if ok else 1
			print(
				(
					LINE
					+ JSON.stringify(
						{
							"suite": file.get_basename(),
							"test": test,
							"ok": ok,
							"checks": checks,
							"failures": failures,
							"ms": Time.get_ticks_msec() - started
						}
					)
				)
			)
			suite.queue_free()
			await get_tree().process_frame
	print(DONE + JSON.stringify({"passed": passed, "failed": failed, "suites": files.size()}))
