"""An Andor's Trail party fight (RULINGS 9): 2 to 4 members against 1 to 5 monsters, turn by turn, on the
turn-based contract of `rules.contract` (`legal_actions`, `apply_in_place`, `applied`, `outcome`, `replay_rng`).

A round: each member standing takes a full turn in the order they joined (the solo fight's AP, attack cost,
potions and flee), then the monsters' turn; aggressive monsters, or a fight opened with monsters first, act
first in the first round only (round 0, as in the solo fight).

Random draws, in order, from the move's `rng` (move n of a fight seeded s: Random("s:n"), as the solo fight):
an attack as `engine.roll_attack` draws it; a flee, d100; before each monster's attack, only when more than one
standing member is a candidate (the most damage dealt to that monster, or everyone standing before any), one
draw picks among the candidates in join order. A kill's gold is drawn apart, as the solo fight's loot.

Beyond the solo fight's actions there are two that the bot plays, not a member: `timeout` (the member whose turn
it is ran out of time: the turn ends as End turn; the third in a row makes them leave as if fled, without the
roll), `remove` (a game master removes a member, the same way, at any time) and `gone` (the same for a member
who left the server, at their turn). Every action is kept in
`PartyState.actions`, so a party fight replays from its seed and actions (`replayed`).

Choices where the rules are silent: no member calls a draw (the 20 quiet rounds still end it); when nobody is
left standing the party has lost if any member was knocked out, else (all fled or removed) it has fled; a
member's own action resets their timeouts in a row.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.andor.engine import (
    REPLAY_STREAM,
    drink_potion_in_place,
    flee_roll,
    monster_fighters,
    player_fighter,
    roll_attack,
    settle,
    uniform,
)
from rules.andor.models import (
    FEED_LENGTH,
    FLEE_CHANCE,
    FLEE_COST,
    POTION_COST,
    QUIET_ROUNDS_FOR_DRAW,
    AttackEvent,
    Character,
    Ending,
    Fighter,
    FightSummary,
    Monster,
    PlayerFighter,
)
from rules.contract import Outcome
from rules.errors import RuleInputError
from rules.seeds import move_rng

MIN_MEMBERS, MAX_MEMBERS = 2, 4
TIMEOUTS_TO_LEAVE = 3  # turns run out in a row

MemberStatus = Literal["standing", "knocked_out", "fled", "removed"]
PartyPhase = Literal["playing", "won", "lost", "fled", "draw"]
ActionKind = Literal["attack", "aim", "potion", "flee", "end_turn", "timeout", "remove", "gone"]
MEMBER_ACTIONS: tuple[ActionKind, ...] = ("attack", "aim", "potion", "flee", "end_turn")


class PartyAction(BaseModel):
    """One move: a member's (attack the aimed monster, aim at monster `target`, potion, flee, end turn) or the
    bot's (`timeout` of the member whose turn it is, `remove` of member `target` by a game master, `gone`: member
    `target` left the server)."""

    model_config = ConfigDict(frozen=True)

    kind: ActionKind
    target: int | None = None

    def __str__(self) -> str:
        return self.kind if self.target is None else f"{self.kind} {self.target}"


ATTACK = PartyAction(kind="attack")
POTION = PartyAction(kind="potion")
FLEE = PartyAction(kind="flee")
END_TURN = PartyAction(kind="end_turn")
TIMEOUT = PartyAction(kind="timeout")


def aim(monster: int) -> PartyAction:
    return PartyAction(kind="aim", target=monster)


def remove(member: int) -> PartyAction:
    return PartyAction(kind="remove", target=member)


def gone(member: int) -> PartyAction:
    return PartyAction(kind="gone", target=member)


class PartyMember(BaseModel):
    user_id: int
    fighter: PlayerFighter  # named as the member was when the fight started
    status: MemberStatus = "standing"
    timeouts: int = 0  # turns run out in a row
    damage: list[int]  # dealt to each monster in this fight: the monsters' threat
    xp_gained: int = 0  # shares of the kills made while standing, kept whatever the end
    gold_gained: int = 0
    potions_drunk: int = 0
    kills: int = 0  # killing blows

    @property
    def standing(self) -> bool:
        return self.status == "standing"


# --- events ---------------------------------------------------------------------------------------------


class Share(BaseModel):
    member: str
    xp: int
    gold: int


class ShareEvent(BaseModel):
    """A monster's XP and gold shared among the members standing, the remainder to the killing blow."""

    kind: Literal["share"] = "share"
    monster: str
    xp: int
    gold: int
    shares: list[Share]


