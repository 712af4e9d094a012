"""Choices an action asks the player for while it resolves (a Scry's "which cards go back on
top, and in which order").

A request carries its answers (``Battle.answers``): a play's ``choices`` by node id, a Cut
step's by ``"<entry>.<node>"``. An action that asks a choice the request does not answer
stops the request with :class:`.errors.ChoiceNeeded`, which tells the host what is asked (the
kind, the prompt, the options, how many); since a failed request changes nothing, the host
asks the player and sends the same request again with the answer. A preview answers every
choice with its default (the options as they are, as many as may be kept).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from .context import HostKind
from .errors import ChoiceNeeded, NotACandidate, quote
from .vocabulary import words_of

if TYPE_CHECKING:
    from .context import Context
    from .model import Battle


class _Defaults:
    """The answers a preview gives: every choice's default."""

    def __repr__(self) -> str:
        return "DEFAULT_ANSWERS"


DEFAULT_ANSWERS = _Defaults()
_CARD: Final = HostKind.CARD
_MOVE: Final = HostKind.MOVE
#: Options one choice may offer.
MAX_OPTIONS = 64


def answer_key(ctx: Context, node: str) -> str:
    """Where a request answers the choice node ``node`` asks: its id in a card's or a move's
    own Behavior; ``<unit>.<status>.<node>`` in a status Behavior or a reaction; after
    ``<entry>.`` while a Cut entry resolves. Every ask has a key of its own."""
    own = node if ctx.kind is _CARD or ctx.kind is _MOVE else f"{ctx.host.id}.{ctx.status}.{node}"
    return own if ctx.entry is None else f"{ctx.entry}.{own}"


def ask(ctx: Context, choice: str, node: str, options: list[str], minimum: int = 0,
        maximum: int | None = None) -> list[str]:  # fmt: skip
    """The player's answer to ``choice`` about ``options``: distinct options, between
    ``minimum`` and ``maximum`` of them, in the player's order when the kind is ordered."""
    battle = ctx.battle
    kind = words_of(battle).choices[choice]
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise TypeError(f"ask({choice!r}): options must be a list of unit or card ids")
    for bound in (minimum, maximum):
        if bound is not None and (type(bound) is not int or bound < 0):
            raise TypeError(f"ask({choice!r}): minimum and maximum are counts, got {bound!r}")
    options = list(dict.fromkeys(options))[:MAX_OPTIONS]
    most = len(options) if maximum is None else min(maximum, len(options))
    least = min(minimum, most)
    key = answer_key(ctx, node)
    answers = battle.answers
    if answers is DEFAULT_ANSWERS or not battle.plays_cards(ctx.host.team):
        chosen = options[:most]  # a preview, or a side of moves (no player): the default
    else:
        given = None if not isinstance(answers, dict) else _answer(answers, key)
        if given is None:
            asked: dict[str, object] = {
                     **_what(battle, options), "key": key, "kind": choice, "node": node,
                     "entry": ctx.entry, "side": ctx.host.team.value,
                     "card": ctx.this_card, "prompt": kind.prompt.to_json(),
                     "prompt_message": {"id": kind.prompt.id, "params": {}},
                     "options": options, "count": len(options), "minimum": least,
                     "maximum": most,
                     "ordered": kind.ordered, "visibility": kind.visibility.value}  # fmt: skip
            raise ChoiceNeeded(f"node {node!r} asks a choice ({choice}): answer it in choices "
                               f"under {key!r}", f"choices.{key}", asked)  # fmt: skip
        chosen = _checked(_listed(given), options, least, most, f"choices.{key}")
    ctx.events.append({"type": "choice_made", "node": node, "entry": ctx.entry,
                       "choice": choice, "options": options, "chosen": chosen})  # fmt: skip
    return chosen


def _what(battle: Battle, options: list[str]) -> dict[str, object]:
    """What the options are, for a host's picker: ``cards`` (and the piles they are in) or
    ``units``."""
    if options and all(option in battle.cards for option in options):
        zones = dict.fromkeys(str(battle.pile_of(option)) for option in options)
        return {"chooses": "cards", "zones": list(zones)}
    return {"chooses": "units", "zones": []}


def _listed(given: object) -> object:
    """An answer as a list: one id alone is a list of it, as ``target`` and a Cut entry's late
    choice take it; ``pick`` and ``choices`` read the same forms."""
    return [given] if isinstance(given, str) else given


def _checked(given: object, options: list[str], least: int, most: int, where: str) -> list[str]:
    if not isinstance(given, list) or not all(isinstance(item, str) for item in given):
        raise NotACandidate(f"expected a list of ids (or one id), got {quote(given)}", where)
    if len(set(given)) != len(given):
        raise NotACandidate(f"an id is chosen twice in {quote(given)}", where)
    for item in given:
        if item not in options:
            raise NotACandidate(f"{quote(item)} is not one of the options "
                                f"({', '.join(options) or 'none'})", where)  # fmt: skip
    if not least <= len(given) <= most:
        raise NotACandidate(f"choose {least} to {most}, got {len(given)}", where)
    return list(given)


def pick_asked(asked: object, chosen: object) -> dict[str, object]:
    """The next pick of a choice an action asked (``asked``: the ``choice`` of a
    ``choice_needed`` error), after ``chosen``: what ``pick`` answers for a card's targets,
    for the same pickers. The answer itself is checked again when the request is sent."""
    if not isinstance(asked, dict) or not isinstance(asked.get("options"), list):
        raise NotACandidate("choice must be the choice a choice_needed error gave", "choice")
    options = [o for o in asked["options"] if isinstance(o, str)][:MAX_OPTIONS]
    most = min(_count(asked.get("maximum"), len(options)), len(options))
    least = min(_count(asked.get("minimum"), 0), most)
    picked = _checked(_listed(chosen), options, 0, most, "chosen")
    full = len(picked) >= most
    chooses = "units" if asked.get("chooses") == "units" else "cards"
    return {"key": asked.get("key"), "kind": asked.get("kind"), "chooses": chooses,
            "chosen": picked, "ordered": bool(asked.get("ordered")),
            "candidates": [] if full else [o for o in options if o not in picked],
            "needed": least, "count": most, "can_confirm": len(picked) >= least,
            "complete": full}  # fmt: skip


def _count(value: object, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 \
        else default  # fmt: skip


def _answer(answers: Any, key: str) -> Any:
    """``answers.get(key)``, called as a method: a request's answers note which keys were
    read (the protocol's ``_Answers``), and compiled code would read a value it knows to be a
    ``dict`` with the dictionary's own lookup, past that ``get``."""
    return answers.get(key)
