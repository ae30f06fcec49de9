"""MMA Warriors as a state machine: `new_game`, `legal_actions`, `apply_in_place`, `applied`, `outcome`,
`replay_rng`.

Follows docs/rules/mma.md, with RULINGS 3 and 6. Choices where both are silent:

- The turn-based contract of `rules.contract`: `apply_in_place` updates the state it is given (like a chess
  board's push) and returns the events; `applied` does it on a copy. `replay_rng` is each move's random
  source, derived from the seed and the move count.
- Setup: each player's opening hand is the first fighter and the first four other cards from the top
  of their shuffled deck; that fighter is deployed at once (it is the only choice). Player 0 moves first.
  Both players hold 8 energy from the deal (RULINGS 6), so the second player's shows before
  their first turn, which starts with 8 as well.
- Drawing is its own step at the start of each turn: Draw or Skip draw, then the main phase. Ending the
  turn during the draw step skips the draw (not while the player's fighter is out: see the bleed
  knockout below). A player whose deck is empty when their draw step begins loses by deck out (skipping
  does not dodge it, or the win condition could never happen); a failed smart draw (only fighters left
  while holding two) is not a loss.
- A skipped (staggered) turn counts as one of that player's turns, for energy and for the 100-turn
  judges' decision.
- Master Coach's draw follows the drawing rules but does nothing on an empty deck (only the turn's
  draw can deck a player out).
- Intense Training stacks (+3 per card) until the fighter's next strike, Ground and Pound included,
  landed or defended. Parry's counter uses the defender's striking without that temporary bonus.
- Damage: the defender's pending defense is spent on the attack; the attack lands; if the defending
  fighter is still standing the counter (Parry/Slip Counter) then hits the attacker, so at most one
  fighter is knocked out per card. A knocked-out fighter cannot counter. Bleed and stagger need a
  clean hit on a fighter who survives it. A new Cutting Elbow resets bleed to 2 ticks.
- Ground and Pound (RULINGS 6, the document's order): damage = max(card, card + striking + bonus
  - defense + style + 3 + floor(grappling / 4)), then minus the pending defense, then at least 1: the
  grappling bonus is a term of the sum inside the max, not added after the card-damage floor.
  Submissions from the bottom do floor(60% of the card's damage).
- A failed takedown leaves the position as it was.
- KO: the player's pending defense stays (it belongs to the player); the knocked-out fighter's Master
  Coach and Intense Training bonuses go with it. A knockout always asks its owner to pick a fighter
  from hand, even when there is one (the AI picks by total stats); the match waits for that pick, even
  in the middle of the opponent's turn.
- A knockout from bleed at the start of a turn (RULINGS 6) ends the stagger with the fighter and
  the turn goes on to its draw step with no fighter: the replacement is picked after the Draw (the card
  drawn may be it) or right after Skip draw, and no fighter in hand then loses. Until then the turn
  cannot be ended. An empty deck at that draw step is a deck out, as at any draw step.
- Health at 0 after a knockout is checked before the hand, so five knockouts read "Health depleted".
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from rules.errors import RuleInputError
from rules.mma.cards import (
    CARDS,
    DECK_LIST,
    DEFENSE,
    FIGHTER_COUNT,
    GRAPPLER,
    GROUND_AND_POUND,
    GROUND_AND_POUND_KIND,
    RINGSIDE_MEDIC,
    STRIKE,
    STRIKER,
    STYLE_BONUS,
    SUBMISSION,
    TAKEDOWN,
    Card,
)
from rules.mma.state import (
    CONCEDE,
    DEPLOY,
    DRAW,
    DRAW_PHASE,
    END_TURN,
    MAIN_PHASE,
    NO_ONE,
    OVER,
    PLAY,
    REPLACE_PHASE,
    SKIP_DRAW,
    Action,
    EndReason,
    Event,
    GameState,
    MatchOutcome,
    Outcome,
    PlayerState,
)
from rules.seeds import ReplayStream, move_rng

REPLAY_STREAM = ReplayStream.NUMERIC  # every stored match replays from it: never change it
START_HEALTH = 100
START_ENERGY = 8
ENERGY_PER_TURN = 2
MAX_ENERGY = 16
HAND_LIMIT = 10
FIGHTERS_IN_HAND_LIMIT = 2
OPENING_OTHERS = 4
KO_HEALTH_LOSS = 20
BLEED_DAMAGE = 2
BLEED_TURNS = 2
TRAINING_BONUS = 3
COACH_BONUS = 1
MEDIC_HEAL = 10
MAX_TURNS = 100  # each; then the judges decide
SLIP_COUNTER_DAMAGE = 4

# How a match ends (the names callers and tests read).
HEALTH_DEPLETED = EndReason.HEALTH_DEPLETED
NO_FIGHTERS = EndReason.NO_FIGHTERS
DECK_OUT = EndReason.DECK_OUT
JUDGES = EndReason.JUDGES
CONCEDED = EndReason.CONCEDED
IDLE = EndReason.IDLE

# Why a player whose fighter bled out at the start of the turn cannot act yet.
DRAW_BEFORE_REPLACING = "draw or skip the draw first; then your next fighter comes in"

# Actions are immutable, so the hot loop reuses them instead of building new ones.
_PLAY = tuple(tuple(Action(p, PLAY, c) for c in range(len(CARDS))) for p in (0, 1))
_DEPLOY = tuple(tuple(Action(p, DEPLOY, c) for c in range(FIGHTER_COUNT)) for p in (0, 1))
_SIMPLE = tuple({k: Action(p, k) for k in (DRAW, SKIP_DRAW, END_TURN, CONCEDE)} for p in (0, 1))

_COST = tuple(card.cost for card in CARDS)
_KIND = tuple(card.kind for card in CARDS)


def play_action(player: int, card: int) -> Action:
    return _PLAY[player][card]


def deploy_action(player: int, card: int) -> Action:
    return _DEPLOY[player][card]


def simple_action(player: int, kind: str) -> Action:
    return _SIMPLE[player][kind]


IDLE_MINUTES = 15  # a player kept waiting this long by the other member may claim the win
IDLE_SECONDS = IDLE_MINUTES * 60


class IllegalAction(RuleInputError):
    """An action the rules do not allow now; the message says why."""


# ---------------------------------------------------------------------------------------------------
# Formulas (one function each; `apply_in_place` and the tests use the same ones)


class StrikeDamage(NamedTuple):
    card: int
    striking: int
    bonus: int  # Intense Training
    defense: int
    style: int  # +2 for a Striker
    ground_and_pound: int  # 3 + floor(grappling / 4), Ground and Pound only
    raw: int  # card + striking + bonus - defense + style + ground_and_pound
    before_defense: int  # max(card, raw)
    reduction: int  # pending defense card
    damage: int  # max(1, before_defense - reduction)


def strike_damage(
    card: int,
    striking: int,
    bonus: int,
    defense: int,
    striker: bool,
    ground_and_pound_grappling: int | None = None,
    reduction: int = 0,
) -> StrikeDamage:
    style = STYLE_BONUS if striker else 0
    gnp = 0 if ground_and_pound_grappling is None else 3 + ground_and_pound_grappling // 4
    raw = card + striking + bonus - defense + style + gnp
    before = raw if raw > card else card
    damage = before - reduction
    return StrikeDamage(card, striking, bonus, defense, style, gnp, raw, before, reduction, damage if damage > 1 else 1)


def stamina_penalty(stamina: int, max_stamina: int) -> int:
    """Takedown defense lost to fatigue: 0 at 70% stamina or more, 1 from 50%, 2 from 30%, 3 below."""
    if stamina * 10 >= max_stamina * 7:
        return 0
    if stamina * 10 >= max_stamina * 5:
        return 1
    if stamina * 10 >= max_stamina * 3:
        return 2
    return 3


class TakedownOdds(NamedTuple):
    attacker_score: int  # grappling + card bonus + 2 for a Grappler
    defender_score: int  # grappling - stamina penalty
    penalty: int
    chance_tenths: int  # success chance in tenths, 1..9


def takedown_odds(
    attacker_grappling: int,
    card_bonus: int,
    grappler: bool,
    defender_grappling: int,
    defender_stamina: int,
    defender_max_stamina: int,
) -> TakedownOdds:
    attacker = attacker_grappling + card_bonus + (STYLE_BONUS if grappler else 0)
    penalty = stamina_penalty(defender_stamina, defender_max_stamina)
    defender = defender_grappling - penalty
    tenths = 5 + attacker - defender
    tenths = 1 if tenths < 1 else 9 if tenths > 9 else tenths
    return TakedownOdds(attacker, defender, penalty, tenths)


def takedown_impact(card: int, attacker_grappling: int, defender_grappling: int) -> int:
    impact = card + attacker_grappling // 3 - defender_grappling // 3
    return impact if impact > card else card


class SubmissionDamage(NamedTuple):
    card: int
    base: int  # card damage, or floor(60%) of it from the bottom
    grappling: int  # attacker grappling + 2 for a Grappler
    defense: int  # defender grappling
    raw: int  # base + grappling - defense
    before_defense: int  # max(base, raw)
    reduction: int
    damage: int  # max(1, before_defense - reduction)


def submission_damage(
    card: int, on_top: bool, attacker_grappling: int, grappler: bool, defender_grappling: int, reduction: int = 0
) -> SubmissionDamage:
    base = card if on_top else card * 6 // 10
    grappling = attacker_grappling + (STYLE_BONUS if grappler else 0)
    raw = base + grappling - defender_grappling
    before = raw if raw > base else base
    damage = before - reduction
    return SubmissionDamage(
        card, base, grappling, defender_grappling, raw, before, reduction, damage if damage > 1 else 1
    )


def counter_damage(guard: int, defender_striking: int) -> int:
    """Damage a spent defense card deals back to the attacker."""
    effect = CARDS[guard].effect
    if effect == "parry":
        return 3 + defender_striking // 4
    if effect == "slip":
        return SLIP_COUNTER_DAMAGE
    return 0


def turn_energy(turn: int) -> int:
    """Energy at the start of a player's n-th turn."""
    energy = START_ENERGY + ENERGY_PER_TURN * (turn - 1)
    return energy if energy < MAX_ENERGY else MAX_ENERGY