class PartyTurnEvent(BaseModel):
    kind: Literal["turn"] = "turn"
    round: int
    member: str | None = None  # None: the monsters' turn
    ap: int | None = None


class DrinkEvent(BaseModel):
    kind: Literal["potion"] = "potion"
    member: str
    healed: int
    hp: int
    potions_left: int


class FleeTryEvent(BaseModel):
    kind: Literal["flee"] = "flee"
    member: str
    roll: int
    chance: int
    escaped: bool


class KnockOutEvent(BaseModel):
    kind: Literal["knocked_out"] = "knocked_out"
    member: str


class TimeoutEvent(BaseModel):
    kind: Literal["timeout"] = "timeout"
    member: str
    in_a_row: int


class LeaveEvent(BaseModel):
    """A member left without a flee roll: their third timeout in a row, a game master removed them, or they left
    the server."""

    kind: Literal["left"] = "left"
    member: str
    reason: Literal["timeouts", "removed", "gone"]


class PartyEndEvent(BaseModel):
    kind: Literal["end"] = "end"
    round: int
    result: Literal["won", "lost", "fled", "draw"]


PartyEvent = Annotated[
    AttackEvent
    | ShareEvent
    | PartyTurnEvent
    | DrinkEvent
    | FleeTryEvent
    | KnockOutEvent
    | TimeoutEvent
    | LeaveEvent
    | PartyEndEvent,
    Field(discriminator="kind"),
]


class PartyState(BaseModel):
    """A party fight. While `phase` is "playing" it is member `turn`'s turn, with `ap_left` AP."""

    members: list[PartyMember]
    monsters: list[Fighter]
    phase: PartyPhase = "playing"
    round: int = 1
    turn: int = 0
    ap_left: int = 0
    target: int = 0  # the monster the Attack button hits
    seed: int = 0
    moves: int = 0  # the moves made so far (the monsters' opening counts one): the next move's randomness
    actions: list[PartyAction] = Field(default_factory=list[PartyAction])  # every action, for the replay
    monsters_first: bool = False
    feed: list[PartyEvent] = Field(default_factory=list[PartyEvent])
    quiet_rounds: int = 0
    hurt_this_round: bool = False

    @property
    def current(self) -> PartyMember:
        return self.members[self.turn]

    def standing(self) -> list[PartyMember]:
        return [m for m in self.members if m.standing]


PartyOutcome = Outcome[Ending]  # winner 0 (the party) when the monsters are all dead


# --- the fight ------------------------------------------------------------------------------------------


def start_party(
    characters: Sequence[tuple[int, str, Character]],
    monster: Monster,
    count: int = 1,
    *,
    seed: int = 0,
    monsters_first: bool = False,
    rng: random.Random | None = None,
) -> PartyState:
    """A fresh party fight at full HP: `characters` are (user id, name, character) in join order. The monsters'
    opening turn, when they strike first, is move 0 (drawn from `rng` when given, as the solo fight's)."""
    if not MIN_MEMBERS <= len(characters) <= MAX_MEMBERS:
        raise RuleInputError(f"a party has {MIN_MEMBERS} to {MAX_MEMBERS} members, not {len(characters)}")
    monsters = monster_fighters(monster, count)
    members = [
        PartyMember(user_id=user_id, fighter=player_fighter(character, name), damage=[0] * count)
        for user_id, name, character in characters
    ]
    state = PartyState(members=members, monsters=monsters, seed=seed, monsters_first=monsters_first)
    events: list[PartyEvent] = []
    if monsters_first or monster.aggressive:
        state.round = 0  # the monsters' opening turn comes before the first round
        if rng is None:
            rng = replay_rng(state)
            state.moves = 1
        _monsters_turn(state, rng, events)
        state.hurt_this_round = False  # the opening is not a round: the quiet rounds count from round 1
        if state.phase == "playing":
            state.round = 1
            _start_turn(state, _next_standing(state, -1), events)
    else:
        _start_turn(state, 0, events)
    _remember(state, events)
    return state


