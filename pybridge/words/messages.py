"""The built-in sentences: every line of the battle log, refusal, fizzle, intent and prompt the
runtime shows a player, declared as messages the way a game declares its own
(``Words.message``). The runtime renders their English from here (:mod:`pybridge.runtime.
sentences`); ``pybridge messages`` exports them for translators (docs/translation.md).

Ids name where a sentence is read: ``log.*`` (the battle log), ``mark.*`` (a preview's marks
over a unit), ``refusal.*`` (why a card may not be played), ``fizzle.*`` (why an effect
failed), ``intent.*`` (an enemy's telegraphed move), ``prompt.*`` (what the player is asked),
``cut.*`` (why a move over the Cut is refused), ``view.*`` (a pile viewer's title and
note), ``mode.*`` and ``count.*`` (a card's band), and
the pieces other sentences take whole: ``list.*``, ``pile.*``, ``side.*``, ``note.*``.
"""

from __future__ import annotations

from pybridge.extend import MODE_FACTS, PROTECTIONS, Message, Words

U, C, S, M, N, T, W = "unit", "card", "status", "move", "number", "text", "message"
#: A name of any kind (unit, card, status, move), or a sentence standing for one.
NAME = "name"


def _m(message_id: str, english: str, **params: str) -> Message:
    return Message(message_id, english, params)


def _counted(message_id: str, one: str, other: str, count: str, **params: str) -> Message:
    return Message(message_id, one, {count: N, **params}, plural=count, english_plural=other)


#: Why a unit or a card an action named was skipped, as the log tells it.
SKIPPED = {
    "dead": "has fallen", "missing": "is gone", "left_field": "is not on the field",
    "alive": "is still standing", "on_field": "is already on the field",
    "being_played": "is being played", "not_being_played": "is not being played",
}  # fmt: skip
#: Why a locked target was lost at resolution.
LOST = {
    "dead": "has fallen", "left_field": "left the field", "protected": "is protected",
    "no_longer_legal": "is no longer a legal target", "missing": "is gone",
}  # fmt: skip
#: Why an effect failed to resolve.
FAILED = {
    "lost_target": "its target is lost", "no_targets": "nothing is left to target",
    "source_gone": "its user is down",
}  # fmt: skip

PIECES = (
    _m("list.no_one", "no one"),
    _m("list.no_card", "no card"),
    _m("list.nothing", "nothing"),
    _m("list.one", "{item}", item=NAME),
    _m("list.two", "{first} and {last}", first=NAME, last=NAME),
    _m("list.more", "{first}, {rest}", first=NAME, rest=W),
    _m("list.comma", "{first}, {rest}", first=NAME, rest=W),
    _m("list.semicolon", "{first}; {rest}", first=W, rest=W),
    _m("list.and_chain", "{first} and {rest}", first=W, rest=W),
    _m("list.plus", "{first}+{rest}", first=W, rest=W),
    _m("name.hidden_card", "a card"),
    _m("name.hidden_card.start", "A card"),
    _m("name.counter", "{name}", name=T),
    _m("pile.hand", "the hand"),
    _m("pile.draw", "the draw pile"),
    _m("pile.discard", "the discard pile"),
    _m("pile.exhaust", "the exhaust pile"),
    _m("pile.cut", "the cut pile"),
    _m("pile.resolving", "the resolving pile"),
    _m("pile.other", "the {pile} pile", pile=T),
    _m("side.player", "the player side"),
    _m("side.enemy", "the enemy side"),
    _m("side.player.start", "The player side"),
    _m("side.enemy.start", "The enemy side"),
    _m("note.raised", "{base} + {change} from statuses", base=N, change=N),
    _m("note.lowered", "{base} - {change} from statuses", base=N, change=N),
    _m("note.blocked", "{blocked} blocked by armor", blocked=N),
    _m("note.both", "{first}; {second}", first=W, second=W),
    _m("number", "{n}", n=N),
    _m("stacks", "{stacks} {status}", stacks=N, status=S),
)

