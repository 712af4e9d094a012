"""Information-set Monte Carlo tree search (single observer) over the runtime's legal answers.

The search reads one side's view, never a battle: each iteration rebuilds a battle from the
view with :func:`pybridge.runtime.determinize.determinize` (a fresh sample of what the view
hides), walks the shared tree down the moves legal in that sample (UCB1 with availability
counts, so a move that is only sometimes legal is judged by the samples where it was; at the
root, a prior from each move's value one move ahead on the first sample weighs in while counts
are small), adds one node, plays the rest to a horizon (mostly the move with the best average
reward so far in this search, else a random one) and scores the end from the searching side's
point of view. Both sides' moves are nodes of the tree: the other side picks the move best
for it. The budget is a number of iterations, and every draw comes from the runtime's PRNG
seeded by the caller: one seed and one budget give one decision on every machine.

Work is bounded as the runtime bounds a request's (``MAX_WORK``, counted the same way: node
evaluations and cards or units acted on), never by the clock, so the bounds change no decision
from one machine to another: an iteration's moves (and the making of the search, its first
sample's moves and their prior) share one request's budget, and stop where it is spent; and
:meth:`Search.run` starts no iteration once its call has spent the budget, so one call does at
most about twice one request's work, whatever the battle. Where a call stops changes nothing.

Moves are made of the runtime's own answers only (:func:`legal_actions`): ``targets`` for
the cards and their candidates (late choices included), the Cut's checks for responses and
passes, ``end_turn_refused`` for the end of the turn.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..runtime import Battle, CardDef, Pcg32, Pile, PlayError, Team, activate
from ..runtime import pass_priority as _pass_priority
from ..runtime import play as _play
from ..runtime.aims import Target, aim_options
from ..runtime.choices import DEFAULT_ANSWERS
from ..runtime.cut import activation_refused, pass_refused
from ..runtime.cut_answers import acting_side
from ..runtime.determinize import Sampler
from ..runtime.errors import WorkLimit
from ..runtime.resolve import MAX_WORK
from ..runtime.turns import end_turn as _end_turn
from ..runtime.turns import end_turn_refused
from ..runtime.vocabulary import Vocabulary

#: A move: its kind (``play``, ``activate``, ``pass``, ``end_turn``), the card instance and
#: the target (None, a unit or card id, or a list of them), as the runtime's operations take.
Action = tuple[str, str | None, Target]
#: At most this many combinations are offered for a card that chooses several.
MAX_COMBINATIONS = 12
#: The exploration constant of UCB1 (rewards are in [0, 1]).
EXPLORATION = 0.7
#: A random playout stops after this many turns past the decision, or this many moves.
HORIZON_TURNS = 4
MAX_PLAYOUT_MOVES = 120
#: How often in a thousand a playout plays a card when it may rather than pick among all
#: moves: a uniformly random one ends turns with cards unplayed and misjudges every line
#: (against greedy at 150 iterations: 62 % of 60 duels uniform, 75 % with this bias).
PLAY_BIAS = 800
#: How much the root's prior (each move's value one move ahead, on the first sample) weighs in
#: the choice at the root, fading as 1 / (visits + 1): progressive bias.
PRIOR_WEIGHT = 1.0
#: Whether an unfinished playout counts a unit's armor with its hit points.
ARMOR_COUNTS = True
#: How often in a thousand a playout makes the move with the best average so far (over every
#: iteration of this search, by who makes it and what it is: move-average sampling), rather
#: than a random one; a move not yet made counts as the best.
MAST_GREEDY = 600
#: The PRNG stream the search draws its own choices from.
SEARCH_STREAM = 0x15C7
_HAND = Pile.HAND
END_TURN: Action = ("end_turn", None, None)
PASS: Action = ("pass", None, None)


def legal_actions(battle: Battle) -> list[Action]:
    """Every move the acting side may make now, from the runtime's checks: on an empty Cut a
    card to play (and resolve) and the end of the turn; on a Cut a response (an activation)
    and a pass. Empty when the battle is over."""
    if battle.result is not None:
        return []
    side = acting_side(battle)
    hand = battle.sides[side].piles[_HAND]
    actions: list[Action] = []
    if battle.cut:
        if activation_refused(battle, side) is None:
            actions += [
                ("activate", c, t) for c in hand for t in aim_options(battle, c, MAX_COMBINATIONS)
            ]
        if pass_refused(battle) is None:
            actions.append(PASS)
        return actions
    actions += [("play", c, t) for c in hand for t in aim_options(battle, c, MAX_COMBINATIONS)]
    if end_turn_refused(battle) is None:
        actions.append(END_TURN)
    return actions


def apply_action(battle: Battle, action: Action) -> None:
    """Make ``action`` with the runtime's own operation (which checks it again)."""
    kind, card, target = action
    if kind == "play":
        _play(battle, card, target)
    elif kind == "activate":
        activate(battle, card, target)
    elif kind == "pass":
        _pass_priority(battle)
    elif kind == "end_turn":
        _end_turn(battle)
    else:
        raise ValueError(f"unknown move kind {kind!r}")


