extends "res://suite.gd"
## The Workshop's library store keeps a library in either form a game loads: JSON, or a
## PyBridgeLibraryResource saved as .tres. Both are listed, read as the same JSON document and
## written back without loss; a Resource that is not a library is neither listed nor read.

const FORMAT := "pybridge/cards@1"
const Store := preload("res://addons/pybridge_targeting/workshop/pybridge_library_store.gd")


func _library() -> Dictionary:
	return {"format": FORMAT, "cards": demo_battle()["cards"]}


func _fresh_folder(name: String) -> String:
	var folder := "user://%s" % name
	DirAccess.make_dir_recursive_absolute(folder)
	for file_name in DirAccess.get_files_at(folder):
		DirAccess.remove_absolute(folder.path_join(file_name))
	return folder


func test_a_library_written_as_tres_is_a_resource_that_reads_back_as_it_was() -> void:
	var folder := _fresh_folder("store_tres")
	var store := Store.new(folder)
	var path := folder.path_join("starter.tres")
	var text := JSON.stringify(_library(), "\t")
	check_eq(store.write(path, text), "", "written")
	var header := FileAccess.open(path, FileAccess.READ).get_line()
	check(header.begins_with("[gd_resource"), "a text Resource: %s" % header)
	var loaded := ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	check(loaded is PyBridgeLibraryResource, "loaded as a library Resource")
	check_eq((loaded as PyBridgeLibraryResource).cards.size(), _library()["cards"].size(), "cards")
	var read := store.read(path)
	check_eq(read.get("name"), "starter.tres", "named by its file")
	check_eq(
		JSON.parse_string(str(read.get("text"))),
		JSON.parse_string(JSON.stringify(_library())),
		"the same document"
	)
	# Written again from what was read: still the same (a second round trip loses nothing).
	check_eq(store.write(path, str(read["text"])), "", "written again")
	check_eq(store.read(path).get("text"), read["text"], "and read the same")


func test_both_forms_are_listed_and_other_files_are_not() -> void:
	var folder := _fresh_folder("store_list")
	var store := Store.new(folder)
	var text := JSON.stringify(_library())
	check_eq(store.write(folder.path_join("a.json"), text), "", "a JSON library")
	check_eq(store.write(folder.path_join("b.tres"), text), "", "a Resource library")
	var other := JSON.stringify({"format": "pybridge/cards@0", "cards": []})
	check_eq(store.write(folder.path_join("c.tres"), other), "", "a library of another format")
	check_eq(ResourceSaver.save(PyBridgeCardResource.new(), folder.path_join("d.tres")), OK, "")
	var names := PackedStringArray()
	for path in store.list(FORMAT):
		names.append(path.get_file())
	check_eq(names, PackedStringArray(["a.json", "b.tres"]), "the two libraries of the format")


func test_a_resource_that_is_not_a_library_is_refused_with_its_path() -> void:
	var folder := _fresh_folder("store_refused")
	var store := Store.new(folder)
	var path := folder.path_join("card.tres")
	check_eq(ResourceSaver.save(PyBridgeCardResource.new(), path), OK, "a card Resource")
	var read := store.read(path)
	check(not read.has("text"), "no text")
	check(str(read.get("error", "")).contains(path), "the error names the file: %s" % read)
	var refused := store.write(folder.path_join("broken.tres"), "[1, 2")
	check(refused.contains("broken.tres"), "a text that is no library is not saved: %s" % refused)
	check(not FileAccess.file_exists(folder.path_join("broken.tres")), "and no file is left")