def legal_actions(state: PartyState, player: int) -> list[PartyAction]:
    """What member `player` may do now: nothing unless it is their turn."""
    if state.phase != "playing" or player != state.turn:
        return []
    fighter, ap = state.current.fighter, state.ap_left
    actions: list[PartyAction] = []
    if ap >= fighter.attack_cost:
        actions.append(ATTACK)
        actions += [aim(i) for i, m in enumerate(state.monsters) if m.alive and i != state.target]
    if fighter.potions > 0 and ap >= POTION_COST and fighter.hp < fighter.max_hp:
        actions.append(POTION)
    if ap >= FLEE_COST:
        actions.append(FLEE)
    actions.append(END_TURN)
    return actions


def apply_in_place(state: PartyState, action: PartyAction, rng: random.Random) -> list[PartyEvent]:
    """Play one action on `state` itself: a member's (legal_actions of the member whose turn it is), or the bot's
    `timeout` (while the fight goes on) and `remove` (of a member standing). RuleInputError, nothing changed, when
    it is not possible now."""
    _check(state, action)
    events: list[PartyEvent] = []
    member = state.current
    turn_over = False
    if action.kind in MEMBER_ACTIONS:
        member.timeouts = 0
    if action.kind == "attack":
        turn_over = _member_attacks(state, rng, events)
    elif action.kind == "aim":
        state.target = action.target or 0
    elif action.kind == "potion":
        state.ap_left -= POTION_COST
        fighter = member.fighter
        healed = drink_potion_in_place(fighter)
        member.potions_drunk += 1
        events.append(DrinkEvent(member=fighter.name, healed=healed, hp=fighter.hp, potions_left=fighter.potions))
    elif action.kind == "flee":
        state.ap_left -= FLEE_COST
        roll, escaped = flee_roll(rng)
        events.append(FleeTryEvent(member=member.fighter.name, roll=roll, chance=FLEE_CHANCE, escaped=escaped))
        if escaped:
            member.status = "fled"
        turn_over = True
    elif action.kind == "timeout":
        member.timeouts += 1
        events.append(TimeoutEvent(member=member.fighter.name, in_a_row=member.timeouts))
        if member.timeouts >= TIMEOUTS_TO_LEAVE:
            member.status = "removed"
            events.append(LeaveEvent(member=member.fighter.name, reason="timeouts"))
        turn_over = True
    elif action.kind in ("remove", "gone"):
        leaving = state.members[action.target or 0]
        leaving.status = "removed"
        events.append(LeaveEvent(member=leaving.fighter.name, reason="removed" if action.kind == "remove" else "gone"))
        turn_over = leaving is member
    else:
        turn_over = True
    _check_end(state, events)
    if state.phase == "playing" and (turn_over or legal_actions(state, state.turn) == [END_TURN]):
        _pass_turn(state, rng, events)
    state.moves += 1
    state.actions.append(action)
    _remember(state, events)
    return events


def applied(state: PartyState, action: PartyAction, rng: random.Random) -> tuple[PartyState, list[PartyEvent]]:
    """`apply_in_place` on a copy: the new state and what happened; `state` is left as it was."""
    new = state.model_copy(deep=True)
    return new, apply_in_place(new, action, rng)


def abandoned(state: PartyState) -> PartyState:
    """The fight's channel was deleted: a copy that ends as if every member standing fled (no roll, no move)."""
    new = state.model_copy(deep=True)
    if new.phase == "playing":
        for member in new.standing():
            member.status = "fled"
        events: list[PartyEvent] = []
        _finish(new, "fled", events)
        _remember(new, events)
    return new


def replay_rng(state: PartyState) -> random.Random:
    """The randomness of the fight's next move, from its seed and the moves made so far (as the solo fight)."""
    return move_rng(REPLAY_STREAM, state.seed, state.moves)