def _key(battle: Battle, action: Action) -> tuple[object, ...]:
    """What a move is across samples: the card's definition and player, not its instance
    (a hidden card is a different card in each sample; two copies in hand are one move)."""
    kind, card, target = action
    if card is None:
        return (kind,)
    instance = battle.cards[card]
    aimed: object = tuple(target) if isinstance(target, list) else target
    return kind, instance.card.id, instance.owner, instance.side.value, aimed


@dataclass(slots=True)
class _Node:
    mover: Team | None  # who made the move into this node (None at the root)
    visits: int = 0
    total: float = 0.0  # the mover's rewards
    available: int = 0
    children: dict[tuple[object, ...], _Node] = field(default_factory=dict)


def score(battle: Battle, side: Team) -> float:
    """How good the battle is for ``side``, in [0, 1]: 1 won, 0 lost, else the share of
    hit points its units keep against the other team's (0.5 when even)."""
    if battle.result is not None:
        won = battle.result == "victory"
        return 1.0 if won == (side is Team.PLAYER) else 0.0

    def kept(team: Team) -> float:
        units = battle.team(team)
        return sum(max(u.hp, 0) for u in units) / max(1, sum(u.max_hp for u in units))

    return 0.5 + 0.5 * (kept(side) - kept(side.opposite))


def _value(battle: Battle, side: Team) -> float:
    """How good a sample is for ``side``, in [0, 1], as the search judges the end of a
    playout: :func:`score`, with each unit's armor counted as hit points it keeps (armor
    stays until it is struck), kept inside (0, 1) so that only a finished battle is 0 or 1."""
    if battle.result is not None or not ARMOR_COUNTS:
        return score(battle, side)

    def kept(team: Team) -> float:
        units = battle.team(team)
        held = sum(max(u.hp, 0) + u.armor for u in units if u.hp > 0)
        return held / max(1, sum(u.max_hp for u in units))

    return min(0.99, max(0.01, 0.5 + 0.5 * (kept(side) - kept(side.opposite))))


@dataclass(frozen=True, slots=True)
class Decision:
    """What the search chose: the move in the view's card ids, and how often it was tried
    (``visits``) out of ``iterations``."""

    kind: str
    card: str | None
    target: Target
    visits: int
    iterations: int

    @property
    def action(self) -> Action:
        return self.kind, self.card, self.target

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "card": self.card, "target": self.target,
                "visits": self.visits, "iterations": self.iterations}  # fmt: skip


def decide(view: Mapping[str, Any], seed: int, iterations: int,
           library: Mapping[str, CardDef] | None = None,
           words: Vocabulary | None = None) -> Decision:  # fmt: skip
    """The move the viewing side should make now, by ``iterations`` iterations of search
    from its ``view`` alone (``library``: cards the battle was opened with beside its own;
    ``words``: the vocabulary it was read with, a game's extensions included). Raises
    ValueError when the viewer has no move (not its turn, or the battle is over)."""
    search = Search(view, seed, iterations, library, words)
    while not search.finished:  # each call runs at most one request's work
        search.run(iterations)
    return search.decision()


