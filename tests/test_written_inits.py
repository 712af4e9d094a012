"""``Battle``, ``Unit`` and ``Intent`` write their ``__init__`` out (a compiled build runs a
dataclass's generated one as Python). Each must still take exactly the dataclass's fields, in
order, with the same defaults, so a field added to the class cannot be left out of it."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from pybridge.runtime.model import Battle, Intent, Unit


@pytest.mark.parametrize("cls", [Battle, Unit, Intent], ids=lambda c: c.__name__)
def test_a_written_out_init_takes_the_fields_with_their_defaults(cls: type) -> None:
    fields = [f for f in dataclasses.fields(cls) if f.init]
    params = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in params] == [f.name for f in fields]
    for field, param in zip(fields, params, strict=True):
        if field.default is not dataclasses.MISSING:
            assert param.default is field.default, field.name
        elif field.default_factory is not dataclasses.MISSING:
            # a fresh collection (None in the signature, made anew in the body), or the one
            # immutable value the factory gives every battle
            made = field.default_factory()
            assert param.default is None or param.default is made, field.name
        else:
            assert param.default is inspect.Parameter.empty, field.name