def replayed(
    characters: Sequence[tuple[int, str, Character]],
    monster: Monster,
    count: int,
    seed: int,
    monsters_first: bool,
    actions: Sequence[PartyAction],
) -> PartyState:
    """The fight as its seed and its actions make it: the stored state again, move for move."""
    state = start_party(characters, monster, count, seed=seed, monsters_first=monsters_first)
    for action in actions:
        apply_in_place(state, action, replay_rng(state))
    return state


def outcome(state: PartyState) -> PartyOutcome | None:
    if state.phase == "playing":
        return None
    ending = Ending(state.phase)
    return Outcome(0 if ending is Ending.WON else None, ending)


def member_ending(state: PartyState, index: int) -> Ending | None:
    """How the fight ended for member `index`: knocked out, lost; fled or removed, fled; else the party's end.
    None while they are standing in a fight that goes on."""
    member = state.members[index]
    if member.status == "knocked_out":
        return Ending.LOST
    if member.status in ("fled", "removed"):
        return Ending.FLED
    return None if state.phase == "playing" else Ending(state.phase)


def member_summary(state: PartyState, index: int) -> FightSummary | None:
    """What the fight leaves member `index`, for `engine.settle` (None until it is over for them)."""
    ending = member_ending(state, index)
    if ending is None:
        return None
    member = state.members[index]
    return FightSummary(
        ending,
        state.round,
        member.fighter.hp,
        member.xp_gained,
        member.gold_gained,
        member.potions_drunk,
        member.kills,
    )


def settle_member(character: Character, state: PartyState, index: int) -> tuple[Character, int]:
    """Member `index`'s character after the fight (the solo fight's `settle`: their shares, the death penalty
    when knocked out, the potions spent) and its XP change."""
    summary = member_summary(state, index)
    if summary is None:
        raise RuleInputError("the fight goes on for this member")
    return settle(character, summary)


# --- internals ------------------------------------------------------------------------------------------


def _check(state: PartyState, action: PartyAction) -> None:
    if state.phase != "playing":
        raise RuleInputError("the fight is over")
    if action.kind == "timeout":
        return
    if action.kind in ("remove", "gone"):
        index = action.target
        if index is None or not 0 <= index < len(state.members) or not state.members[index].standing:
            raise RuleInputError("that member is not in the fight any more")
        return
    if action not in legal_actions(state, state.turn):
        raise RuleInputError(f"'{action}' is not possible now")


def _member_attacks(state: PartyState, rng: random.Random, events: list[PartyEvent]) -> bool:
    """The member whose turn it is attacks the aimed monster; True when the turn is over (the fight won)."""
    member = state.current
    state.ap_left -= member.fighter.attack_cost
    index = state.target
    monster = state.monsters[index]
    attack = roll_attack(member.fighter, monster, state.round, rng)
    events.append(attack)
    member.damage[index] += attack.damage
    state.hurt_this_round |= attack.damage > 0
    if attack.killed:
        _share(state, index, attack, events)
        state.target = next((i for i, m in enumerate(state.monsters) if m.alive), index)
    return not any(m.alive for m in state.monsters)


def _share(state: PartyState, index: int, kill: AttackEvent, events: list[PartyEvent]) -> None:
    """A monster's XP and gold shared equally, rounded down, among the members standing; the remainder to the
    killing blow. The gold is drawn apart from the fight's dice, as the solo fight's loot."""
    monster = state.monsters[index]
    gold = uniform(move_rng(REPLAY_STREAM, state.seed, state.moves, "loot", index), monster.gold_min, monster.gold_max)
    kill.xp, kill.gold = monster.xp, gold
    standing = state.standing()
    killer = state.current
    killer.kills += 1
    shares: list[Share] = []
    for member in standing:
        xp, coins = monster.xp // len(standing), gold // len(standing)
        if member is killer:
            xp += monster.xp % len(standing)
            coins += gold % len(standing)
        member.xp_gained += xp
        member.gold_gained += coins
        shares.append(Share(member=member.fighter.name, xp=xp, gold=coins))
    events.append(ShareEvent(monster=monster.name, xp=monster.xp, gold=gold, shares=shares))