# ---------------------------------------------------------------------------------------------------
# Setup


def new_game(seed: int, rng: random.Random | None = None) -> tuple[GameState, list[Event]]:
    """A shuffled, dealt match with both opening fighters deployed, waiting for player 0's draw."""
    rng = rng if rng is not None else random.Random(seed)
    state = GameState(seed)
    events: list[Event] = []
    for index, player in enumerate(state.players):
        deck = list(DECK_LIST)
        rng.shuffle(deck)
        fighter = NO_ONE
        others: list[int] = []
        rest: list[int] = []
        for card in reversed(deck):  # from the top
            if card < FIGHTER_COUNT and fighter == NO_ONE:
                fighter = card
            elif card >= FIGHTER_COUNT and len(others) < OPENING_OTHERS:
                others.append(card)
            else:
                rest.append(card)
        rest.reverse()
        player.deck = rest
        player.hand = others
        _deploy(player, fighter)
        player.energy = START_ENERGY
        events.append(Event("deploy", index, fighter, {"stamina": player.stamina}))
    _start_turn(state, 0, events)
    return state, events


def replay_rng(state: GameState) -> random.Random:
    """The random source for the next move of a saved match: replayable from the seed and move count."""
    return move_rng(REPLAY_STREAM, state.seed, state.moves)


