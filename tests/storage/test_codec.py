"""The one codec of stored game state: the version beside the game's fields, the upgrades, the refusals."""

from __future__ import annotations

import json

import pytest

from rules.andor.engine import start_fight
from rules.andor.models import Character, Monster
from rules.mma.engine import new_game
from storage.andor import FIGHT_STATE
from storage.codec import DamagedState, StateCodec
from storage.mma import MATCH_STATE


def test_an_mma_match_is_stored_with_its_version_and_reads_back_equal():
    state, _ = new_game(2)
    text = MATCH_STATE.to_text(state)
    data = json.loads(text)
    assert data == {"version": 3, **state.to_dict()} and "resume" not in data
    assert MATCH_STATE.from_text(text) == state


def test_an_mma_match_stored_by_the_previous_release_still_loads():
    # Version 1 rows carry `resume`, always the main phase (the release before that required it); so do the
    # unversioned rows written before the codec.
    state, _ = new_game(2)
    version_1 = {"version": 1, **state.to_dict(), "resume": "main"}
    assert MATCH_STATE.from_text(json.dumps(version_1), 5) == state
    assert MATCH_STATE.from_text(json.dumps({**state.to_dict(), "resume": "main"})) == state


@pytest.mark.parametrize("version", [0, 4, 99, "1"])
def test_a_state_of_a_version_the_codec_does_not_know_is_refused_as_damaged(version):
    state, _ = new_game(2)
    data = json.loads(MATCH_STATE.to_text(state))
    data["version"] = version
    with pytest.raises(DamagedState, match="saved MMA match 7 is damaged") as caught:
        MATCH_STATE.from_text(json.dumps(data), 7)
    assert (caught.value.what, caught.value.key) == ("MMA match", 7)


def test_an_andor_fight_stored_before_states_carried_a_version_reads_as_version_1():
    state, _ = start_fight(Character(), Monster(name="Rat", hp=5, xp=1), seed=4)
    unversioned = state.model_dump_json()  # every fight row written before the codec
    assert FIGHT_STATE.from_text(unversioned) == state
    assert json.loads(FIGHT_STATE.to_text(state))["version"] == 1


def test_the_upgrades_run_in_order_from_the_stored_version_to_the_current_one():
    codec = StateCodec(
        "test state",
        3,
        dump=lambda state: {"value": state},
        load=lambda data: data["value"],
        upgrades={1: lambda d: {"value": d["old"] * 10}, 2: lambda d: {"value": d["value"] + 1}},
    )
    assert codec.from_text('{"old": 4}') == 41  # no version: version 1, two upgrades
    assert codec.from_text('{"version": 2, "value": 4}') == 5
    assert codec.from_text(codec.to_text(7)) == 7
    assert codec.from_bytes(codec.to_bytes(7)) == 7
    with pytest.raises(DamagedState, match="saved test state None is damaged"):
        codec.from_text("[1, 2]")
    with pytest.raises(DamagedState, match=r"saved test state 3 is damaged \(zlib: "):
        codec.from_bytes(b"not zlib", 3)
