"""A py4godot node that answers the pybridge protocol: ``call_json(text) -> str``.

Attach this script to a Node (py4godot scripts are ``@gdclass`` classes). When the node is
ready it loads the extension files the project lists in ``project.godot`` (``[pybridge]
extensions``) and serves the shared protocol with their words; ``call_json`` then takes one
JSON request and returns one JSON response, as every other transport does (docs/protocol.md).

The runtime is pure Python (standard library only), so it imports in py4godot's own
interpreter like any module: copy the ``pybridge`` package into the project's ``python/``
folder (see docs/py4godot.md). This file was checked with Python's parser only.
"""

import sys

from py4godot.classes import gdclass
from py4godot.classes.Node import Node
from py4godot.classes.ProjectSettings import ProjectSettings

#: Where the project keeps the ``pybridge`` package (a res:// folder).
PACKAGE_FOLDER = "res://python"


def _real_path(res_path: str) -> str:
    """A res:// path as a path of the file system (in the editor and in an unpacked export)."""
    return str(ProjectSettings.instance().globalize_path(res_path))


@gdclass
class PyBridgeNode(Node):
    """Answers ``call_json`` with the runtime and the project's extensions."""

    def _ready(self) -> None:
        folder = _real_path(PACKAGE_FOLDER)
        if folder not in sys.path:
            sys.path.insert(0, folder)
        from pathlib import Path

        from pybridge import extensions, service

        files = extensions.project_extensions(Path(_real_path("res://")))
        if files:
            service.use_words(extensions.load(files).words)

    def call_json(self, text: str) -> str:
        """One JSON request -> one JSON response. The protocol answers every request, a
        failure included, and never raises."""
        from pybridge import service

        return service.call(str(text))