class Search:
    """One decision's search, run a few iterations at a time (:meth:`run`), so a host can
    spread it over frames: its tree, sampler and PRNG are kept between the calls, and the
    decision is the same whether the budget is run in one call or in many."""

    def __init__(self, view: Mapping[str, Any], seed: int, iterations: int,
                 library: Mapping[str, CardDef] | None = None,
                 words: Vocabulary | None = None) -> None:  # fmt: skip
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        self.iterations = iterations
        #: Iterations run so far.
        self.searched = 0
        self._rng = Pcg32(seed, SEARCH_STREAM)
        self._sampler = Sampler(view, library, words)
        self._first = _sample(self._sampler, self._rng)
        #: The making's work (its moves, the prior's), billed to the first call of :meth:`run`.
        self._unbilled = self._first.meter = [0]
        self._me = acting_side(self._first)
        if str(view["view"]["viewer"]) != self._me.value:
            raise ValueError(f"it is the {self._me.value} side's move, not the viewer's")
        self._moves = legal_actions(self._first)
        if not self._moves:
            raise ValueError("the battle is over: no move to make")
        self._root = _Node(None)
        self._prior = _prior(self._first, self._moves, self._me)
        self._averages: _Averages = {}

    @property
    def finished(self) -> bool:
        """Whether the budget is spent (at once when there is only one move to make)."""
        return len(self._moves) == 1 or self.searched >= self.iterations

    def run(self, most: int) -> int:
        """Run at most ``most`` more iterations of the budget, and none once this call has
        spent one request's work (``MAX_WORK``; the first call also pays for the making):
        how many were run. Call again until :attr:`finished`."""
        ran, spent = 0, self._unbilled[0]
        self._unbilled = [0]
        while ran < most and not self.finished and spent < MAX_WORK:
            battle = self._first if self.searched == 0 else _sample(self._sampler, self._rng)
            meter = battle.meter = [0]  # the iteration's own: where a call stops changes nothing
            _iterate(battle, self._root, self._me, self._rng, self._prior, self._averages)
            spent += meter[0]
            self.searched += 1
            ran += 1
        return ran

    def decision(self) -> Decision:
        """The most tried move at the root, in the view's ids (the budget must be spent)."""
        if not self.finished:
            raise ValueError(f"the search has run {self.searched} of {self.iterations} "
                             "iterations: run it to the end first")  # fmt: skip
        moves, root = self._moves, self._root
        if len(moves) == 1:  # nothing to weigh
            return Decision(*moves[0], visits=0, iterations=self.iterations)
        best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].total))[0]
        for action in moves:  # the move in the view's own ids (the first card that makes it)
            if _key(self._first, action) == best:
                return Decision(*action, visits=root.children[best].visits,
                                iterations=self.iterations)  # fmt: skip
        raise AssertionError("the most tried move is one of the first sample's")  # pragma: no cover


def _sample(sampler: Sampler, rng: Pcg32) -> Battle:
    battle = sampler.sample(rng.next_u32() << 32 | rng.next_u32())
    battle.answers = DEFAULT_ANSWERS  # a choice an action asks takes its default
    return battle


def _prior(first: Battle, moves: list[Action], me: Team) -> dict[tuple[object, ...], float]:
    """Each root move's value one move ahead on the first sample (a copy of it), scaled to
    [0, 1] over the moves: what the root's choice leans on while its counts are small."""
    values: dict[tuple[object, ...], float] = {}
    for action in moves:
        key = _key(first, action)
        if key in values:
            continue
        copy = first.clone()  # its moves count on the first sample's meter
        copy.answers = DEFAULT_ANSWERS
        values[key] = 0.0 if _spent(first) or not _made(copy, action) else _value(copy, me)
    low, high = min(values.values()), max(values.values())
    spread = high - low
    return {k: (v - low) / spread if spread > 0 else 0.0 for k, v in values.items()}


#: Every move's rewards so far in one search, by who made it and what it is: [total, count].
_Averages = dict[tuple[Team, tuple[object, ...]], list[float]]


