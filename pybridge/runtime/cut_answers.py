"""What a UI shows of the Cut: its entries as they wait, whose answer the top one waits for,
and what the player may do now (the same checks the operations make)."""

from __future__ import annotations

from typing import Final

from .cut import activation_refused, pass_refused
from .document import cut_entry_to_json
from .errors import PlayError
from .model import Battle, Team
from .narrate import cut_prompt_said
from .play import late_choice, nothing_to_choose, searches_hidden
from .sentences import say

_PLAYER: Final = Team.PLAYER


def cut_view(battle: Battle) -> list[dict[str, object]]:
    """What waits on the Cut, bottom first, as a UI shows it: each entry as the battle saves
    it, and, for a card that chooses on resolve, what it could choose now (``late_choice``,
    the candidates the ``choices`` answer picks from; null for every other entry)."""
    view = []
    for entry in battle.cut:
        shown = cut_entry_to_json(battle, entry)
        source = battle.unit(entry.source)
        late = None
        if entry.card is not None and source is not None:
            late = late_choice(battle, battle.cards[entry.card], source)
        shown["late_choice"] = None if late is None else late.to_json()
        view.append(shown)
    return view


def player_moves(battle: Battle, end_turn: PlayError | None) -> dict[str, object]:
    """What the player may do now as far as the Cut goes, for a UI to enable its controls:
    activate a card (a new chain or a response; ``activate_reason`` says why not), respond to
    what waits (``can_respond``), pass, and end the turn (``end_turn``: why
    :func:`.turns.end_turn` would refuse, or None; its message is ``end_turn_reason``), and the
    line to ask the player with (``prompt``, the narrator's). The same checks the operations
    make. In a two-sided battle they are the acting side's (``side``: the one holding
    priority on the Cut, else the one whose turn it is)."""
    acting = acting_side(battle)
    refused = activation_refused(battle, acting)
    whose = awaiting(battle)
    # A response is an activation on a Cut that holds something (activation_refused already
    # refuses it on the player's own entry).
    can_respond = bool(battle.cut) and refused is None
    moves: dict[str, object] = {
        "can_activate": refused is None,
        "activate_reason": None if refused is None else refused.message,
        "activate_reason_message": None if refused is None else refused.said,
        "can_respond": can_respond,
        "can_pass": pass_refused(battle) is None,
        "can_end_turn": end_turn is None,
        "end_turn_reason": None if end_turn is None else end_turn.message,
        "end_turn_reason_message": None if end_turn is None else end_turn.said,
    }
    prompt = cut_prompt_said(whose, can_respond, battle.two_sided)
    moves["prompt"], moves["prompt_message"] = say(battle, prompt), prompt
    if battle.two_sided:
        moves["side"] = acting.value
    return moves


def acting_side(battle: Battle) -> Team:
    """Who acts now: the side holding priority on the Cut, else the side whose turn it is
    (always the player's in a one-sided battle, where the enemies answer by themselves)."""
    if not battle.two_sided:
        return _PLAYER
    if not battle.cut:
        return battle.turn_side
    top = battle.cut[-1]
    return top.side if top.answered else top.side.opposite


def awaiting(battle: Battle) -> str | None:
    """Whose answer the top entry of the Cut waits for: ``enemy`` while the enemies have not
    had their chance to respond to the player's entry (a ``pass`` gives it), else ``player``
    (respond with ``activate``, or ``pass`` to let it resolve); None on an empty Cut. In a
    two-sided battle: the side holding priority (the one that did not put the top entry)."""
    if not battle.cut:
        return None
    top = battle.cut[-1]
    if battle.two_sided:  # once both passed (answered), it waits for its owner's choice
        return (top.side if top.answered else top.side.opposite).value
    return "enemy" if top.side is _PLAYER and not top.answered else "player"


def awaiting_choice(battle: Battle) -> str | None:
    """The entry that waits for a choice: the top entry of the Cut when its card chooses as
    it resolves and something can be chosen now. A ``pass`` that resolves it (or a
    ``resolve``) is refused with ``target_required`` until ``choices`` answers it; a UI asks
    the player then. None otherwise: an entry with nothing left to choose is not waited for
    (it fails under strict, does nothing under soft), unless it searches a pile the other
    side may not see (:func:`.play.searches_hidden`): whether it finds anything is not told
    before its owner looks."""
    if not battle.cut or battle.cut[-1].card is None:
        return None
    top = battle.cut[-1]
    instance, source = battle.cards[top.card or ""], battle.unit(top.source)
    if source is None or not instance.card.choose_on_resolve:
        return None
    if searches_hidden(battle, instance.card):  # whether there is anything is its owner's
        return top.id
    return None if nothing_to_choose(battle, instance, source) else top.id
