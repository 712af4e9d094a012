"""PCG32: the reference sequence, unbiased bounds, sampling without replacement."""

from __future__ import annotations

import pytest

from pybridge.runtime import Pcg32


def test_matches_the_pcg32_reference_sequence() -> None:
    # The PCG reference demo, seeded with initstate 42 and initseq 54.
    rng = Pcg32(42, 54)
    assert [rng.next_u32() for _ in range(6)] == [
        0xA15C02B7,
        0x7B47F409,
        0xBA1D3330,
        0x83D2F293,
        0xBFA4784B,
        0xCBED606E,
    ]


def test_state_round_trips_and_copies_are_independent() -> None:
    rng = Pcg32(9)
    rng.next_u32()
    clone = Pcg32.from_state(rng.state, rng.inc)
    copy = rng.copy()
    assert [clone.next_u32() for _ in range(3)] == [rng.next_u32() for _ in range(3)]
    assert copy.state != rng.state


def test_below_stays_in_range_and_covers_it() -> None:
    rng = Pcg32(1)
    seen = {rng.below(6) for _ in range(600)}
    assert seen == set(range(6))
    with pytest.raises(ValueError, match="got 0"):
        rng.below(0)


def test_sample_is_distinct_and_bounded() -> None:
    rng = Pcg32(3)
    for count in range(6):
        picked = rng.sample(list("abcde"), count)
        assert len(picked) == min(count, 5) and len(set(picked)) == len(picked)
