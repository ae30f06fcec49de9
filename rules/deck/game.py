"""The reference game: one readable implementation of the rules, used to check the fast path.

Rules (docs/rules/deck.md with RULINGS 5 and 6):
- Both players start with 20 VP and 4 cards in hand. A round is one turn of each player, the starting
  player first. In a turn: mana = the player's turn number (mana is not spent; one card per turn); draw one
  card (none once the deck is empty); play the highest-cost card with cost <= mana, at random among cards
  of that cost; then every creature with ATK > 0, the new one included, attacks in the order played.
- Damage on creatures heals at the start of every turn, so every attack phase starts at full DEF.
- Only the defender's oldest living TAUNT creature counts (RULINGS 6). An attacker clashes with it, except
  that a DISTORTION attacker ignores it and hits the player when it lacks DISTORTION; a younger taunter
  with DISTORTION does not block the distorting attacker while an older one without it lives.
- A clash is simultaneous unless exactly one side has FIRST STRIKE: that side strikes first and takes no
  damage if it kills. A creature that clashed does not hit the player, except TRAMPLE's excess (ATK minus
  the taunter's remaining DEF, when positive) which goes to the player. Destroyed creatures leave the
  board.
- After both turns of a round: a player wins if only they have VP > 0; both at 0 or below is a tie. After
  50 rounds without a winner the game is a tie. A tie counts as a loss for player 1.

Choices where the rules are silent:
- An attacker killed by a first strike deals no damage, so no trample excess either.
- A creature killed while defending is removed at the end of the attack phase; it no longer taunts once
  dead, so the next attacker faces the next taunter (which, if it has DISTORTION, now stops distorting
  attackers too).
- Drawing "the top card of a shuffled deck" is done as drawing a uniformly random card of the remaining
  deck: the same distribution, and it needs no shuffle of cards that are never drawn. Each game draws
  player 1's opening hand first, then player 2's.

The random source only needs `randrange(n)`: `random.Random` for ordinary use, or `SplitMix64`, the fast
path's own generator, to replay a fast-path game card for card.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from rules.contract import Outcome
from rules.deck.cards import STARTING_LIFE, Card

OPENING_HAND = 4
MAX_ROUNDS = 50


class GameEnd(StrEnum):
    """Why a game ended, checked after each round."""

    OUT_OF_VP = "out of VP"  # only one player has VP left: that player wins
    BOTH_OUT_OF_VP = "both out of VP"  # a tie
    ROUND_LIMIT = "round limit"  # MAX_ROUNDS rounds without a winner: a tie


GameOutcome = Outcome[GameEnd]  # the contract's outcome: winner 0 is player 1, 1 is player 2, None a tie

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class RandomSource(Protocol):
    def randrange(self, n: int, /) -> int: ...


def mix64(z: int) -> int:
    """SplitMix64's output function."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class SplitMix64:
    """The fast path's generator. `randrange(n)` uses one output: the top 32 bits scaled to [0, n)."""

    def __init__(self, state: int):
        self.state = state & _MASK64

    def next64(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK64
        return mix64(self.state)

    def randrange(self, n: int) -> int:
        return ((self.next64() >> 32) * n) >> 32


def game_rng(seed: int, game_index: int) -> SplitMix64:
    """The generator of game `game_index` in a batch seeded with `seed` (as the fast path derives it)."""
    return SplitMix64(mix64((seed + (game_index + 1) * _GOLDEN) & _MASK64))


@dataclass
class Creature:
    card: Card
    damage: int = 0

    @property
    def remaining(self) -> int:
        return self.card.defense - self.damage

    @property
    def alive(self) -> bool:
        return self.remaining > 0


@dataclass(frozen=True)
class Clash:
    attacker: int  # index on the attacking board
    defender: int  # index on the defending board
    attacker_died: bool
    defender_died: bool
    excess: int  # trample damage that went through to the player


@dataclass(frozen=True)
class AttackPhase:
    """What one attack phase did. Indices refer to the boards as they were before the phase."""

    damage_to_player: int
    clashes: tuple[Clash, ...]
    attackers_left: tuple[int, ...]
    defenders_left: tuple[int, ...]


def clash_target(attacker: Card, defenders: Sequence[Creature]) -> int | None:
    """Index of the defender this attacker must clash with, or None when it hits the player."""
    oldest = next((i for i, creature in enumerate(defenders) if creature.alive and creature.card.taunt), None)
    if oldest is None or (attacker.distortion and not defenders[oldest].card.distortion):
        return None
    return oldest


def clash(attacker: Creature, defender: Creature) -> int:
    """Resolve one clash in place; returns the trample excess that goes to the player."""
    atk, back = attacker.card.atk, defender.card.atk
    excess = max(0, atk - defender.remaining) if attacker.card.trample else 0
    if attacker.card.first_strike and not defender.card.first_strike:
        defender.damage += atk
        if defender.alive:
            attacker.damage += back
        return excess
    if defender.card.first_strike and not attacker.card.first_strike:
        attacker.damage += back
        if not attacker.alive:
            return 0
        defender.damage += atk
        return excess
    attacker.damage += back
    defender.damage += atk
    return excess


def attack_phase(attackers: list[Creature], defenders: list[Creature]) -> AttackPhase:
    """Every attacker with ATK > 0 attacks in board order; destroyed creatures leave both boards."""
    damage = 0
    clashes: list[Clash] = []
    for index, attacker in enumerate(attackers):
        if attacker.card.atk <= 0:
            continue
        target = clash_target(attacker.card, defenders)
        if target is None:
            damage += attacker.card.atk
            continue
        defender = defenders[target]
        excess = clash(attacker, defender)
        damage += excess
        clashes.append(Clash(index, target, not attacker.alive, not defender.alive, excess))
    attackers_left = tuple(i for i, c in enumerate(attackers) if c.alive)
    defenders_left = tuple(i for i, c in enumerate(defenders) if c.alive)
    attackers[:] = [attackers[i] for i in attackers_left]
    defenders[:] = [defenders[i] for i in defenders_left]
    return AttackPhase(damage, tuple(clashes), attackers_left, defenders_left)


@dataclass
class Player:
    library: list[Card]  # the cards not drawn yet
    hand: list[Card] = field(default_factory=list[Card])
    board: list[Creature] = field(default_factory=list[Creature])
    life: int = STARTING_LIFE

    def draw(self, rng: RandomSource) -> Card | None:
        """A uniformly random card of the library (swap it to the end, then take it)."""
        if not self.library:
            return None
        pick = rng.randrange(len(self.library))
        self.library[pick], self.library[-1] = self.library[-1], self.library[pick]
        card = self.library.pop()
        self.hand.append(card)
        return card

    def play(self, mana: int, rng: RandomSource) -> Card | None:
        """The highest-cost affordable card, at random among equal costs (removed by swap with the last)."""
        affordable = [card.cost for card in self.hand if card.cost <= mana]
        if not affordable:
            return None
        best = max(affordable)
        candidates = [i for i, card in enumerate(self.hand) if card.cost == best]
        pick = candidates[rng.randrange(len(candidates))] if len(candidates) > 1 else candidates[0]
        self.hand[pick], self.hand[-1] = self.hand[-1], self.hand[pick]
        card = self.hand.pop()
        self.board.append(Creature(card))
        return card


@dataclass(frozen=True)
class GameEvent:
    round: int
    player: int  # 1 or 2
    text: str


def round_outcome(life_1: int, life_2: int) -> GameOutcome | None:
    """After a round: the winner when only one player has VP left, a tie when neither has; None: play on."""
    if (life_1 > 0) != (life_2 > 0):
        return Outcome(0 if life_1 > 0 else 1, GameEnd.OUT_OF_VP)
    if life_1 <= 0:
        return Outcome(None, GameEnd.BOTH_OUT_OF_VP)
    return None


@dataclass(frozen=True)
class GameResult:
    outcome: GameOutcome  # a tie (winner None) counts as a loss for player 1
    rounds: int
    life: tuple[int, int]
    events: tuple[GameEvent, ...]


def take_turn(me: Player, foe: Player, mana: int, rng: RandomSource) -> tuple[Card | None, Card | None, AttackPhase]:
    for creature in me.board + foe.board:
        creature.damage = 0
    drawn = me.draw(rng)
    played = me.play(mana, rng)
    phase = attack_phase(me.board, foe.board)
    foe.life -= phase.damage_to_player
    return drawn, played, phase


def play_game(deck_1: Sequence[Card], deck_2: Sequence[Card], player_1_starts: bool, rng: RandomSource) -> GameResult:
    players = (Player(list(deck_1)), Player(list(deck_2)))
    for player in players:
        for _ in range(OPENING_HAND):
            player.draw(rng)
    order = (0, 1) if player_1_starts else (1, 0)
    events: list[GameEvent] = []
    for round_number in range(1, MAX_ROUNDS + 1):
        for me in order:
            drawn, played, phase = take_turn(players[me], players[1 - me], round_number, rng)
            text = f"plays {played.label}" if played else "plays nothing"
            if drawn is None:
                text = "has no card to draw, " + text
            text += f"; deals {phase.damage_to_player} ({len(phase.clashes)} clashes); foe at {players[1 - me].life} VP"
            events.append(GameEvent(round_number, me + 1, text))
        outcome = round_outcome(players[0].life, players[1].life)
        if outcome is not None:
            return GameResult(outcome, round_number, (players[0].life, players[1].life), tuple(events))
    return GameResult(Outcome(None, GameEnd.ROUND_LIMIT), MAX_ROUNDS, (players[0].life, players[1].life), tuple(events))


def reference_results(
    deck_1: Sequence[Card], deck_2: Sequence[Card], games: int, rng: random.Random
) -> tuple[int, int, int]:
    """(player 1 wins, player 2 wins, ties) over `games` games; player 1 starts the even-numbered ones."""
    winners = Counter(play_game(deck_1, deck_2, index % 2 == 0, rng).outcome.winner for index in range(games))
    return winners[0], winners[1], winners[None]