def _iterate(battle: Battle, root: _Node, me: Team, rng: Pcg32,
             prior: Mapping[tuple[object, ...], float], averages: _Averages) -> None:  # fmt: skip
    """One iteration on one sample: select and expand down the tree, play out, back up."""
    node, path = root, [root]
    made: list[tuple[Team, tuple[object, ...]]] = []  # every move of this iteration
    start = battle.turn
    while battle.result is None:
        moves = _legal(battle)
        if not moves:
            break
        mover = acting_side(battle)
        keyed: dict[tuple[object, ...], Action] = {}
        for action in moves:
            keyed.setdefault(_key(battle, action), action)
        untried = [k for k in keyed if k not in node.children]
        for k in keyed:
            child = node.children.get(k)
            if child is not None:
                child.available += 1
        if untried:
            if node is root:  # the root tries its moves best prior first
                k = max(untried, key=lambda k: prior.get(k, 0.0))
            else:
                k = untried[rng.below(len(untried)) if len(untried) > 1 else 0]
            child = node.children[k] = _Node(mover, available=1)
            if not _made(battle, keyed[k]):
                del node.children[k]
                return
            path.append(child)
            made.append((mover, k))
            break
        if node is root:
            k = max(keyed, key=lambda k: _ucb(node.children[k]) + PRIOR_WEIGHT
                    * prior.get(k, 0.0) / (node.children[k].visits + 1))  # fmt: skip
        else:
            k = max(keyed, key=lambda k: _ucb(node.children[k]))
        node = node.children[k]
        if not _made(battle, keyed[k]):
            return
        path.append(node)
        made.append((mover, k))
    _playout(battle, rng, start + HORIZON_TURNS, averages, made)
    reward = _value(battle, me)
    for visited in path[1:]:
        visited.visits += 1
        visited.total += reward if visited.mover is me else 1.0 - reward
    for mover, k in made:
        tally = averages.get((mover, k))
        if tally is None:
            tally = averages[mover, k] = [0.0, 0]
        tally[0] += reward if mover is me else 1.0 - reward
        tally[1] += 1


def _ucb(node: _Node) -> float:
    if node.visits == 0:
        return math.inf
    spread = math.sqrt(math.log(max(node.available, 1)) / node.visits)
    return node.total / node.visits + EXPLORATION * spread


def _spent(battle: Battle) -> bool:
    """Has the search spent the work its battle's meter allows (one request's)?"""
    meter: list[int] | None = battle.meter
    return meter is not None and meter[0] >= MAX_WORK


def _legal(battle: Battle) -> list[Action]:
    """The legal moves, or none once the meter is spent: the iteration ends there (a move
    past the bound would be refused as a request past it is)."""
    if _spent(battle):
        return []
    try:
        return legal_actions(battle)
    except WorkLimit:
        return []


def _made(battle: Battle, action: Action) -> bool:
    """Make a move in a sample; False when the runtime refuses it (the move list is the
    runtime's own answers, so a refusal is a fault the search steps around)."""
    try:
        apply_action(battle, action)
    except PlayError:
        return False
    return True


def _playout(battle: Battle, rng: Pcg32, last_turn: int, averages: _Averages,
             made: list[tuple[Team, tuple[object, ...]]]) -> None:  # fmt: skip
    """Legal moves to the end of the battle or past ``last_turn``, each one added to
    ``made``: ``MAST_GREEDY`` times in a thousand the move whose average reward in this search
    is the best for its mover (one never made first), else a random one: a card when one may
    be played ``PLAY_BIAS`` times in a thousand, else any move (the end of the turn or a pass
    among them)."""
    for _ in range(MAX_PLAYOUT_MOVES):
        if battle.result is not None or battle.turn > last_turn:
            return
        moves = _legal(battle)
        if not moves:
            return
        mover = acting_side(battle)
        if len(moves) > 1 and rng.below(1000) < MAST_GREEDY:
            best, best_mean = 0, -1.0
            for index, move in enumerate(moves):
                tally = averages.get((mover, _key(battle, move)))
                mean = 2.0 if tally is None else tally[0] / tally[1]
                if mean > best_mean:
                    best, best_mean = index, mean
            move = moves[best]
        else:
            cards = [m for m in moves if m[1] is not None]
            if cards and len(cards) < len(moves) and rng.below(1000) < PLAY_BIAS:
                moves = cards
            move = moves[rng.below(len(moves)) if len(moves) > 1 else 0]
        key = _key(battle, move)
        if not _made(battle, move):
            return
        made.append((mover, key))