# ---------------------------------------------------------------------------------------------------
# Queries


def outcome(state: GameState) -> MatchOutcome | None:
    if state.phase != OVER:
        return None
    return Outcome(None if state.winner == NO_ONE else state.winner, EndReason(state.reason))


def play_problem(state: GameState, player: int, card: int) -> str | None:
    """Why `player` cannot play (or deploy) `card` from hand now, or None if they can."""
    if state.phase == OVER:
        return "the match is over"
    if state.to_move != player:
        return "it is not your turn" if state.phase != REPLACE_PHASE else "waiting for a replacement fighter"
    return _card_problem(state, player, card)


def _card_problem(state: GameState, player: int, card: int) -> str | None:
    """The card's own conditions, for the player the match is waiting for."""
    me = state.players[player]
    if card not in me.hand:
        return "that card is not in your hand"
    phase = state.phase
    if phase == REPLACE_PHASE:
        return None if card < FIGHTER_COUNT else "pick a fighter to replace the one knocked out"
    if card < FIGHTER_COUNT:
        if me.fighter == NO_ONE:  # bled out at the start of this turn: the pick follows the draw step
            return DRAW_BEFORE_REPLACING
        return "a fighter is already deployed; fighters come in after a knockout"
    if phase == DRAW_PHASE:
        return "draw or skip the draw first"
    cost = _COST[card]
    if cost > me.energy:
        return f"needs {cost} energy, you have {me.energy}"
    kind = _KIND[card]
    if kind == GROUND_AND_POUND_KIND and state.advantage != player:
        return "needs positional advantage"
    if kind == SUBMISSION and state.advantage == NO_ONE:
        return "needs the fight on the ground"
    return None


