"""The describer's sentences: the generated card text (pybridge.authoring.describe) as a tree
of declared messages, so a host translates a card it has no catalog entry for (a card made in
the Workshop) sentence by sentence, never word by word (docs/translation.md).

Ids: ``describe.sentence`` (one sentence of a card text, its first letter a capital),
``describe.sentences`` (a paragraph), ``describe.playable_if``, ``describe.card_targets``,
``describe.branch.*`` (Branch and Gate), ``describe.resolve.*`` (when targets are chosen and
lost), ``describe.keyword`` and ``describe.words``: a phrase the describer still words in
English alone (who an action reaches, a condition), which a host shows as it is.
"""

from __future__ import annotations

from pybridge.extend import Message, Words

W, T, D, N, S = "message", "text", "data", "number", "status"


def _m(message_id: str, english: str, **params: str) -> Message:
    return Message(message_id, english, params)


DESCRIBING = (
    _m("describe.sentence", "{clause}.", clause=W),
    _m("describe.sentence.ended", "{clause}", clause=W),
    _m("describe.sentences", "{first} {rest}", first=W, rest=W),
    _m("describe.playable_if", "can only be played if {conditions}", conditions=W),
    _m("describe.card_targets", "can only be played while there is {cards}", cards=W),
    _m("describe.resolve.choose_target", "choose its target as it resolves"),
    _m("describe.resolve.choose_targets", "choose its targets as it resolves"),
    _m("describe.resolve.lost_fails", "if a target is lost before it resolves, it has no effect"),
    _m("describe.resolve.lost_skipped",
       "a target lost before it resolves is skipped; the rest still happens"),
    _m("describe.keyword", "{keyword}", keyword=D),
    _m("describe.branch.both", "if {condition}, {then}. Otherwise, {otherwise}",
       condition=W, then=W, otherwise=W),
    _m("describe.branch.both.inner", "if {condition}, {then}; otherwise, {otherwise}",
       condition=W, then=W, otherwise=W),
    _m("describe.branch.then", "if {condition}, {then}", condition=W, then=W),
    _m("describe.branch.unless", "unless {condition}, {otherwise}", condition=W, otherwise=W),
    _m("describe.words", "{words}", words=T),
    # a status's text, of its holder ("it")
    _m("describe.status.on.turn_start", "at the start of its turn, {effect}", effect=W),
    _m("describe.status.on.turn_end", "at the end of its turn, {effect}", effect=W),
    _m("describe.status.on.attacked", "when attacked, {effect}", effect=W),
    _m("describe.status.then_decays", "{effect}, then {status} {decay}",
       effect=W, status=S, decay=W),
    _m("describe.status.wears_off", "wears off"),
    _m("describe.status.goes_down", "goes down by {by}", by=N),
    _m("describe.status.decays.turn_start", "{decay} at the start of its turn", decay=W),
    _m("describe.status.decays.turn_end", "{decay} at the end of its turn", decay=W),
    _m("describe.status.dealt.more", "attacks deal {amount} more damage per {status}",
       amount=N, status=S),
    _m("describe.status.dealt.less", "attacks deal {amount} less damage per {status}",
       amount=N, status=S),
    _m("describe.status.taken.more", "takes {amount} more damage from attacks per {status}",
       amount=N, status=S),
    _m("describe.status.taken.less", "takes {amount} less damage from attacks per {status}",
       amount=N, status=S),
    _m("describe.status.protected.all", "cannot be targeted"),
    _m("describe.status.protected.single",
       "cannot be targeted by effects that target a single unit"),
)  # fmt: skip


#: The describer's verbs: (imperative, third person). A use of a verb is a whole message by
#: its form (docs/translation.md): ``describe.act.<verb>`` "deal {body}" (then ``describe.to.*``
#: names who: "{actions} to {target}"), ``describe.give.<verb>`` "give {target} {body}",
#: ``describe.object.<verb>`` "revive {target}" (``.with``: "revive {target} {body}"), each
#: with ``.third`` for a status's holder ("deals {body}") and ``.player`` where the player acts
#: outside their own cards ("the player draws {body}").
VERBS = {
    "deal": "deals", "take": "takes", "give": "gives", "gain": "gains", "restore": "restores",
    "apply": "applies", "remove": "removes", "revive": "revives", "withdraw": "withdraws",
    "deploy": "deploys", "enter": "enters", "put": "puts", "discard": "discards",
    "exhaust": "exhausts", "negate": "negates", "reveal": "reveals", "draw": "draws",
    "use": "uses",
}  # fmt: skip
#: How many words a merged "to" clause ends with: "to", "from", "back to".
PREPOSITIONS = {"to": "to", "from": "from", "back_to": "back to"}