LOG = (
    _m("log.play", "{unit} plays {card}.", unit=U, card=C),
    _m("log.play_at", "{unit} plays {card} at {target}.", unit=U, card=C, target=U),
    _m("log.fate_picks", "Fate picks {unit}.", unit=U),
    _m("log.fate_none", "Fate finds no one to pick."),
    _m("log.targets", "Targets: {units}.", units="units"),
    _m("log.chosen", "Chosen: {cards}.", cards="cards"),
    _m("log.damage", "{unit} takes {taken} damage, {hp} HP left.", unit=U, taken=N, hp=N),
    _m("log.damage_noted", "{unit} takes {taken} damage ({notes}), {hp} HP left.",
       unit=U, taken=N, notes=W, hp=N),
    _m("log.falls", "{unit} falls.", unit=U),
    _m("log.armor", "{unit} gains {amount} armor ({total} total).", unit=U, amount=N, total=N),
    _m("log.heal", "{unit} recovers {amount} HP, now {hp}.", unit=U, amount=N, hp=N),
    _m("log.revived", "{unit} rises again with {hp} HP.", unit=U, hp=N),
    _m("log.status_off", "{status} wears off {unit}.", status=S, unit=U),
    _m("log.status_lose", "{unit} loses {stacks} {status} ({total} left).",
       unit=U, stacks=N, status=S, total=N),
    _m("log.status_gain", "{unit} gains {stacks} {status} ({total} total).",
       unit=U, stacks=N, status=S, total=N),
    _m("log.status_fades", "{unit}'s {status} fades to {stacks}.", unit=U, status=S, stacks=N),
    _m("log.withdrawn", "{unit} withdraws to the reserve.", unit=U),
    _m("log.deployed", "{unit} enters the field.", unit=U),
    _m("log.moved", "{card} moves from {from_pile} to {to_pile}.",
       card=C, from_pile="pile", to_pile="pile"),
    _m("log.moved_face_down", "{card} moves from {from_pile} to {to_pile} face down.",
       card=C, from_pile="pile", to_pile="pile"),
    _counted("log.reshuffled", "The discard pile is shuffled into a new draw pile ({cards} card).",
             "The discard pile is shuffled into a new draw pile ({cards} cards).", "cards"),
    _m("log.negated", "{card} is negated.", card=C),
    _m("log.revealed", "{card} is turned face up in {pile}.", card=C, pile="pile"),
    _m("log.energy", "Energy {before} -> {after}.", before=N, after=N),
    _m("log.counter", "{counter} {before} -> {after}.", counter="counter", before=N, after=N),
    _m("log.draw_pile_empty", "The draw pile runs out ({available} of {wanted} drawn).",
       available=N, wanted=N),
    _m("log.skipped", "{who} is skipped: it {reason}.", who=NAME, reason=T),
    *(_m(f"log.skipped.{reason}", f"{{who}} is skipped: it {words}.", who=NAME)
      for reason, words in SKIPPED.items()),
    _m("log.no_targets.units", "The effect finds no one to act on and does nothing."),
    _m("log.no_targets.cards", "The effect finds no card to act on and does nothing."),
    _m("log.no_targets.other", "The effect finds nothing to act on and does nothing."),
    _m("log.called", "{unit} uses {card}.", unit=U, card=C),
    _m("log.called_on", "{unit} uses {card} on {targets}.", unit=U, card=C, targets="units"),
    _m("log.turn_ended", "Turn {turn} ends.", turn=N),
    _m("log.turn_ended_side", "Turn {turn} ({side}) ends.", turn=N, side=W),
    _m("log.enemy_turn", "The enemies act."),
    _m("log.turn_started", "Turn {turn} begins with {energy} energy.", turn=N, energy=N),
    _m("log.turn_started_side", "Turn {turn} ({side}) begins with {energy} energy.",
       turn=N, side=W, energy=N),
    _m("log.intent", "{unit} readies {move}.", unit=U, move=M),
    _m("log.intent_at", "{unit} readies {move} against {target}.", unit=U, move=M, target=U),
    _m("log.enemy_acts", "{unit} uses {move}.", unit=U, move=M),
    _m("log.enemy_acts_on", "{unit} uses {move} on {target}.", unit=U, move=M, target=U),
    _m("log.enemy_holds", "{unit} holds back {move}: {reason}.", unit=U, move=M, reason=W),
    _m("log.status_hook", "{status} acts on {unit}.", status=S, unit=U),
    _m("log.reaction", "{unit}'s {status} strikes back at {attacker}.",
       unit=U, status=S, attacker=U),
    _m("log.active_player", "{unit} takes the lead.", unit=U),
    _m("log.victory", "Victory! The enemies are defeated."),
    _m("log.defeat", "Defeat. The party has fallen."),
    _m("log.side_won", "{side} wins: every unit of {other} has fallen.", side=W, other=W),
    _m("log.enemy_responds", "{unit} responds with {move}.", unit=U, move=M),
    _m("log.enemy_responds_on", "{unit} responds with {move} on {target}.",
       unit=U, move=M, target=U),
    _m("log.resolving_card", "{card} resolves.", card=C),
    _m("log.resolving_move", "{move} resolves.", move=M),
    _m("log.recollected", "It now reaches {units}.", units="units"),
    _m("log.target_lost", "{unit} is lost as a target: it {reason}.", unit=U, reason=T),
    *(_m(f"log.target_lost.{reason}", f"{{unit}} is lost as a target: it {words}.", unit=U)
      for reason, words in LOST.items()),
    # Who puts a card on the Cut: the viewer (you), the other side's player, or a side.
    _m("log.activated.you", "You put {card} on the Cut.", card=C),
    _m("log.activated.you_at", "You put {card} at {targets} on the Cut.", card=C,
       targets="units"),
    _m("log.activated.you_respond", "You respond with {card}.", card=C),
    _m("log.activated.you_respond_at", "You respond with {card} at {targets}.", card=C,
       targets="units"),
    _m("log.activated.other", "{who} puts {card} on the Cut.", who=NAME, card=C),
    _m("log.activated.other_at", "{who} puts {card} at {targets} on the Cut.", who=NAME, card=C,
       targets="units"),
    _m("log.activated.other_respond", "{who} responds with {card}.", who=NAME, card=C),
    _m("log.activated.other_respond_at", "{who} responds with {card} at {targets}.", who=NAME,
       card=C, targets="units"),
    _counted("log.draw.you", "You draw {count} card.", "You draw {count} cards.", "count"),
    _counted("log.draw.other", "{who} draws {count} card.", "{who} draws {count} cards.",
             "count", who=NAME),
    _m("who.unit", "{unit}", unit=U),
)  # fmt: skip

