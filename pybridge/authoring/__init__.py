"""Authoring tools: the card contract checker (:mod:`.lint`) and the card text describer
(:mod:`.describe`), with their commands (:mod:`.cli`) and protocol operations (:mod:`.ops`).
Pure Python on top of :mod:`pybridge.runtime`; nothing here runs a battle. See docs/lint.md."""

from .describe import describe_behavior, describe_card, describe_move, describe_status
from .lint import CODES, Diagnostic, Severity, lint_card, lint_document, lint_move, lint_status

__all__ = [
    "CODES",
    "Diagnostic",
    "Severity",
    "describe_behavior",
    "describe_card",
    "describe_move",
    "describe_status",
    "lint_card",
    "lint_document",
    "lint_move",
    "lint_status",
]
