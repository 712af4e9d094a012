"""PCG32 (PCG-XSH-RR, 64-bit state, 32-bit output), the battle's only source of randomness.

Specified by O'Neill's PCG paper: state advances as ``state * 6364136223846793005 + inc``
modulo 2**64 and the output is the xorshifted high bits rotated by the top five bits. Pure
integer arithmetic, so every platform (CPython, Pyodide) draws the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

_MASK64: Final = (1 << 64) - 1
_MULTIPLIER: Final = 6364136223846793005
_DEFAULT_STREAM: Final = 54

T = TypeVar("T")


class Pcg32:
    """A seeded PCG32 generator whose whole state is two integers (serialized with the battle)."""

    __slots__ = ("inc", "state")

    def __init__(self, seed: int, stream: int = _DEFAULT_STREAM) -> None:
        self.state = 0
        self.inc = ((stream << 1) | 1) & _MASK64
        self.next_u32()
        self.state = (self.state + seed) & _MASK64
        self.next_u32()

    @classmethod
    def from_state(cls, state: int, inc: int) -> Pcg32:
        rng = cls(0)  # not cls.__new__, which a compiled class (mypyc) does not have
        rng.state = state & _MASK64
        rng.inc = (inc | 1) & _MASK64
        return rng

    def copy(self) -> Pcg32:
        return Pcg32.from_state(self.state, self.inc)

    def next_u32(self) -> int:
        old = self.state
        self.state = (old * _MULTIPLIER + self.inc) & _MASK64
        # The paper's ((old >> 18) ^ old) >> 27 and its 32-bit rotation, written so that no
        # value but the state and its product exceeds 37 bits, and the state is shifted only
        # once: a compiled build keeps small integers unboxed (and works on a boxed one at
        # the cost of an allocation), and this is the battle's most called function.
        high = old >> 27  # old's top 37 bits: old >> 45 is high >> 18, old >> 59 is high >> 32
        xorshifted = ((high >> 18) ^ high) & 0xFFFFFFFF
        rot = high >> 32
        return (xorshifted >> rot) | ((xorshifted & ((1 << rot) - 1)) << (32 - rot))

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)`` without modulo bias (rejection sampling)."""
        if not 0 < bound <= 0xFFFFFFFF:
            raise ValueError(f"bound must be in 1..2**32-1, got {bound}")
        threshold = (0x100000000 - bound) % bound
        while True:
            value = self.next_u32()
            if value >= threshold:
                return value % bound

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def sample(self, items: Sequence[T], count: int) -> list[T]:
        """``count`` distinct elements in draw order (a partial Fisher-Yates shuffle)."""
        pool = list(items)
        count = min(count, len(pool))
        for i in range(count):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:count]

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
