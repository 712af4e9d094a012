"""What a policy is: the :class:`Policy` protocol and the moves it gives.

Apart from :mod:`.policies` (which imports it from here, so ``pybridge.simulate.policies``
still names it) because a runtime-checkable Protocol cannot be compiled: the compiled build
(pybridge/devtools/compiled.py) compiles the policies and keeps this module pure.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from ..runtime import Battle, Pcg32
from ..runtime.aims import Target as Target

#: What a policy plays: a card instance id and its target (None, a unit or card id, or ids).
Move = tuple[str, Target]


@runtime_checkable
class Policy(Protocol):
    """The interface of a player policy.

    ``moves`` is called before every play with the live battle and the policy's own PRNG
    (seeded per battle, so runs repeat exactly; do not use :mod:`random`). It returns (or
    yields, lazily) the plays to try, best first; the engine plays the first one the
    runtime accepts, skipping refused ones, and calls ``moves`` again. Nothing to try ends
    the turn. It must not change the battle: look ahead with
    :func:`pybridge.runtime.preview`, which works on a copy. A fresh object plays each
    battle when the policy is a class, so it may keep state within a battle."""

    def moves(self, battle: Battle, rng: Pcg32) -> Iterable[Move]: ...
