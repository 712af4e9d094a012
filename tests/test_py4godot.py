"""docs/py4godot/pybridge_node.py, the py4godot node script, read with Python's parser only:
py4godot cannot be installed here (it is in no package registry; it ships as a release zip
with its own CPython), so the script is never run. What it names of pybridge must exist."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from pybridge import extensions, service

SCRIPT = Path(__file__).resolve().parent.parent / "docs" / "py4godot" / "pybridge_node.py"


def _tree() -> ast.Module:
    return ast.parse(SCRIPT.read_text("utf-8"), str(SCRIPT))


def _node_class() -> ast.ClassDef:
    (cls,) = [n for n in _tree().body if isinstance(n, ast.ClassDef)]
    return cls


def test_the_script_is_a_gdclass_node_with_call_json() -> None:
    cls = _node_class()
    assert [ast.unparse(d) for d in cls.decorator_list] == ["gdclass"]
    assert [ast.unparse(b) for b in cls.bases] == ["Node"]
    methods = {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}
    assert set(methods) == {"_ready", "call_json"}
    call_json = methods["call_json"]
    assert [a.arg for a in call_json.args.args] == ["self", "text"]
    assert call_json.args.args[1].annotation is not None
    assert ast.unparse(call_json.args.args[1].annotation) == "str"
    assert call_json.returns is not None and ast.unparse(call_json.returns) == "str"
    assert "service.call(str(text))" in ast.unparse(call_json)


def test_it_imports_py4godot_as_its_scripts_do_and_pybridge_only_when_ready() -> None:
    top = [ast.unparse(n) for n in _tree().body if isinstance(n, ast.ImportFrom)]
    assert "from py4godot.classes import gdclass" in top
    assert "from py4godot.classes.Node import Node" in top
    assert not any("pybridge" in line for line in top)  # sys.path is set in _ready first


def test_it_loads_the_projects_extensions_with_names_that_exist() -> None:
    ready = ast.unparse(next(f for f in _node_class().body
                             if isinstance(f, ast.FunctionDef) and f.name == "_ready"))  # fmt: skip
    assert "extensions.project_extensions(" in ready
    assert "service.use_words(extensions.load(files).words)" in ready
    assert list(inspect.signature(extensions.project_extensions).parameters) == ["project"]
    assert "words" in extensions.Loaded.__dataclass_fields__
    assert callable(service.use_words) and callable(service.call)