def playable_cards(state: GameState, player: int) -> list[int]:
    """Distinct cards in hand `player` may play (or deploy) now, in hand order."""
    phase = state.phase
    if phase in (OVER, DRAW_PHASE) or state.to_move != player:
        return []
    me = state.players[player]
    result: list[int] = []
    if phase == REPLACE_PHASE:
        for card in me.hand:
            if card < FIGHTER_COUNT and card not in result:
                result.append(card)
        return result
    return main_phase_playable(state, player)


def main_phase_playable(state: GameState, player: int) -> list[int]:
    """Distinct non-fighter cards in `player`'s hand that the main phase would let them play now."""
    me = state.players[player]
    result: list[int] = []
    energy = me.energy
    advantage = state.advantage
    for card in me.hand:
        if card < FIGHTER_COUNT or _COST[card] > energy or card in result:
            continue
        kind = _KIND[card]
        if kind == GROUND_AND_POUND_KIND:
            if advantage != player:
                continue
        elif kind == SUBMISSION and advantage == NO_ONE:
            continue
        result.append(card)
    return result


def legal_actions(state: GameState, player: int) -> list[Action]:
    """Exactly the actions `player` may take now. Conceding is always open until the match ends."""
    if state.phase == OVER:
        return []
    simple = _SIMPLE[player]
    if state.to_move != player:
        return [simple[CONCEDE]]
    if state.phase == REPLACE_PHASE:
        return [_DEPLOY[player][c] for c in playable_cards(state, player)] + [simple[CONCEDE]]
    if state.phase == DRAW_PHASE:
        if state.players[player].fighter == NO_ONE:
            return [simple[DRAW], simple[SKIP_DRAW], simple[CONCEDE]]
        return [simple[DRAW], simple[SKIP_DRAW], simple[END_TURN], simple[CONCEDE]]
    plays = _PLAY[player]
    return [plays[c] for c in playable_cards(state, player)] + [simple[END_TURN], simple[CONCEDE]]


class CardOption(NamedTuple):
    card: int
    copies: int  # in hand
    problem: str | None  # None: playable now
    no_effect: str | None = None  # playable, but why playing it now would do nothing (`no_effect_reason`)


def card_options(state: GameState, player: int) -> list[CardOption]:
    """Every distinct card in `player`'s hand with whether it can be played now and why not."""
    hand = state.players[player].hand
    seen: list[int] = []
    for card in hand:
        if card not in seen:
            seen.append(card)
    options: list[CardOption] = []
    for card in seen:
        problem = play_problem(state, player, card)
        no_effect = no_effect_reason(state, player, card) if problem is None else None
        options.append(CardOption(card, hand.count(card), problem, no_effect))
    return options