#: The verbs said in each form, as the describer's action words use them.
FORMS = {
    "act": ("deal", "take", "restore", "apply", "gain", "remove", "revive", "withdraw", "enter",
            "draw", "use"),
    "give": ("give", "put"),
    "object": ("deploy", "discard", "exhaust", "negate", "reveal"),
    "object.with": ("revive", "withdraw"),
}  # fmt: skip
#: The verbs the player does outside their own cards ("the player draws 2 cards").
PLAYER_VERBS = ("draw", "gain")
_FORM_ENGLISH = {
    "act": "{verb} {{body}}",
    "give": "{verb} {{target}} {{body}}",
    "object": "{verb} {{target}}",
    "object.with": "{verb} {{target}} {{body}}",
}
_FORM_PARAMS = {"act": {"body": W}, "give": {"target": W, "body": W},
                "object": {"target": W}, "object.with": {"target": W, "body": W}}  # fmt: skip


def _verbs() -> tuple[Message, ...]:
    out = []
    for form, verbs in FORMS.items():
        kind, _, tail = form.partition(".")
        for verb in verbs:
            uses = [("", verb), (".third", VERBS[verb])]
            if form == "act" and verb in PLAYER_VERBS:
                uses.append((".player", f"the player {VERBS[verb]}"))
            for suffix, said in uses:
                message_id = f"describe.{kind}.{verb}{suffix}" + (f".{tail}" if tail else "")
                english = _FORM_ENGLISH[form].format(verb=said)
                out.append(Message(message_id, english, _FORM_PARAMS[form]))
    for key, prep in PREPOSITIONS.items():
        out.append(_m(f"describe.to.{key}", f"{{actions}} {prep} {{target}}",
                      actions=W, target=W))  # fmt: skip
    return tuple(out)


BODIES = (
    _m("describe.clause.if", "{clause} if {condition}", clause=W, condition=W),
    _m("describe.amount.damage", "{amount} damage", amount=N),
    _m("describe.amount.armor", "{amount} armor", amount=N),
    _m("describe.amount.health", "{amount} health", amount=N),
    _m("describe.amount.energy", "{amount} energy", amount=N),
    *(_m(f"describe.amount.{noun}.stacks", f"{noun} equal to its {{status}}", status=S)
      for noun in ("damage", "armor", "health")),
    *(_m(f"describe.amount.{noun}.its_stacks", f"{noun} equal to its stacks")
      for noun in ("damage", "armor", "health")),
    *(_m(f"describe.amount.{noun}.counter", f"{noun} equal to {{counter}}", counter=W)
      for noun in ("damage", "armor", "health")),
    _m("describe.body.stacks", "{stacks} {status}", stacks=N, status=S),
    _m("describe.body.all_status", "all {status}", status=S),
    _m("describe.body.from", "{body} from {target}", body=W, target=W),
    _m("describe.body.with_health", "with {hp} health", hp=N),
    _m("describe.body.from_the_field", "from the field"),
    _m("describe.body.the_field", "the field"),
    _m("describe.body.effect_of", "the effect of {card}", card=T),
    Message("describe.body.draw.your", "{count} card from your draw pile", {"count": N},
            plural="count", english_plural="{count} cards from your draw pile"),
    Message("describe.body.draw.their", "{count} card from their draw pile", {"count": N},
            plural="count", english_plural="{count} cards from their draw pile"),
    *(_m(f"describe.body.{where}.{whose}.{pile}{face}", f"{english} {whose} {said}{face_words}")
      for where, english in (("onto", "on top of"), ("under", "at the bottom of"),
                             ("into", "into"))
      for whose in ("your", "their")
      for pile, said in (("hand", "hand"), ("draw", "draw pile"),
                         ("discard", "discard pile"), ("exhaust", "exhaust pile"))
      for face, face_words in (("", ""), (".face_down", " face down"))),
)  # fmt: skip