FIZZLES = (
    _m("fizzle.card", "{card} fails: {reason}.", card=C, reason=T),
    _m("fizzle.move", "{move} fails: {reason}.", move=M, reason=T),
    *(_m(f"fizzle.card.{reason}", f"{{card}} fails: {words}.", card=C)
      for reason, words in FAILED.items()),
    *(_m(f"fizzle.move.{reason}", f"{{move}} fails: {words}.", move=M)
      for reason, words in FAILED.items()),
)  # fmt: skip

MARKS = (
    _m("mark.damage", "-{lost} HP", lost=N),
    _m("mark.blocked", "{blocked} blocked", blocked=N),
    _m("mark.heal", "+{amount} HP", amount=N),
    _m("mark.armor", "+{amount} Armor", amount=N),
    _m("mark.status_gain", "+{stacks} {status}", stacks=N, status=S),
    _m("mark.status_lose", "-{stacks} {status}", stacks=N, status=S),
    _m("mark.defeated", "defeated"),
    _m("mark.revived", "revived"),
    _m("mark.withdrawn", "withdrawn"),
    _m("mark.deployed", "deployed"),
)

REFUSALS = (
    _m("refusal.no_legal_target", "no legal target"),
    _m("refusal.not_enough_legal_targets", "not enough legal targets"),
    _m("refusal.no_valid_target", "no valid target"),
    _m("refusal.no_card_to_choose", "no card to choose"),
    _m("refusal.no_card_to_target", "no card to target"),
    _m("refusal.source_down", "{unit} is down", unit=U),
    _m("refusal.not_a_target", "{unit} is not a valid target", unit=U),
    _m("refusal.energy", "needs {cost} energy, {energy} left", cost=N, energy=N),
    _m("refusal.not_your_turn", "it is {side}'s turn", side=W),
    _m("refusal.priority", "{side} holds priority on the Cut", side=W),
    _m("refusal.condition", "{reason}", reason="data"),
    _m("refusal.explained", "{reason}: {shields}", reason=W, shields=W),
    _m("refusal.shield", "{status} on {units} ({protects})", status=S, units="units", protects=W),
    _m("refusal.shield.other", "is protected"),
    *(_m(f"refusal.shield.{key}", words) for key, words in PROTECTIONS.items()),
)

