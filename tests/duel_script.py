"""The demo duel played from start to victory: the steps both the protocol test and the
real-engine tests follow, and what each law moment of the play-through is.

A step is ``(op, card, targets, choice)``: ``activate`` a card of the hand at ``targets`` (the
units it locks, none for a card without an arrow), ``respond`` (the same activation, as the
answer to the enemy's entry on top of the Cut: a UI's Respond), ``pass`` (with ``choice``, the
answer of an entry that chooses as it resolves) or ``end_turn``. The enemies' answers are not
steps: they answer on ``pass``, with the runtime's own AI.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .protocol_support import Doc, Session


class Step(NamedTuple):
    op: str
    card: str | None = None
    targets: tuple[str, ...] = ()
    choice: tuple[str, ...] = ()


def activate(card: str, *targets: str) -> Step:
    return Step("activate", card, targets)


def respond(card: str, *targets: str) -> Step:
    return Step("respond", card, targets)


PASS = Step("pass")
END_TURN = Step("end_turn")

#: Turn 1: the Barrage draws the Beacon's flare, which calls the Hound in: the Barrage hits it
#: too. The Strike at the Drone is lost when the Drone blows itself up in answer (down); the
#: Strike at the Hound is lost when the Rival wards it (protected). Then no enemy on the field
#: can be targeted, but the hand still holds a choice for the last energy (Field Dressing on
#: one ally or Brace for both, left unplayed here), and Salvage takes a Strike back from the
#: discard pile.
TURN_1 = [
    activate("c2"), PASS, PASS, PASS,
    activate("c3", "drone"), PASS, PASS, PASS,
    activate("c7", "hound"), PASS, PASS, PASS,
    activate("c5"), Step("pass", choice=("c3",)),
    END_TURN,
]  # fmt: skip
#: Turn 2: the Rival wards the Hound in answer to the Twin Shot; the player responds with a
#: Strike at the Rival, which the Rival leaves unanswered (a second ward would come to
#: nothing: it would only make the first one fail). The Strike hits, the ward resolves and the
#: Twin Shot fails whole (the Rival, still a legal target, takes nothing). The Called Shot
#: chooses the Rival as it resolves (the Hound is warded); an "up to three" Suppressing Fire
#: confirmed with one target finishes the Rival.
TURN_2 = [
    activate("d1", "vex", "hound"), PASS,
    respond("d3", "vex"), PASS, PASS, PASS,
    activate("d2"), Step("pass", choice=("vex",)),
    activate("d4", "vex"), PASS,
    END_TURN,
]  # fmt: skip
#: Turn 3: a Strike at the Hound wins the duel.
TURN_3 = [activate("d6", "hound"), PASS]
DUEL = [*TURN_1, *TURN_2, *TURN_3]


def request_of(step: Step, entry: str | None = None) -> tuple[str, dict[str, Any]]:
    """The protocol request a step makes (``entry``: the Cut entry its choice answers)."""
    if step.op in ("activate", "respond"):
        fields: dict[str, Any] = {"card": step.card}
        if step.targets:
            fields["target"] = list(step.targets)
        return "activate", fields
    if step.choice:
        return "pass", {"choices": {entry: list(step.choice)}}
    return step.op, {}


def play_through(session: Session, steps: list[Step]) -> list[Doc]:
    """Play ``steps`` on ``session``; the result of each (a choice answers the top entry)."""
    results = []
    for step in steps:
        top = session.cut()[-1]["id"] if step.choice else None
        op, fields = request_of(step, top)
        results.append(session.ok(op, **fields))
    return results
