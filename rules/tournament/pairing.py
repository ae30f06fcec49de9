"""Pairing the next round of a Swiss tournament with a maximum-weight matching (networkx), as Swiss pairing
programs do, rather than a hand-written search.

The players still in are ranked by points, then rating, then id (the pairing order). With an odd number, the
lowest-ranked player who has not had a bye sits out with it (a higher-ranked one only if the rest could not
otherwise be paired without a rematch). Every two of the others who have not met are joined by an edge, two who
have met by none, so a rematch is never paired. Among the pairings that seat everyone, the matching picks the
one that is best on each of these in turn, each counting only where the ones above it are equal:

1. the fewest pairs of two players who both must have the same colour (both have had the challenger's seat two
   more times than the opponent's, or both two fewer): such a pair would take one of them to three;
2. the smallest sum over the pairs of the squared difference of their points, in half points: players meet
   players on their own score, and a player who must float meets the nearest score group;
3. the smallest sum over the pairs of the colour preferences both players share (a player who has been the
   challenger once more than the opponent prefers the opponent's seat strongly, 2; one with as many of each
   mildly, 1, the seat they did not have last; none before their first game): the challenger's seat goes to
   whoever had it less;
4. the smallest sum of the distances from the Swiss pairing within a score group, top half against bottom
   half: in a group of g, the player in place p (0, 1, ...) against the one in place p + g // 2 costs nothing,
   any other pair of the group the amount by which their places are further apart or closer than g // 2; a
   pair across groups costs the places of the upper one from the bottom of its group plus the places of the
   lower one from the top of its own, so the last of a group floats to the first of the next;
5. what is still equal: the top-ranked player meets the highest-ranked opponent possible, then the next one.

The boards are ordered by their higher-ranked player. On each board the challenger is the player who has been
the challenger fewer times (counting only games, not byes) than the opponent's seat; with equal counts, the one
who was the opponent the last time the two had different seats; with identical histories (the first round),
the higher-ranked player on odd boards and the lower-ranked on even ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.errors import RuleInputError
from rules.tournament.models import Colour, Pairing, Player, Round, TournamentState, games_of, is_finished, scores


@dataclass(frozen=True)
class _Seeded:
    """What pairing needs of one player: place in the pairing order, score, colours, opponents met."""

    player: Player
    place: int
    halves: int  # points x 2
    colours: tuple[Colour, ...]  # oldest first, games only
    met: frozenset[int]
    had_bye: bool

    @property
    def colour_difference(self) -> int:
        """Challenger seats minus opponent seats."""
        return sum(1 if colour is Colour.CHALLENGER else -1 for colour in self.colours)

    @property
    def preference(self) -> tuple[int, int]:
        """(direction, strength): direction +1 for the challenger's seat, -1 for the opponent's, 0 for none;
        strength 3 absolute, 2 strong, 1 mild."""
        difference = self.colour_difference
        if difference:
            direction = -1 if difference > 0 else 1
            return direction, 3 if abs(difference) >= 2 else 2
        if self.colours:
            return (1 if self.colours[-1] is Colour.OPPONENT else -1), 1
        return 0, 0


def _seeded(state: TournamentState) -> list[_Seeded]:
    points = scores(state)
    ranked = sorted(state.active, key=lambda p: (-points[p.id], -p.rating, p.id))
    seeded: list[_Seeded] = []
    for place, player in enumerate(ranked):
        games = games_of(state, player.id)
        seeded.append(
            _Seeded(
                player=player,
                place=place,
                halves=round(points[player.id] * 2),
                colours=tuple(game.colour for game in games if game.colour is not None),
                met=frozenset(game.opponent for game in games if game.opponent is not None),
                had_bye=any(game.opponent is None for game in games),
            )
        )
    return seeded


def max_weight_matching(nodes: int, edges: Iterable[tuple[int, int, int]]) -> list[tuple[int, int]] | None:
    """A perfect matching of nodes 0..nodes-1 of greatest total weight, with integer weights (exact arithmetic),
    or None when no matching seats every node. The one use of networkx, loaded here on first use."""
    import networkx as nx  # typed by the stubs pyright bundles (typeshed's types-networkx)

    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(nodes))
    graph.add_weighted_edges_from(edges)
    found = nx.max_weight_matching(graph, maxcardinality=True)
    if len(found) * 2 != nodes:
        return None
    return sorted((min(a, b), max(a, b)) for a, b in found)


def _group_places(players: list[_Seeded]) -> list[tuple[int, int]]:
    """(place within its score group, size of the group) for each player, in order."""
    sizes: dict[int, int] = {}
    for player in players:
        sizes[player.halves] = sizes.get(player.halves, 0) + 1
    seen: dict[int, int] = {}
    places: list[tuple[int, int]] = []
    for player in players:
        places.append((seen.get(player.halves, 0), sizes[player.halves]))
        seen[player.halves] = seen.get(player.halves, 0) + 1
    return places


def _pair(players: list[_Seeded]) -> list[tuple[_Seeded, _Seeded]] | None:
    """The best pairing of these players (in pairing order), or None when they cannot all be paired."""
    count = len(players)
    places = _group_places(players)
    penalties: dict[tuple[int, int], tuple[int, int, int, int]] = {}
    for i in range(count):
        for j in range(i + 1, count):
            a, b = players[i], players[j]
            if b.player.id in a.met:
                continue
            (direction_a, strength_a), (direction_b, strength_b) = a.preference, b.preference
            same = direction_a != 0 and direction_a == direction_b
            absolute = int(same and strength_a == strength_b == 3)
            colour = min(strength_a, strength_b) if same else 0
            (place_a, size_a), (place_b, _) = places[i], places[j]
            if a.halves == b.halves:
                slide = abs(place_b - place_a - size_a // 2)
            else:
                slide = (size_a - 1 - place_a) + place_b
            penalties[i, j] = (absolute, (a.halves - b.halves) ** 2, colour, slide)
    # Each tier's unit exceeds the largest total every tier below it can reach, so the tiers count in order.
    pairs = count // 2
    spans: list[int] = []
    reach = 0
    for tier in reversed(range(4)):
        spans.insert(0, reach + 1)
        reach += (reach + 1) * pairs * max((parts[tier] for parts in penalties.values()), default=0)
    worst = reach + 1
    edge_order = sorted(penalties)  # (i, j) in order: the top player's pairs first
    tie_bits = len(edge_order) + 1
    edges: list[tuple[int, int, int]] = []
    for rank, (i, j) in enumerate(edge_order):
        penalty = sum(span * part for span, part in zip(spans, penalties[i, j]))
        edges.append((i, j, ((worst - penalty) << tie_bits) + (1 << (len(edge_order) - rank))))
    matching = max_weight_matching(count, edges)
    if matching is None:
        return None
    return [(players[i], players[j]) for i, j in matching]


def _challenger_first(higher: _Seeded, lower: _Seeded, board: int) -> bool:
    """Whether the higher-ranked player of a board is its challenger."""
    if higher.colour_difference != lower.colour_difference:
        return higher.colour_difference < lower.colour_difference
    for mine, theirs in zip(reversed(higher.colours), reversed(lower.colours)):
        if mine is not theirs:
            return mine is Colour.OPPONENT
    return board % 2 == 1


def pair_next_round(state: TournamentState) -> Round:
    """The next round's pairings and bye, worked out from the state alone (see the module's docstring)."""
    if is_finished(state):
        raise RuleInputError("the tournament is over: no round is left to pair")
    if state.rounds and not state.rounds[-1].complete:
        raise RuleInputError(f"round {state.rounds[-1].number} still has games without a result")
    seeded = _seeded(state)
    number = len(state.rounds) + 1
    candidates: list[_Seeded | None] = [None]
    if len(seeded) % 2:
        candidates = [player for player in reversed(seeded) if not player.had_bye]
        if not candidates:
            raise RuleInputError(f"round {number} needs a bye, and every player still in has had one")
    for bye in candidates:
        rest = [player for player in seeded if player is not bye]
        pairs = _pair(rest)
        if pairs is not None:
            pairs.sort(key=lambda pair: pair[0].place)
            pairings: list[Pairing] = []
            for board, (higher, lower) in enumerate(pairs, start=1):
                challenger, opponent = (higher, lower) if _challenger_first(higher, lower, board) else (lower, higher)
                pairings.append(Pairing(challenger=challenger.player.id, opponent=opponent.player.id))
            return Round(number=number, pairings=tuple(pairings), bye=None if bye is None else bye.player.id)
    raise RuleInputError(
        f"round {number} cannot be paired: every way of pairing the {len(seeded)} players still in "
        "would repeat a game already played (a rematch is never paired)"
    )