#: Each target mode's name on a card, and the player's action it asks for.
MODES = tuple(
    message
    for facts in MODE_FACTS.values()
    for message in (
        _m(f"mode.{facts.mode.value}.label", facts.label),
        _m(f"mode.{facts.mode.value}.action", facts.action),
    )
)

#: How many units a card takes, as its band shows it beside the mode.
COUNTS = (
    _m("count.up_to", "up to {count}", count=N),
    _m("count.times", "\u00d7{count}", count=N),
)

INTENTS = (
    _m("intent.amount", "{amount}", amount=N),
    _m("intent.hits", "{amount}x{repeat}", amount=N, repeat=N),
    _m("intent.title", "{move} {label}", move=M, label=W),
    _m("intent.title_bare", "{move}", move=M),
    _m("intent.idle", "will not get to act"),
    _m("intent.no_effect", "with no effect"),
    _m("intent.random", "as chance will have it"),
    _m("intent.hidden", "as cards you cannot see will have it"),
    _m("intent.at", "at {unit}", unit=U),
    _m("intent.itself", "on itself"),
    _m("intent.all_allies", "on all its allies"),
    _m("intent.some_allies", "on {count} of its allies", count=N),
    _m("intent.whole_party", "at the whole party"),
    _m("intent.some_party", "at {count} party members", count=N),
    _m("intent.some_units", "at {count} units", count=N),
    _m("intent.with", "{detail}, with {riders}", detail=W, riders=W),
)

#: Why a move over the Cut is refused now, as a UI shows it beside its controls.
CUT = (
    _m("cut.yours", "the top of the Cut is yours: pass to let the other side respond or let it "
       "resolve"),
    _m("cut.owner_chooses", "entry {entry} waits for {side} to make its choice: it resolves "
       "then", entry=T, side=W),
    _m("cut.full", "the Cut is full ({entries} entries): pass or resolve before adding another",
       entries=N),
    _counted("cut.waiting",
             "{count} effect(s) wait on the Cut: pass or resolve them before ending the turn",
             "{count} effect(s) wait on the Cut: pass or resolve them before ending the turn",
             "count"),
    _m("cut.over.victory", "the battle is over (victory)"),
    _m("cut.over.defeat", "the battle is over (defeat)"),
)  # fmt: skip

PROMPTS = (
    _m("prompt.cut.start", "Play a card to start a chain."),
    _m(
        "prompt.cut.side_respond",
        "{side}'s answer: respond with a card, or pass to let it resolve.",
        side=W,
    ),
    _m("prompt.cut.side_pass", "{side} may pass to let it resolve.", side=W),
    _m("prompt.cut.opponent", "The opponent may respond. Pass to let them answer."),
    _m("prompt.cut.respond", "Your answer: respond with a card, or pass to let it resolve."),
    _m("prompt.cut.pass", "Pass to let it resolve."),
)

#: What a pile viewer shows above a pile's cards (the ``pile`` answer).
PILE_VIEWS = (
    _m("view.pile.title", "Cards in {pile}: {count}", pile=W, count=N),
    _m("view.pile.ordered", "Top card first."),
    _m("view.pile.shuffled", "In no particular order: the draw order stays hidden."),
    _m("view.pile.hidden", "You may not see these cards."),
    _m("view.pile.empty", "No cards here."),
)

MESSAGES = (*PIECES, *LOG, *FIZZLES, *MARKS, *REFUSALS, *MODES, *COUNTS, *INTENTS, *CUT, *PROMPTS,
            *PILE_VIEWS)  # fmt: skip


def register(words: Words) -> None:
    words.messages(MESSAGES)
