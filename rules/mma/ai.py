"""The AI opponent, as docs/rules/mma.md's "The AI" describes it.

- After its first card of a turn it keeps playing with 70% chance (else ends the turn).
- Below 40% stamina it plays Ringside Medic first if it can.
- With 30% chance it plays a corner card that helps now: Master Coach; Intense Training when it holds a
  strike (Ground and Pound included: the bonus goes to it too) and has no bonus waiting; Ringside Medic when
  at least 10 stamina is missing.
- Otherwise it plays a random playable technique (Ground and Pound only with advantage and submissions
  only on the ground, as the rules already require), leaving out a defense card while one is waiting.
- It draws unless its hand is full and holds a card worth playing. After a knockout it deploys the fighter
  with the best total of striking, grappling and defense (then stamina).
- When its fighter bled out at the start of the turn (the pick follows the draw step), it draws if it
  holds no fighter (the draw is its only chance of one) and skips the draw if a draw into a full hand
  would discard its only fighter; otherwise as above.

Every choice uses the random source it is given, so a seeded match replays exactly.
"""

from __future__ import annotations

import random

from rules.mma.cards import (
    CARDS,
    CORNER,
    DEFENSE,
    FIGHTER_COUNT,
    GROUND_AND_POUND_KIND,
    INTENSE_TRAINING,
    MASTER_COACH,
    RINGSIDE_MEDIC,
    STRIKE,
)
from rules.mma.engine import (
    HAND_LIMIT,
    MEDIC_HEAL,
    apply_in_place,
    deploy_action,
    main_phase_playable,
    play_action,
    playable_cards,
    replay_rng,
    simple_action,
)
from rules.mma.state import (
    DRAW,
    DRAW_PHASE,
    END_TURN,
    NO_ONE,
    REPLACE_PHASE,
    SKIP_DRAW,
    Action,
    Event,
    GameState,
    PlayerState,
)

KEEP_PLAYING = 0.7
CORNER_CHANCE = 0.3
HEAL_BELOW = 0.4

_KIND = tuple(card.kind for card in CARDS)
# the cards Intense Training's bonus goes to: every strike, Ground and Pound included (RULINGS 3)
_STRIKES = frozenset(card.id for card in CARDS if card.kind in (STRIKE, GROUND_AND_POUND_KIND))


def fighter_rating(card: int) -> tuple[int, int]:
    fighter = CARDS[card]
    return (fighter.striking + fighter.grappling + fighter.defense, fighter.stamina)


def choose_action(state: GameState, player: int, rng: random.Random) -> Action:
    """The AI's next action for `player`, who must be the one the match is waiting for."""
    phase = state.phase
    if phase == REPLACE_PHASE:
        return deploy_action(player, max(playable_cards(state, player), key=fighter_rating))
    me = state.players[player]
    if phase == DRAW_PHASE:
        if me.fighter == NO_ONE:
            fighters = me.fighters_in_hand()
            if fighters == 0:
                return simple_action(player, DRAW)
            if fighters == 1 and len(me.hand) >= HAND_LIMIT and me.hand[0] < FIGHTER_COUNT:
                return simple_action(player, SKIP_DRAW)
        # A full hand is kept only if it has something worth playing; otherwise drawing cycles the oldest out.
        keep = len(me.hand) >= HAND_LIMIT and any(_worth_playing(me, main_phase_playable(state, player)))
        return simple_action(player, SKIP_DRAW if keep else DRAW)
    if state.plays and rng.random() >= KEEP_PLAYING:
        return simple_action(player, END_TURN)
    playable = main_phase_playable(state, player)
    if RINGSIDE_MEDIC in playable and me.stamina < HEAL_BELOW * me.max_stamina:
        return play_action(player, RINGSIDE_MEDIC)
    corners, techniques = _worth_playing(me, playable)
    if corners and rng.random() < CORNER_CHANCE:
        return play_action(player, corners[int(rng.random() * len(corners))])
    if techniques:
        return play_action(player, techniques[int(rng.random() * len(techniques))])
    return simple_action(player, END_TURN)


def play_move_in_place(state: GameState, action: Action, ai_player: int | None) -> tuple[list[Action], list[Event]]:
    """Apply a player's `action` to `state` itself, then the AI's moves (if `ai_player` is set) until someone
    else must act.

    Each move draws from its own random source, `replay_rng(state)`, so a saved match replays from its seed
    and move list. Returns every action applied, the player's first, and all their events.
    """
    actions = [action]
    events = apply_in_place(state, action, replay_rng(state))
    while ai_player is not None and state.to_move == ai_player:
        rng = replay_rng(state)
        reply = choose_action(state, ai_player, rng)
        actions.append(reply)
        events += apply_in_place(state, reply, rng)
    return actions, events


def played_move(state: GameState, action: Action, ai_player: int | None) -> tuple[GameState, list[Action], list[Event]]:
    """`play_move_in_place` on a copy: the new state, every action applied and their events; `state` is left
    as it was."""
    new = state.copy()
    actions, events = play_move_in_place(new, action, ai_player)
    return new, actions, events


def _worth_playing(me: PlayerState, playable: list[int]) -> tuple[list[int], list[int]]:
    """The playable corner cards that help now, and the playable techniques worth a card."""
    corners: list[int] = []
    techniques: list[int] = []
    for card in playable:
        kind = _KIND[card]
        if kind == CORNER:
            if (
                card == MASTER_COACH
                or (card == INTENSE_TRAINING and me.training == 0 and not _STRIKES.isdisjoint(me.hand))
                or (card == RINGSIDE_MEDIC and me.max_stamina - me.stamina >= MEDIC_HEAL)
            ):
                corners.append(card)
        elif kind != DEFENSE or me.guard == NO_ONE:
            techniques.append(card)
    return corners, techniques


__all__ = ["choose_action", "fighter_rating", "play_move_in_place", "played_move"]
