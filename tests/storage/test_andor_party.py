"""Andor party fights in storage, on both backends: the sign-up, the versioned saves, each member settled once
as their part ends, a deleted channel, and the refusals of a member who fights already."""

from __future__ import annotations

import pytest

from rules.andor.bestiary import builtin_monsters
from rules.andor.engine import start_fight
from rules.andor.models import Character
from rules.andor.party import ATTACK, END_TURN, legal_actions, remove, start_party
from rules.andor.party import applied as party_applied
from rules.andor.party import replay_rng as party_rng
from storage.andor import AndorRepository, InAnotherFight
from storage.andor_party import PartyRepository, PartyStatus, SignupClosed, characters_of
from storage.member_data import MemberDataRepository
from storage.versioned import StaleUpdate

GUILD, CHANNEL = 10, 20
WOLF = next(m for m in builtin_monsters() if m.name == "Wolf")
ANN, BEN, CID, DAN, EVE = (1, "Ann"), (2, "Ben"), (3, "Cid"), (4, "Dan"), (5, "Eve")


async def opened(repo: PartyRepository):
    party = await repo.open(GUILD, CHANNEL, ANN, WOLF, 2, 59, False, deadline=1_000.0)
    return await repo.join(party.id, BEN)


async def test_sign_up_join_leave_and_the_limits(database):
    repo = PartyRepository(database)
    party = await opened(repo)
    assert (party.status, [m.name for m in party.members], party.version) == (PartyStatus.SIGNUP, ["Ann", "Ben"], 1)
    assert party.deadline == 1_000.0
    with pytest.raises(InAnotherFight) as elsewhere:
        await repo.open(GUILD, CHANNEL + 1, BEN, WOLF, 1, 1, False, deadline=1.0)
    assert (elsewhere.value.where.channel_id, elsewhere.value.where.party) == (CHANNEL, True)
    with pytest.raises(InAnotherFight):  # nor a fight alone
        await AndorRepository(database).start_fight(GUILD, CHANNEL, BEN[0], 1, start_fight(Character(), WOLF)[0])
    for user in (CID, DAN):
        party = await repo.join(party.id, user)
    with pytest.raises(SignupClosed, match="full"):
        await repo.join(party.id, EVE)
    party = await repo.leave(party.id, DAN[0])
    assert [m.position for m in party.members] == [0, 1, 2]
    assert await repo.elsewhere(GUILD, DAN[0]) is None
    closed = await repo.leave(party.id, ANN[0])  # the opener's leave closes the sign-up
    assert closed.status == PartyStatus.LAPSED and not any(m.in_fight for m in closed.members)
    assert await repo.elsewhere(GUILD, BEN[0]) is None
    with pytest.raises(SignupClosed):
        await repo.join(party.id, DAN)


async def test_a_fight_is_saved_versioned_and_each_member_settled_once(database):
    repo = PartyRepository(database)
    party = await repo.join((await opened(repo)).id, CID)
    characters = characters_of(party, [None, None, Character(base_hp=3, xp=10)])
    state = start_party(characters, WOLF, 2, seed=59)
    party = await repo.start(party, state, deadline=2_000.0)
    assert (party.status, party.deadline, party.state) == (PartyStatus.LIVE, 2_000.0, state)
    with pytest.raises(StaleUpdate):
        await repo.start(party, state, deadline=1.0)
    removed, _ = party_applied(state, remove(2), party_rng(state))
    before = party
    party = await repo.save(party, removed, deadline=3_000.0)
    assert [m.in_fight for m in party.members] == [True, True, False]
    assert party.members[2].xp_change == 0  # fled: nothing gained, nothing lost
    with pytest.raises(StaleUpdate):
        await repo.save(before, removed, deadline=3_000.0)
    state = removed
    while state.phase == "playing":
        action = ATTACK if ATTACK in legal_actions(state, state.turn) else END_TURN
        state, _ = party_applied(state, action, party_rng(state))
        party = await repo.save(party, state, deadline=3_000.0)
    assert party.status.value == state.phase
    ann = await AndorRepository(database).character(GUILD, ANN[0])
    assert ann is not None and ann.xp == state.members[0].xp_gained
    assert [m.xp_change for m in party.members] == [state.members[0].xp_gained, state.members[1].xp_gained, 0]
    assert await repo.open_parties() == []


async def test_a_deleted_channel_ends_the_fight_as_fled_and_closes_sign_ups(database):
    repo = PartyRepository(database)
    party = await opened(repo)
    state = start_party(characters_of(party, [None, None]), WOLF, 1, seed=1)
    party = await repo.start(party, state, deadline=1.0)
    other = await repo.open(GUILD, CHANNEL, CID, WOLF, 1, 1, False, deadline=1.0)
    ended = await repo.end_channel(CHANNEL)
    assert [(p.id, p.status) for p in ended] == [(party.id, PartyStatus.FLED), (other.id, PartyStatus.LAPSED)]
    assert all(not m.in_fight for p in ended for m in p.members)


async def test_my_data_and_forget_me_cover_party_fights(database):
    repo = PartyRepository(database)
    party = await opened(repo)
    members = MemberDataRepository(database)
    assert (await members.live_games(GUILD, BEN[0])).of("andor_parties") == 1
    state = start_party(characters_of(party, [None, None]), WOLF, 1, seed=1)
    party = await repo.start(party, state, deadline=1.0)
    state = party_applied(state, remove(1), party_rng(state))[0]
    ended = await repo.save(party, state, 1.0)
    ended = await repo.save(ended, party_applied(state, remove(0), party_rng(state))[0], 1.0)
    assert ended.status == PartyStatus.FLED
    data = await members.export(GUILD, BEN[0])
    assert [label for label, _ in data.counts()] == ["Andor character", "Andor party fights"]
    await members.forget(GUILD, BEN[0], data.fingerprint)
    assert (await members.export(GUILD, BEN[0])).empty
    after = await repo.party(party.id)
    assert after is not None and after.state is not None
    assert [m.fighter.name for m in after.state.members] == ["Ann", "a former member"]
    assert [m.user_id for m in after.state.members] == [ANN[0], 0]
    assert "Ben" not in after.state.model_dump_json()