_EITHER_SIDE = "the selected unit if it is an enemy, otherwise the first enemy"
#: Who an action reaches, said whole: the phrases of the target modes and sources, and the
#: reduced collections the describer writes most ("the enemy with the lowest health"). Any
#: other phrase is ``describe.words``.
NOUN_PHRASES = {
    "the selected enemy": "describe.target.selected_enemy",
    "all enemies": "describe.target.all_enemies",
    "all allies": "describe.target.all_allies",
    "all units": "describe.target.all_units",
    "an ally": "describe.target.an_ally",
    "another ally": "describe.target.another_ally",
    "a random ally": "describe.target.random_ally",
    "a random enemy": "describe.target.random_enemy",
    "any unit": "describe.target.any_unit",
    "yourself": "describe.target.yourself",
    "itself": "describe.target.itself",
    "the attacker": "describe.target.attacker",
    "the first enemy": "describe.target.first_enemy",
    "that enemy": "describe.target.that_enemy",
    "that ally": "describe.target.that_ally",
    "the active party member": "describe.target.active_party_member",
    "no one": "describe.target.no_one",
    "all fallen allies": "describe.target.all_fallen_allies",
    "the first fallen ally": "describe.target.first_fallen_ally",
    "all allies in reserve": "describe.target.all_reserve_allies",
    "this card": "describe.cards.this_card",
    "the chosen card": "describe.cards.chosen_card",
    "the chosen cards": "describe.cards.chosen_cards",
    "all cards from your hand": "describe.cards.all_in_hand",
    "all cards waiting to resolve": "describe.cards.all_waiting",
    "a random card from your draw pile": "describe.cards.random_from_draw",
    "a random Basic Attack card from your draw pile": "describe.cards.random_basic_attack",
    # what card_targets asks for
    "a card waiting to resolve": "describe.cards.a_card_waiting",
    "an Attack in your discard pile": "describe.cards.an_attack_in_discard",
    "it": "describe.target.it",
    "the first selected enemy": "describe.target.first_selected_enemy",
    _EITHER_SIDE: "describe.target.selected_unit_if_enemy",
    "no enemies": "describe.target.no_enemies",
    "no allies": "describe.target.no_allies",
    "the top card of your draw pile": "describe.cards.top_of_draw",
    "the top card of your discard pile": "describe.cards.top_of_discard",
    "the leftmost card in your hand": "describe.cards.leftmost_in_hand",
    "the leftmost Attack in your hand": "describe.cards.leftmost_attack_in_hand",
    "a random card from your discard pile": "describe.cards.random_from_discard",
    "a random Attack from your discard pile": "describe.cards.random_attack_from_discard",
    "a random card from your hand": "describe.cards.random_from_hand",
    "all cards from your hand that cost 1 or less": "describe.cards.all_in_hand_cost_1_or_less",
    "the card with the lowest cost from your draw pile": "describe.cards.cheapest_in_draw",
    "the card with the lowest cost in your hand": "describe.cards.cheapest_in_hand",
    # whether a pile holds a card
    **{
        f"your {pile} is {state}": f"describe.if.{key}.{state.replace(' ', '_')}"
        for key, pile in (
            ("hand", "hand"),
            ("draw", "draw pile"),
            ("discard", "discard pile"),
            ("exhaust", "exhaust pile"),
        )
        for state in ("empty", "not empty")
    },
}
#: Selections of several units, by their count (``{count}``, which picks the plural form).
COUNTED_PHRASES = {
    "{count} selected enemies": "describe.target.selected_enemies",
    "up to {count} selected enemies": "describe.target.up_to_selected_enemies",
    "{count} selected allies": "describe.target.selected_allies",
    "up to {count} selected allies": "describe.target.up_to_selected_allies",
    "up to {count} random enemies": "describe.target.up_to_random_enemies",
    "there is an enemy with at most {count}% health": "describe.if.enemy_at_most_health",
    "{count} times your {counter} plus {plus}": "describe.counter.times_plus",
    "{count} times your {counter}": "describe.counter.times",
    "up to {count} random cards from your hand": "describe.cards.up_to_random_from_hand",
    "up to {count} random cards from your draw pile": "describe.cards.up_to_random_from_draw",
    **{
        f"there are {quantity} {noun}": f"describe.if.count.{name}.{noun}"
        for name, quantity in (
            ("at_least", "at least {count}"),
            ("more_than", "more than {count}"),
            ("at_most", "at most {count}"),
            ("less_than", "fewer than {count}"),
            ("exactly", "exactly {count}"),
            ("other_than", "other than {count}"),
        )
        for noun in ("enemies", "allies", "units")
    },
    "your {counter} plus {plus}": "describe.counter.yours_plus",
    "your {counter}": "describe.counter.yours",
}