def no_effect_reason(state: GameState, player: int, card: int) -> str | None:
    """Why `player` playing `card` now would spend its energy and do nothing ("your fighter is at full
    stamina"), or None. Such a play is still allowed; the hand view says so before it is made."""
    me = state.players[player]
    if card == RINGSIDE_MEDIC and me.fighter != NO_ONE and me.stamina >= me.max_stamina:
        return "your fighter is at full stamina"
    return None


def action_problem(state: GameState, action: Action) -> str | None:
    """Why `action` is not legal now, or None if it is."""
    phase = state.phase
    if phase == OVER:
        return "the match is over"
    player, kind = action.player, action.kind
    if player != 0 and player != 1:
        return "no such player"
    if kind == CONCEDE:
        return None
    replacing = phase == REPLACE_PHASE
    if (state.replacing if replacing else state.current) != player:
        return "waiting for a replacement fighter" if replacing else "it is not your turn"
    if kind in (PLAY, DEPLOY):
        if not 0 <= action.card < len(CARDS):
            return "no such card"
        if kind == DEPLOY and not replacing:
            return "a fighter is already deployed"
        if kind == PLAY and replacing:
            return "pick a replacement fighter first"
        return _card_problem(state, player, action.card)
    if replacing:
        return "pick a replacement fighter first"
    if kind in (DRAW, SKIP_DRAW):
        return None if phase == DRAW_PHASE else "you have already drawn this turn"
    if kind == END_TURN:
        return None if state.players[player].fighter != NO_ONE else DRAW_BEFORE_REPLACING
    return f"unknown action {kind!r}"


# ---------------------------------------------------------------------------------------------------
# Transitions


def apply_in_place(state: GameState, action: Action, rng: random.Random) -> list[Event]:
    """Play a legal action on `state` itself and list what happened; an illegal one raises IllegalAction and
    changes nothing."""
    problem = action_problem(state, action)
    if problem is not None:
        raise IllegalAction(problem)
    events: list[Event] = []
    kind = action.kind
    player = action.player
    if kind == PLAY:
        _play(state, player, action.card, rng, events)
    elif kind in (DRAW, SKIP_DRAW):
        me = state.players[player]
        events.append(_draw(me, player) if kind == DRAW else Event("skip_draw", player))
        state.phase = MAIN_PHASE
        if me.fighter == NO_ONE:  # bled out at the start of this turn: the card just drawn may come in
            _replace_or_lose(state, player, events)
    elif kind == END_TURN:
        _end_turn(state, events)
    elif kind == DEPLOY:
        me = state.players[player]
        me.hand.remove(action.card)
        _deploy(me, action.card)
        events.append(Event("deploy", player, action.card, {"stamina": me.stamina}))
        state.replacing = NO_ONE
        state.phase = MAIN_PHASE
    else:  # CONCEDE
        finish_in_place(state, 1 - player, CONCEDED, events)
    state.moves += 1
    return events


def applied(state: GameState, action: Action, rng: random.Random) -> tuple[GameState, list[Event]]:
    """`apply_in_place` on a copy: the new state and what happened; `state` is left as it was."""
    new = state.copy()
    return new, apply_in_place(new, action, rng)


def card_action(state: GameState, player: int, card: int) -> Action:
    """What choosing `card` from hand means now: deploying it while `player` picks a replacement, else playing it."""
    return Action(player, DEPLOY if state.phase == REPLACE_PHASE else PLAY, card)


def moves_made(state: GameState) -> int:
    """The moves the players made in the match, a concession that ended it not counted: 0 for a match that ended
    before any move (a tournament's forfeit, docs/rules/tournament.md, ruling 3)."""
    return state.moves - (1 if state.phase == OVER and state.reason == CONCEDED else 0)


