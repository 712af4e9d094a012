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


def test_the_output_is_the_papers_xsh_rr_of_any_state() -> None:
    """next_u32 as the paper writes it (xorshift the old state, then rotate by its top five
    bits), for states that take every rotation, the highest bits and none."""
    mask = (1 << 64) - 1
    states = [0, 1, mask, 1 << 63, (1 << 59) - 1, 0xF800000000000000, 0x07FFFFFFFFFFFFFF]
    walker = Pcg32(2026)
    states += [walker.next_u32() << 32 | walker.next_u32() for _ in range(4000)]
    assert {state >> 59 for state in states} == set(range(32))  # every rotation
    for state in states:
        xorshifted = (((state >> 18) ^ state) >> 27) & 0xFFFFFFFF
        rot = state >> 59
        paper = ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF
        rng = Pcg32.from_state(state, 1442695040888963407)
        assert rng.next_u32() == paper
        assert rng.state == (state * 6364136223846793005 + 1442695040888963407) & mask