def _phrases() -> tuple[Message, ...]:
    out = [_m(message_id, english) for english, message_id in NOUN_PHRASES.items()]
    for english, message_id in COUNTED_PHRASES.items():
        params = {"count": N} if "{count}" in english else {}
        if "{counter}" in english:  # the counter's label, under its own context
            params["counter"] = D
        if "{plus}" in english:
            params["plus"] = N
        plural = english.replace("enemies", "enemy").replace("allies", "ally")
        plural = plural.replace("units", "unit").replace("cards", "card")
        plural = plural.replace("there are", "there is")
        if plural != english:  # English says one unit with the singular
            out.append(Message(message_id, plural, params, plural="count", english_plural=english))
        else:
            out.append(Message(message_id, english, params))
    return tuple(out)


#: A comparison's operator as a name in message ids, and its English as a quantity.
OPS = {">=": "at_least", ">": "more_than", "<=": "at_most", "<": "less_than", "==": "exactly",
       "!=": "other_than"}  # fmt: skip
_QUANTITY = {">=": "at least {}", ">": "more than {}", "<=": "at most {}", "<": "{less} than {}",
             "==": "exactly {}", "!=": "other than {}"}  # fmt: skip
_TURN = {">=": "it is turn {turn} or later", ">": "it is after turn {turn}",
         "<=": "it is turn {turn} or earlier", "<": "it is before turn {turn}",
         "==": "it is turn {turn}", "!=": "it is not turn {turn}"}  # fmt: skip
#: Who a condition tells of: "you", one unit ("{subject} is"), several ("{subject} are").
PERSONS = {"you": ("you are", "you have", "you are"), "one": ("{subject} is", "{subject} has", ""),
           "many": ("{subject} are", "{subject} have", "")}  # fmt: skip
_SHARES = {"<": "below {}", "<=": "at or below {}", ">": "above {}", ">=": "at or above {}",
           "==": "at exactly {}", "!=": "not at exactly {}"}  # fmt: skip
_SHARE_OF = {"half": "half health", "full": "full health", "percent": "{percent}% health"}


def _quantity(op: str, name: str, less: str = "less") -> str:
    return _QUANTITY[op].replace("{less}", less).format("{" + name + "}")