def idle_claim_problem(state: GameState, claimant: int, *, against_ai: bool) -> str | None:
    """Why `claimant` cannot claim the win over an idle opponent, whatever the time, or None. The AI answers at
    once, so a match against it is never claimed; `idle_minutes_left` is the clock."""
    if state.phase == OVER:
        return "This match is over."
    if against_ai:
        return "The AI never keeps you waiting; concede instead if you want to stop."
    if state.to_move == claimant:
        return "It is your move: the clock is running for you, not your opponent."
    return None


def idle_minutes_left(waited_seconds: float) -> int:
    """The minutes (rounded up) before a player kept waiting `waited_seconds` may claim the win; 0: now."""
    if waited_seconds >= IDLE_SECONDS:
        return 0
    return max(1, int((IDLE_SECONDS - waited_seconds + 59) // 60))


def claimed_idle(state: GameState, claimant: int) -> tuple[GameState, list[Event]]:
    """A copy of `state` that `claimant` won because the opponent stayed idle (see `idle_claim_problem`)."""
    new = state.copy()
    events: list[Event] = []
    finish_in_place(new, claimant, IDLE, events)
    return new, events


def finish_in_place(state: GameState, winner: int, reason: EndReason, events: list[Event] | None = None) -> None:
    """End the match on `state` itself (winner NO_ONE: a draw)."""
    state.phase = OVER
    state.winner = winner
    state.reason = reason
    state.replacing = NO_ONE
    if events is not None:
        events.append(Event("over", winner, NO_ONE, {"reason": reason}))


def _deploy(player: PlayerState, fighter: int) -> None:
    player.fighter = fighter
    player.stamina = player.max_stamina = CARDS[fighter].stamina
    player.coach = player.training = player.bleed = 0
    player.staggered = False
    player.fielded.append(fighter)


def _start_turn(state: GameState, index: int, events: list[Event]) -> None:
    state.current = index
    state.plays = 0
    me = state.players[index]
    me.turns += 1
    me.energy = turn_energy(me.turns)
    events.append(Event("turn", index, NO_ONE, {"turn": me.turns, "energy": me.energy}))
    if me.bleed:
        me.bleed -= 1
        me.stamina -= BLEED_DAMAGE
        events.append(
            Event(
                "bleed",
                index,
                me.fighter,
                {"damage": BLEED_DAMAGE, "ticks_left": me.bleed, "stamina": max(me.stamina, 0)},
            )
        )
        # The replacement waits for the draw step (see `apply_in_place`); the knockout ends any stagger.
        if me.stamina <= 0 and not _knockout(state, index, events):
            return
    if me.staggered:
        me.staggered = False
        events.append(Event("staggered", index, me.fighter))
        _end_turn(state, events)
        return
    _enter_draw(state, index, events)


def _enter_draw(state: GameState, index: int, events: list[Event]) -> None:
    if not state.players[index].deck:
        finish_in_place(state, 1 - index, DECK_OUT, events)
    else:
        state.phase = DRAW_PHASE


def _end_turn(state: GameState, events: list[Event]) -> None:
    index = state.current
    events.append(Event("end_turn", index))
    first, second = state.players
    if first.turns >= MAX_TURNS and second.turns >= MAX_TURNS:
        winner = 0 if first.health > second.health else 1 if second.health > first.health else NO_ONE
        finish_in_place(state, winner, JUDGES, events)
        return
    _start_turn(state, 1 - index, events)


def _draw(me: PlayerState, index: int) -> Event:
    """Draw one card with the smart fighter rule; the caller has checked the deck is not empty."""
    deck = me.deck
    hand = me.hand
    top = len(deck) - 1
    if deck[top] < FIGHTER_COUNT and me.fighters_in_hand() >= FIGHTERS_IN_HAND_LIMIT:
        position = top
        while position >= 0 and deck[position] < FIGHTER_COUNT:
            position -= 1
        if position < 0:
            return Event("draw_failed", index, NO_ONE, {"deck": len(deck)})
        passed = deck[position + 1 :]  # fighters skipped, in the order they go under the deck
        card = deck[position]
        del deck[position:]
        deck[0:0] = passed
        skipped = len(passed)
    else:
        card = deck.pop()
        skipped = 0
    discarded = NO_ONE
    if len(hand) >= HAND_LIMIT:
        discarded = hand.pop(0)
        me.discard.append(discarded)
    hand.append(card)
    return Event("draw", index, card, {"discarded": discarded, "fighters_skipped": skipped, "deck": len(deck)})


def _knockout(state: GameState, index: int, events: list[Event]) -> bool:
    """Take out `index`'s fighter; False when that ends the match (health depleted)."""
    me = state.players[index]
    fighter = me.fighter
    me.health -= KO_HEALTH_LOSS
    if me.health < 0:
        me.health = 0
    me.knockouts += 1
    me.discard.append(fighter)
    me.fighter = NO_ONE
    me.stamina = me.coach = me.training = me.bleed = 0
    me.staggered = False
    state.advantage = NO_ONE
    events.append(Event("knockout", index, fighter, {"health_lost": KO_HEALTH_LOSS, "health": me.health}))
    if me.health <= 0:
        finish_in_place(state, 1 - index, HEALTH_DEPLETED, events)
        return False
    return True


def _replace_or_lose(state: GameState, index: int, events: list[Event]) -> None:
    """Wait for `index` to deploy a fighter from hand, or end the match if they hold none."""
    if state.players[index].fighters_in_hand() == 0:
        finish_in_place(state, 1 - index, NO_FIGHTERS, events)
    else:
        state.phase = REPLACE_PHASE
        state.replacing = index


def _knockout_mid_turn(state: GameState, index: int, events: list[Event]) -> None:
    """A knockout by an attack or counter: the owner picks the next fighter at once."""
    if _knockout(state, index, events):
        _replace_or_lose(state, index, events)


def _hurt(state: GameState, index: int, damage: int) -> bool:
    """Take damage off a fighter's stamina; True when it knocks the fighter out (caller handles it)."""
    target = state.players[index]
    target.stamina -= damage
    if target.stamina <= 0:
        target.stamina = 0
        return True
    return False


def _play(state: GameState, index: int, card_id: int, rng: random.Random, events: list[Event]) -> None:
    me = state.players[index]
    card = CARDS[card_id]
    me.hand.remove(card_id)
    me.discard.append(card_id)
    me.energy -= card.cost
    state.plays += 1
    kind = card.kind
    if kind in (STRIKE, GROUND_AND_POUND_KIND):
        _strike(state, index, card, events)
    elif kind == TAKEDOWN:
        _takedown(state, index, card, rng, events)
    elif kind == SUBMISSION:
        _submission(state, index, card, events)
    elif kind == DEFENSE:
        replaced = me.guard
        me.guard = card_id
        events.append(Event("guard", index, card_id, {"replaced": replaced, "energy": me.energy}))
    else:
        _corner(state, index, card, events)


def _after_attack(state: GameState, index: int, card: Card, guard: int, knocked_out: bool, events: list[Event]) -> None:
    """Knockout of the defender, or else the status effects of a clean hit or the defense's counter."""
    target = 1 - index
    if knocked_out:
        _knockout_mid_turn(state, target, events)
        return
    defender = state.players[target]
    if guard == NO_ONE:
        if card.effect == "bleed":
            defender.bleed = BLEED_TURNS
            events.append(Event("bleeding", target, defender.fighter, {"ticks": BLEED_TURNS}))
        elif card.effect == "stagger":
            defender.staggered = True
            events.append(Event("stagger", target, defender.fighter))
        return
    counter = counter_damage(guard, defender.striking)
    if counter:
        attacker_out = _hurt(state, index, counter)
        events.append(Event("counter", target, guard, {"damage": counter, "stamina": state.players[index].stamina}))
        if attacker_out:
            _knockout_mid_turn(state, index, events)


def _attack_numbers(
    numbers: dict[str, Any], guard: int, attacker: PlayerState, defender: PlayerState
) -> dict[str, Any]:
    numbers["guard"] = guard
    numbers["target"] = defender.fighter
    numbers["stamina"] = defender.stamina
    numbers["energy"] = attacker.energy
    return numbers


def _strike(state: GameState, index: int, card: Card, events: list[Event]) -> None:
    me = state.players[index]
    defender = state.players[1 - index]
    attacker = CARDS[me.fighter]
    gnp = card.id == GROUND_AND_POUND
    guard = defender.guard
    result = strike_damage(
        card.damage,
        attacker.striking + me.coach,
        me.training,
        CARDS[defender.fighter].defense + defender.coach,
        attacker.style == STRIKER,
        attacker.grappling + me.coach if gnp else None,
        CARDS[guard].reduction if guard != NO_ONE else 0,
    )
    defender.guard = NO_ONE
    me.training = 0
    if not gnp:
        state.advantage = NO_ONE
    knocked_out = _hurt(state, 1 - index, result.damage)
    events.append(Event("strike", index, card.id, _attack_numbers(result._asdict(), guard, me, defender)))
    _after_attack(state, index, card, guard, knocked_out, events)


def _submission(state: GameState, index: int, card: Card, events: list[Event]) -> None:
    me = state.players[index]
    defender = state.players[1 - index]
    attacker = CARDS[me.fighter]
    guard = defender.guard
    result = submission_damage(
        card.damage,
        state.advantage == index,
        attacker.grappling + me.coach,
        attacker.style == GRAPPLER,
        CARDS[defender.fighter].grappling + defender.coach,
        CARDS[guard].reduction if guard != NO_ONE else 0,
    )
    defender.guard = NO_ONE
    knocked_out = _hurt(state, 1 - index, result.damage)
    numbers = _attack_numbers(result._asdict(), guard, me, defender)
    numbers["on_top"] = state.advantage == index
    events.append(Event("submission", index, card.id, numbers))
    _after_attack(state, index, card, guard, knocked_out, events)


def _takedown(state: GameState, index: int, card: Card, rng: random.Random, events: list[Event]) -> None:
    me = state.players[index]
    defender = state.players[1 - index]
    attacker = CARDS[me.fighter]
    attacker_grappling = attacker.grappling + me.coach
    defender_grappling = CARDS[defender.fighter].grappling + defender.coach
    odds = takedown_odds(
        attacker_grappling,
        card.bonus,
        attacker.style == GRAPPLER,
        defender_grappling,
        defender.stamina,
        defender.max_stamina,
    )
    roll = rng.random()
    success = roll * 10 < odds.chance_tenths
    cleared = defender.guard
    defender.guard = NO_ONE
    numbers = {
        **odds._asdict(),
        "roll": roll,
        "success": success,
        "cleared": cleared,
        "energy": me.energy,
        "target": defender.fighter,
    }
    if not success:
        events.append(Event("takedown", index, card.id, numbers))
        return
    state.advantage = index
    impact = takedown_impact(card.damage, attacker_grappling, defender_grappling)
    knocked_out = _hurt(state, 1 - index, impact)
    numbers["impact"] = impact
    numbers["stamina"] = defender.stamina
    events.append(Event("takedown", index, card.id, numbers))
    if knocked_out:
        _knockout_mid_turn(state, 1 - index, events)


def _corner(state: GameState, index: int, card: Card, events: list[Event]) -> None:
    me = state.players[index]
    effect = card.effect
    if effect == "coach":
        me.coach += COACH_BONUS
        events.append(Event("coach", index, card.id, {"coach": me.coach, "energy": me.energy}))
        if me.deck:
            events.append(_draw(me, index))
    elif effect == "training":
        me.training += TRAINING_BONUS
        events.append(Event("training", index, card.id, {"bonus": me.training, "energy": me.energy}))
    else:
        healed = min(MEDIC_HEAL, me.max_stamina - me.stamina)
        me.stamina += healed
        events.append(Event("medic", index, card.id, {"healed": healed, "stamina": me.stamina, "energy": me.energy}))