def _target(state: PartyState, monster: int, rng: random.Random) -> PartyMember:
    """The standing member a monster attacks: the one who dealt it the most damage; among equals (everyone
    standing before any damage) one drawn, only when there is a choice."""
    standing = state.standing()
    most = max(m.damage[monster] for m in standing)
    candidates = [m for m in standing if m.damage[monster] == most]
    if len(candidates) == 1:
        return candidates[0]
    return candidates[int(rng.random() * len(candidates))]


def _monsters_turn(state: PartyState, rng: random.Random, events: list[PartyEvent]) -> None:
    events.append(PartyTurnEvent(round=state.round))
    for index, monster in enumerate(state.monsters):
        if not monster.alive:
            continue
        for _ in range(monster.ap // monster.attack_cost):
            target = _target(state, index, rng)
            attack = roll_attack(monster, target.fighter, state.round, rng)
            events.append(attack)
            state.hurt_this_round |= attack.damage > 0
            if not target.fighter.alive:
                target.status = "knocked_out"
                events.append(KnockOutEvent(member=target.fighter.name))
                _check_end(state, events)
                if state.phase != "playing":
                    return


def _pass_turn(state: PartyState, rng: random.Random, events: list[PartyEvent]) -> None:
    """The turn is over: the next member standing in join order, or, after the last, the monsters' turn and a
    new round."""
    following = _next_standing(state, state.turn)
    if following is not None:
        _start_turn(state, following, events)
        return
    _monsters_turn(state, rng, events)
    if state.phase != "playing":
        return
    state.quiet_rounds = 0 if state.hurt_this_round else state.quiet_rounds + 1
    state.hurt_this_round = False
    if state.quiet_rounds >= QUIET_ROUNDS_FOR_DRAW:
        _finish(state, "draw", events)
        return
    state.round += 1
    _start_turn(state, _next_standing(state, -1), events)


def _next_standing(state: PartyState, after: int) -> int | None:
    return next((i for i in range(after + 1, len(state.members)) if state.members[i].standing), None)


def _start_turn(state: PartyState, index: int | None, events: list[PartyEvent]) -> None:
    if index is None:  # only after a check that someone stands
        raise RuleInputError("nobody is standing")
    state.turn = index
    state.ap_left = state.current.fighter.ap
    if not state.monsters[state.target].alive:
        state.target = next(i for i, m in enumerate(state.monsters) if m.alive)
    events.append(PartyTurnEvent(round=state.round, member=state.current.fighter.name, ap=state.ap_left))


def _check_end(state: PartyState, events: list[PartyEvent]) -> None:
    """All monsters dead: won; nobody standing: lost when any member was knocked out, else fled."""
    if not any(m.alive for m in state.monsters):
        _finish(state, "won", events)
    elif not state.standing():
        knocked_out = any(m.status == "knocked_out" for m in state.members)
        _finish(state, "lost" if knocked_out else "fled", events)


def _finish(state: PartyState, result: Literal["won", "lost", "fled", "draw"], events: list[PartyEvent]) -> None:
    state.phase = result
    events.append(PartyEndEvent(round=state.round, result=result))


def _remember(state: PartyState, events: Sequence[PartyEvent]) -> None:
    state.feed = (list(state.feed) + list(events))[-FEED_LENGTH:]


def renamed(state: PartyState, user_id: int, new_id: int, new_name: str) -> PartyState:
    """A copy in which member `user_id` is `new_id` called `new_name`, in the members and in every event line (a
    member who erased their data stays in the others' fight as "a former member")."""
    new = state.model_copy(deep=True)
    old_names = {m.fighter.name for m in new.members if m.user_id == user_id}
    for member in new.members:
        if member.user_id == user_id:
            member.user_id, member.fighter.name = new_id, new_name

    def name(text: str) -> str:
        return new_name if text in old_names else text

    for event in new.feed:
        if isinstance(event, AttackEvent):
            event.attacker, event.target = name(event.attacker), name(event.target)
        elif isinstance(event, ShareEvent):
            for share in event.shares:
                share.member = name(share.member)
        elif isinstance(event, PartyTurnEvent):
            event.member = None if event.member is None else name(event.member)
        elif isinstance(event, DrinkEvent | FleeTryEvent | KnockOutEvent | TimeoutEvent | LeaveEvent):
            event.member = name(event.member)
    return new