def _conditions() -> tuple[Message, ...]:
    out = [_m(f"describe.if.turn.{OPS[op]}", english, turn=N) for op, english in _TURN.items()]
    for op, name in OPS.items():
        energy = _quantity(op, "amount")
        out.append(_m(f"describe.if.energy.{name}.you", f"you have {energy} energy", amount=N))
        out.append(_m(f"describe.if.energy.{name}.player", f"the player has {energy} energy",
                      amount=N))  # fmt: skip
        cards = _quantity(op, "count", "fewer")
        for whose, have, their in (("you", "you have", "your"),
                                   ("player", "the player has", "their")):  # fmt: skip
            out.append(Message(f"describe.if.hand.{name}.{whose}",
                               f"{have} {cards} card in {their} hand", {"count": N},
                               plural="count",
                               english_plural=f"{have} {cards} cards in {their} hand"))  # fmt: skip
    for person, (is_, has, _) in PERSONS.items():
        subject = {} if person == "you" else {"subject": W}
        out.append(Message(f"describe.if.alive.{person}", f"{is_} alive", subject))
        out.append(Message(f"describe.if.health_share.at_full.{person}", f"{is_} at full health",
                           subject))  # fmt: skip
        for op, name in OPS.items():
            for share, words in _SHARE_OF.items():
                params = {**subject, **({"percent": N} if share == "percent" else {})}
                english = f"{is_} {_SHARES[op].format(words)}"
                out.append(Message(f"describe.if.health_share.{name}.{share}.{person}", english,
                                   params))  # fmt: skip
            out.append(
                Message(
                    f"describe.if.hp.{name}.{person}",
                    f"{has} {_quantity(op, 'hp')} health",
                    {**subject, "hp": N},
                )
            )
            out.append(
                Message(
                    f"describe.if.armor.{name}.{person}",
                    f"{has} {_quantity(op, 'armor')} armor",
                    {**subject, "armor": N},
                )
            )
            out.append(Message(f"describe.if.stacks.{name}.{person}",
                               f"{has} {_quantity(op, 'stacks')} {{status}}",
                               {**subject, "stacks": N, "status": S}))  # fmt: skip
        out.append(Message(f"describe.if.armor.none.{person}", f"{has} no armor", subject))
        out.append(Message(f"describe.if.armor.some.{person}", f"{has} armor", subject))
        out.append(Message(f"describe.if.stacks.none.{person}", f"{has} no {{status}}",
                           {**subject, "status": S}))  # fmt: skip
        out.append(Message(f"describe.if.stacks.some.{person}", f"{has} {{status}}",
                           {**subject, "status": S}))  # fmt: skip
    return tuple(out)


def _groups() -> tuple[Message, ...]:
    out = [_m("describe.qualifiers", "{first} {rest}", first=W, rest=W),
           _m("describe.qualifier.status", "with {status}", status=S)]  # fmt: skip
    for kind, low, high, between in (
        ("tier", "of tier {low} or higher", "of tier {high} or lower", "of tier {low} to {high}"),
        ("health", "with at least {low}% health", "with at most {high}% health",
         "with {low}% to {high}% health"),
    ):  # fmt: skip
        out.append(_m(f"describe.qualifier.{kind}.at_least", low, low=N))
        out.append(_m(f"describe.qualifier.{kind}.at_most", high, high=N))
        out.append(_m(f"describe.qualifier.{kind}.between", between, low=N, high=N))
    for one, many in (("enemy", "enemies"), ("ally", "allies"), ("unit", "units")):
        out.append(_m(f"describe.group.all.{one}", f"all {many} {{qualifiers}}", qualifiers=W))
        out.append(_m(f"describe.group.random.{one}", f"a random {one} {{qualifiers}}",
                      qualifiers=W))  # fmt: skip
        up_to = "up to {count} random {noun} {qualifiers}"
        params = {"count": N, "qualifiers": W}
        out.append(Message(f"describe.group.up_to_random.{one}", up_to.replace("{noun}", one),
                           params, "count", up_to.replace("{noun}", many)))  # fmt: skip
    return tuple(out)


#: What the first or last unit of a sorted group has, by sort key: (lowest, highest).
RANKS = {
    "hp": ("the lowest health", "the highest health"),
    "max_hp": ("the lowest maximum health", "the highest maximum health"),
    "armor": ("the least armor", "the most armor"),
    "tier": ("the lowest tier", "the highest tier"),
    "hp_percent": ("the lowest health percentage", "the highest health percentage"),
}


def ranked_id(noun: str, rank: str) -> str:
    """``describe.noun.lowest_health_enemy``: the unit of a group with the least or most of
    something (``rank``: a :data:`RANKS` English, or "the least"/"the most" of a status)."""
    return f"describe.noun.{rank.removeprefix('the ').replace(' ', '_')}_{noun}"


def _ranks() -> tuple[Message, ...]:
    out = []
    for noun in ("enemy", "ally", "unit"):
        for ranks in RANKS.values():
            out += [_m(ranked_id(noun, rank), f"the {noun} with {rank}") for rank in ranks]
        for rank in ("the least", "the most"):
            out.append(_m(ranked_id(noun, rank), f"the {noun} with {rank} {{status}}", status=S))
    return tuple(out)


def register(words: Words) -> None:
    for message in (
        *DESCRIBING,
        *_verbs(),
        *BODIES,
        *_phrases(),
        *_conditions(),
        *_groups(),
        *_ranks(),
    ):
        words.message(message)
