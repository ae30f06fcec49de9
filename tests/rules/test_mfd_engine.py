"""Marked for Death engine: an exact seeded battle (log and final CSVs), invariants over many seeded
battles checked against a plain one-attack-at-a-time replay, continuing from the final CSVs, and odds."""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest

from rules.contract import Outcome
from rules.errors import RuleInputError
from rules.mfd import engine
from rules.mfd.battle import MIN_LOG_BYTES, continue_battle, generator_from_state, start_battle
from rules.mfd.chart import odds_chart_png
from rules.mfd.engine import (
    MAX_ATTACKS_PER_ROUND,
    MAX_ODDS_ATTACKS,
    NEVER,
    SAFETY_ROUND_LIMIT,
    RoundRecord,
    run_battle,
    simulate_odds,
)
from rules.mfd.log import BattleLog
from rules.mfd.models import BattleState, Buff, Ending, Fighter, Roster, battle_outcome
from rules.mfd.odds import describe_odds
from rules.mfd.roster import final_csv_bound, read_roster, write_roster
from rules.stats import wilson_interval
from tests.rules.test_mfd_roster import DRAGON_CSV

VILLAINS_CSV = """\
Name,XP,BonusHP,BonusToHit,BonusToDefend,AOE
Grunt A,3000,,0.1,,
Grunt B,3000,,0.1,,
Boss,9000,1,0.2,0.1,2
Clone,2000,-1,,,
"""

EXPECTED_LOG = """\
Marked for Death: battle log (seed 1)

Heroes (3), from Heroes.csv:
  Dragon: HP 1, ToHit 99%, ToDefend 42%, AOE 1, TotalXP 14500, OffenseDice 19, DefenseDice 15, bodyguarding no one, linked to Summoner
  Summoner: HP 3, ToHit 61%, ToDefend 44%, AOE 1, TotalXP 4800, OffenseDice 5, DefenseDice 5, bodyguarding no one, linked to Dragon
  Tom: HP 2, ToHit 57%, ToDefend 45%, AOE 1, TotalXP 7001, OffenseDice 8, DefenseDice 8, bodyguarding Summoner, linked to Dragon

Villains (4), from Villains.csv:
  Boss: HP 3, ToHit 50%, ToDefend 40%, AOE 2, TotalXP 9000, OffenseDice 9, DefenseDice 9, bodyguarding no one, linked to no one
  Clone: HP 1, ToHit 30%, ToDefend 30%, AOE 1, TotalXP 2000, OffenseDice 2, DefenseDice 2, bodyguarding no one, linked to no one
  Grunt A: HP 2, ToHit 40%, ToDefend 30%, AOE 1, TotalXP 3000, OffenseDice 3, DefenseDice 3, bodyguarding no one, linked to no one
  Grunt B: HP 2, ToHit 40%, ToDefend 30%, AOE 1, TotalXP 3000, OffenseDice 3, DefenseDice 3, bodyguarding no one, linked to no one

Round 1
  Targets:
    Dragon: Clone
    Summoner: Grunt A
    Tom: Grunt B
    Boss: Summoner (bodyguard Tom steps in), Tom
    Clone: Tom
    Grunt A: Dragon
    Grunt B: Dragon
  Attacks:
    Dragon -> Clone: 18/19 hit (99%), 0/2 blocked (30%): 18 damage, HP 1 -> -17; Clone falls
    Summoner -> Grunt A: 3/5 hit (61%), 1/3 blocked (30%): 2 damage, HP 2 -> 0; Grunt A falls
    Tom -> Grunt B: 4/8 hit (57%), 0/3 blocked (30%): 4 damage, HP 2 -> -2; Grunt B falls
    Boss -> Tom (guarding Summoner): 2/9 hit (50%), 3/8 blocked (45%): 0 damage, HP 2 -> 2
    Boss -> Tom: 6/9 hit (50%), 2/8 blocked (45%): 4 damage, HP 2 -> -2; Tom falls
    Clone -> Tom: skipped, Tom has already fallen
    Grunt A -> Dragon: 1/3 hit (40%), 8/15 blocked (42%): 0 damage, HP 1 -> 1
    Grunt B -> Dragon: 2/3 hit (40%), 5/15 blocked (42%): 0 damage, HP 1 -> 1
  End of round 1. Fallen (4): Clone, Grunt A, Grunt B, Tom
  Heroes standing (2): Dragon 1 HP, Summoner 3 HP
  Villains standing (1): Boss 3 HP

The end: Stopped after round 1 (the round limit); both sides still stand.
Heroes standing: 2
  Dragon: 1 HP
  Summoner: 3 HP
Villains standing: 1
  Boss: 3 HP
Fallen in these rounds: Heroes 1, Villains 3
"""

# Round 2 of the same battle: Summoner has lost Tom's Teamwork (0.12) and 0.1 to exhaustion: 44% -> 22%.
EXPECTED_ROUND_2 = """
Round 2
  Targets:
    Dragon: Boss
    Summoner: Boss
    Boss: Summoner, Dragon
  Attacks:
    Dragon -> Boss: 19/19 hit (99%), 3/9 blocked (30%): 16 damage, HP 3 -> -13; Boss falls
    Summoner -> Boss: skipped, Boss has already fallen
    Boss -> Summoner: 3/9 hit (50%), 1/5 blocked (22%): 2 damage, HP 3 -> 1
    Boss -> Dragon: 7/9 hit (50%), 6/15 blocked (32%): 1 damage, HP 1 -> 0; Dragon falls
      Summoner falls with Dragon (linked), HP 1 -> 0
  End of round 2. Fallen (3): Boss, Dragon, Summoner
  Heroes standing (0): none
  Villains standing (0): none

The end: Draw: both sides fell in round 2.
"""


def dragon_battle():
    return read_roster(DRAGON_CSV, "Heroes.csv", "Heroes"), read_roster(VILLAINS_CSV, "Villains.csv", "Villains")


def test_small_seeded_battle_log_and_final_csvs_exactly():
    battle = start_battle(*dragon_battle(), seed=1, max_rounds=1)
    assert battle.log == EXPECTED_LOG
    # Exhaustion is in the final CSV: BonusToDefend 0.1 -> 0 and 0 -> -0.1; HP is the current HP.
    assert battle.heroes_csv == (
        "Name,XP,BonusXP,BonusHP,BonusToHit,BonusToDefend,AOE,BodyguardFor,LinkedTo,HP,"
        "BuffName,BuffWho,BuffOffense,BuffDefense\n"
        'Dragon,13000,1500,-1,0.9,0,1,,Summoner,1,Mythic,"Dragon,Summoner,Tom",0.06,0.02\n'
        "Summoner,5800,-1000,1,0.15,-0.1,1,,Dragon,3,,,,\n"
    )
    assert battle.villains_csv == (
        "Name,XP,BonusXP,BonusHP,BonusToHit,BonusToDefend,AOE,BodyguardFor,LinkedTo,HP\nBoss,9000,0,1,0.2,0,2,,,3\n"
    )
    assert battle.result.ending is Ending.ROUND_LIMIT
    assert [(c.side, c.name, c.round) for c in battle.result.fallen] == [
        ("Villains", "Clone", 1),
        ("Villains", "Grunt A", 1),
        ("Villains", "Grunt B", 1),
        ("Heroes", "Tom", 1),
    ]


def test_the_same_battle_run_on_and_continued_from_its_state_both_end_in_round_2():
    whole = start_battle(*dragon_battle(), seed=1)
    assert whole.log.endswith(
        EXPECTED_ROUND_2 + "Heroes standing: none\nVillains standing: none\n"
        "Fallen in these rounds: Heroes 3, Villains 4\n"
    )
    first = start_battle(*dragon_battle(), seed=1, max_rounds=1)
    state = BattleState.from_json(first.state.to_json())
    second = continue_battle(state)
    assert EXPECTED_ROUND_2 in second.log
    assert second.log.startswith("Marked for Death: battle log, continued from round 2 (seed 1)")
    assert second.state.ending is Ending.DRAW and second.state.rounds_fought == 2
    assert [c.linked_to for c in second.state.fallen if c.name == "Summoner"] == ["Dragon"]
    assert second.state.fallen == whole.state.fallen


def test_a_battle_gives_the_contracts_outcome_and_stores_its_ending_as_ever():
    first = start_battle(*dragon_battle(), seed=1, max_rounds=1)
    assert (first.result.outcome(), first.state.outcome(), first.state.over) == (None, None, False)
    second = continue_battle(first.state)
    assert second.result.outcome() == second.state.outcome() == Outcome(None, Ending.DRAW)
    assert second.state.over
    assert [battle_outcome(ending) for ending in Ending] == [
        Outcome(0, Ending.HEROES_WIN),
        Outcome(1, Ending.VILLAINS_WIN),
        Outcome(None, Ending.DRAW),
        None,
    ]
    stored = json.loads(second.state.to_json())
    assert list(stored) == ["heroes", "villains", "rounds_fought", "seed", "rng_state", "outcome", "fallen", "history"]
    assert stored["outcome"] == "draw"
    with pytest.raises(RuleInputError, match="the battle is over: Heroes and Villains have no one standing"):
        continue_battle(second.state)


# ---- random rosters using every mechanic, and a plain replay to check the vectorized rounds against ----


def random_rosters(seed: int) -> tuple[Roster, Roster]:
    rnd = random.Random(seed)
    rosters = []
    for side in ("Heroes", "Villains"):
        names = [f"{side[0]}{i}" for i in range(rnd.randint(1, 9))]
        fighters = []
        for name in names:
            others = ["", "", "", *names, "Outsider"]
            buffs = tuple(
                Buff(
                    f"b{k}",
                    tuple(rnd.sample(names, rnd.randint(1, len(names)))),
                    rnd.choice([0, 0.1, 0.3, 0.8]),
                    rnd.choice([0, 0.05, 0.2, 0.7]),
                )
                for k in range(rnd.choice([0, 0, 1, 2]))
            )
            fighters.append(
                Fighter(
                    name=name,
                    xp=rnd.choice([500, 1500, 3000, 7001, 12000]),
                    hp=rnd.choice([1, 2, 2, 3, 4.5]),
                    bonus_to_hit=rnd.choice([0, 0.1, -0.2, 0.9]),
                    bonus_to_defend=rnd.choice([0, 0.2, 0.5, 1.2]),
                    aoe=rnd.choice([1, 1, 1, 2, 3, 12]),
                    bodyguard_for=rnd.choice(others),
                    linked_to=rnd.choice(others),
                    buffs=buffs,
                )
            )
        rosters.append(Roster(side, f"{side}.csv", tuple(fighters)))
    return rosters[0], rosters[1]


def observed_battle(heroes, villains, seed, **kwargs):
    records: list[RoundRecord] = []
    result = run_battle(heroes, villains, np.random.default_rng(seed), observer=records.append, **kwargs)
    return result, records


def replay(record: RoundRecord, rosters) -> tuple[list[int], list[bool], list[float]]:
    """Resolve the record's planned attacks one at a time, as the rules describe them."""
    n = len(record.side)
    fighter = [rosters[record.side[i]].fighters[record.origin[i]] for i in range(n)]
    entry = {(record.side[i], fighter[i].name): i for i in range(n)}
    linked_to = [entry.get((record.side[i], fighter[i].linked_to), -1) for i in range(n)]
    hp = [float(x) for x in record.hp_start]
    death = [NEVER] * n
    skipped = []

    def fall(i: int, at: int) -> None:
        death[i] = at
        for j in range(n):
            if linked_to[j] == i and death[j] == NEVER:
                hp[j] = min(hp[j], 0)
                fall(j, at)

    for s, d in enumerate(record.defender):
        skipped.append(death[d] != NEVER)
        if death[d] != NEVER:
            continue
        hp[d] -= max(0, int(record.hits[s]) - int(record.blocks[s]))
        if hp[d] <= 0:
            fall(d, s)
    return death, skipped, hp


@pytest.mark.parametrize("seed", range(150))
def test_rounds_follow_the_rules(seed):
    heroes, villains = random_rosters(seed)
    rosters = (heroes, villains)
    result, records = observed_battle(heroes, villains, seed)
    fallen_before: set[tuple[int, str]] = set()
    hp_seen: dict[tuple[int, str], float] = {}
    to_defend_seen: dict[tuple[int, str], float] = {}
    for record in records:
        n = len(record.side)
        names = [(int(record.side[i]), rosters[record.side[i]].fighters[record.origin[i]].name) for i in range(n)]
        # Everyone in the round was alive at its start, and no one who fell earlier attacks again.
        assert all(record.hp_start > 0)
        assert not fallen_before & set(names)
        assert set(record.attacker) == set(range(n))
        # The plain replay agrees on every skip, every death (and its moment) and every HP.
        death, skipped, hp = replay(record, rosters)
        assert list(record.death) == death
        assert list(record.skipped) == skipped
        assert list(record.hp_end) == hp
        # HP never rises, within the round or from round to round.
        assert all(record.hp_end <= record.hp_start)
        for i, key in enumerate(names):
            assert hp_seen.get(key, np.inf) >= record.hp_start[i]
            hp_seen[key] = record.hp_end[i]
            # ToDefend never rises: exhaustion lowers it each round and buffs can only be lost.
            assert record.to_defend[i] <= to_defend_seen.get(key, 1.0)
            to_defend_seen[key] = record.to_defend[i]
        # Linked fighters die with their link, at the same attack.
        entry = {key: i for i, key in enumerate(names)}
        for i, (side, _) in enumerate(names):
            link = entry.get((side, rosters[side].fighters[record.origin[i]].linked_to))
            if link is not None and record.death[link] != NEVER:
                assert record.death[i] <= record.death[link] and record.hp_end[i] <= 0
        check_targets(record, rosters, names)
        fallen_before |= {names[i] for i in range(n) if record.death[i] != NEVER}
    assert result.last_round == len(records)
    if result.ending is not Ending.ROUND_LIMIT:
        assert not result.heroes.fighters or not result.villains.fighters


def check_targets(record: RoundRecord, rosters, names):
    n = len(record.side)
    guards: dict[int, list[int]] = {}
    entry = {key: i for i, key in enumerate(names)}
    for i, (side, _name) in enumerate(names):
        protectee = entry.get((side, rosters[side].fighters[record.origin[i]].bodyguard_for))
        if protectee is not None:
            guards.setdefault(protectee, []).append(i)
    for attacker in range(n):
        mine = np.flatnonzero(record.attacker == attacker)
        picked = record.picked[mine]
        opponents = [i for i in range(n) if record.side[i] != record.side[attacker]]
        aoe = rosters[record.side[attacker]].fighters[record.origin[attacker]].aoe
        assert len(picked) == aoe and set(picked) <= set(opponents)
        # AOE distinct opponents; repeats only beyond the number of opponents, spread evenly.
        counts = Counter(picked.tolist())
        assert max(counts.values()) - min(counts.get(o, 0) for o in opponents) <= 1 or len(counts) == aoe
        assert len(counts) == min(aoe, len(opponents))
        # A picked fighter with living bodyguards is never attacked itself: one of them is instead.
        for p, d in zip(picked, record.defender[mine]):
            assert d in guards[p] if p in guards else d == p


def test_exhaustion_lowers_to_defend_by_a_tenth_each_round():
    heroes = Roster("Heroes", "h", tuple(Fighter(f"H{i}", 3000, 40, bonus_to_defend=0.55) for i in range(3)))
    villains = Roster("Villains", "v", tuple(Fighter(f"V{i}", 3000, 40, bonus_to_defend=0.25) for i in range(3)))
    result, records = observed_battle(heroes, villains, 3, max_rounds=8)
    assert len(records) == 8
    for r, record in enumerate(records):
        expected = [min(0.9, max(0.0, round(0.3 + (0.55, 0.25)[s] - 0.1 * r, 9))) for s in record.side]
        assert record.to_defend.tolist() == pytest.approx(expected, abs=1e-12)
    assert {f.bonus_to_defend for f in result.heroes.fighters} == {-0.25}


# Aide's Focus buffs Zed: raw ToHit 0.3 + 0.5 + 0.5 = 1.3 (13 dice of Zed's 10, at 99%), ToDefend 0.3 + 0.2.
# Hero attacks both villains each round, and heroes' attacks resolve first: Aide (1 HP, no defense) falls
# before Zed defends or attacks.
FOCUS_HEROES_CSV = "Name,XP,BonusToHit,AOE,HP\nHero,20000,0.69,2,100\n"
FOCUS_VILLAINS_CSV = """\
Name,XP,BonusHP,BonusToHit,BonusToDefend,BuffName,BuffWho,BuffOffense,BuffDefense
Aide,1000,-1,,-0.3,Focus,Zed,0.5,0.2
Zed,10000,98,0.5,,,,,
"""

# Round 1: Aide falls to the first attack, yet Zed still blocks at 50% and attacks with 13 dice at 99%.
FOCUS_ROUND_1 = """
  Attacks:
    Hero -> Aide: 20/20 hit (99%), 0/1 blocked (0%): 20 damage, HP 1 -> -19; Aide falls
    Hero -> Zed: 20/20 hit (99%), 5/10 blocked (50%): 15 damage, HP 100 -> 85
    Aide -> Hero: 1/1 hit (30%), 2/20 blocked (30%): 0 damage, HP 100 -> 100
    Zed -> Hero: 13/13 hit (99%), 7/20 blocked (30%): 6 damage, HP 100 -> 94
  End of round 1. Fallen (1): Aide
"""
# Round 2 without Focus: 10 dice at 80%, blocks at 20% (30% less a tenth of exhaustion).
FOCUS_ROUND_2 = """
  Attacks:
    Hero -> Zed: 20/20 hit (99%), 2/10 blocked (20%): 18 damage, HP 85 -> 67
    Hero -> Zed: 20/20 hit (99%), 1/10 blocked (20%): 19 damage, HP 67 -> 48
    Zed -> Hero: 9/10 hit (80%), 3/20 blocked (20%): 6 damage, HP 94 -> 88
  End of round 2. Fallen (0): none
"""


def focus_battle():
    return (
        read_roster(FOCUS_HEROES_CSV, "Heroes.csv", "Heroes"),
        read_roster(FOCUS_VILLAINS_CSV, "Villains.csv", "Villains"),
    )


def test_a_buff_lasts_to_the_end_of_the_round_its_provider_falls_in():
    """RULINGS 6: derived stats, buffs included, are fixed at the start of each round."""
    battle = start_battle(*focus_battle(), seed=1, max_rounds=2)
    round_1, round_2 = battle.log.split("\nRound 2\n")
    assert FOCUS_ROUND_1 in round_1
    assert FOCUS_ROUND_2 in round_2


@pytest.mark.parametrize("seed", range(60))
def test_continuing_from_the_final_csvs_equals_running_on(seed):
    """Run k rounds, write the final CSVs, read them back and fight on with the same random stream: the
    later rounds' log text and the final CSVs equal those of one run of all the rounds."""
    heroes, villains = (
        Roster(r.side, r.file, tuple(f._replace(hp=f.hp * 12) for f in r.fighters)) for r in random_rosters(1000 + seed)
    )
    k, more = 1 + seed % 3, 3
    whole = start_battle(heroes, villains, seed=seed, max_rounds=k + more)
    first = start_battle(heroes, villains, seed=seed, max_rounds=k)
    # The bound the bot plans the log's share of a message with holds.
    assert len(whole.heroes_csv.encode()) <= final_csv_bound(heroes)
    assert len(whole.villains_csv.encode()) <= final_csv_bound(villains)
    if first.result.ending is not Ending.ROUND_LIMIT:  # over before round k + 1 (a few seeds)
        assert whole.log.split("\nThe end:")[0] == first.log.split("\nThe end:")[0]
        return
    back = (
        read_roster(first.heroes_csv, "Heroes-final.csv", "Heroes"),
        read_roster(first.villains_csv, "Villains-final.csv", "Villains"),
    )
    assert [r.fighters for r in back] == [first.result.heroes.fighters, first.result.villains.fighters]
    log = BattleLog(*back)
    result = run_battle(
        *back, generator_from_state(first.state.rng_state), max_rounds=more, first_round=k + 1, observer=log.add_round
    )
    rounds_of = lambda text: text[text.index(f"\nRound {k + 1}\n") : text.index("\nThe end:")]  # noqa: E731
    assert rounds_of(log.finish(result)) == rounds_of(whole.log)
    assert write_roster(result.heroes.fighters) == whole.heroes_csv
    assert write_roster(result.villains.fighters) == whole.villains_csv
    # The bot's path (stored state, no CSV) gives the same battle.
    assert continue_battle(first.state, max_rounds=more).state.to_json() == whole.state.to_json()


def test_continue_with_a_replaced_side():
    heroes, villains = dragon_battle()
    first = start_battle(heroes, villains, seed=1, max_rounds=1)
    fresh = read_roster("Name,XP\nReinforcement,20000\n", "Villains.csv", "Villains")
    second = continue_battle(first.state, max_rounds=1, villains=fresh)
    assert "Reinforcement" in second.log and "Boss" not in second.log.split("Round 2")[1]
    assert second.state.rounds_fought == 2


def wall(side: str, size: int = 1, aoe: int = 1) -> Roster:
    """Fighters whose defense no attack gets through for thousands of rounds."""
    return Roster(
        side, side, tuple(Fighter(f"{side[0]}{i}", 1000, 2, bonus_to_defend=1000, aoe=aoe) for i in range(size))
    )


def test_a_battle_that_cannot_end_stops_at_the_safety_limit():
    battle = start_battle(wall("Heroes"), wall("Villains"), seed=0)
    result = battle.result
    assert result.ending is Ending.ROUND_LIMIT and result.last_round == SAFETY_ROUND_LIMIT
    assert result.safety_stop == "the safety limit of 1,000 rounds a run"
    assert (
        "The end: Stopped after round 1000 (the safety limit of 1,000 rounds a run); both sides still stand."
        in battle.log
    )
    assert result.heroes.fighters[0].bonus_to_defend == pytest.approx(1000 - 0.1 * SAFETY_ROUND_LIMIT)
    # A limit the user set is no safety stop.
    assert run_battle(wall("Heroes"), wall("Villains"), np.random.default_rng(0), max_rounds=5).safety_stop == ""


def test_a_run_stops_before_a_round_would_pass_the_attack_limit(monkeypatch):
    monkeypatch.setattr(engine, "MAX_ATTACKS_PER_RUN", 100)
    # 3 + 3 fighters with AOE 2: 12 attacks a round, so 8 rounds (96 attacks) fit and a ninth would not.
    first = start_battle(wall("Heroes", 3, aoe=2), wall("Villains", 3, aoe=2), seed=4)
    assert first.result.last_round == 8 and first.result.ending is Ending.ROUND_LIMIT
    assert first.result.safety_stop == "the safety limit of 100 attacks a run"
    assert "Stopped after round 8 (the safety limit of 100 attacks a run)" in first.log
    # The battle goes on from where the run stopped, each run within the limit.
    second = continue_battle(first.state)
    assert (second.result.first_round, second.result.last_round) == (9, 16)


def test_too_many_attacks_a_round_is_refused_with_the_limit():
    many = Roster("Heroes", "h", tuple(Fighter(f"H{i}", 1000, 2, aoe=1000) for i in range(1001)))
    one = Roster("Villains", "v", (Fighter("V", 1000, 2),))
    with pytest.raises(RuleInputError, match=f"the limit is {MAX_ATTACKS_PER_ROUND:,}"):
        run_battle(many, one, np.random.default_rng(0))


def crowd(name: str, size: int) -> Roster:
    return Roster(name, name, tuple(Fighter(f"{name}{i:04d}", 4000, 3) for i in range(size)))


def test_log_stays_within_its_limit_by_summarizing_rounds():
    heroes, villains = crowd("Heroes", 400), crowd("Villains", 400)
    log = BattleLog(heroes, villains, limit_bytes=60_000)
    text = log.finish(run_battle(heroes, villains, np.random.default_rng(2), observer=log.add_round))
    assert len(text.encode()) <= 60_000
    assert "(summary: the full detail would not fit in the log's 0.1 MiB)" in text
    assert "summarized to keep this log within 0.1 MiB" in text
    assert text.rstrip().splitlines()[-1].startswith(("Fallen in these rounds", "..."))


def test_the_log_and_both_final_csvs_stay_within_the_files_limit_together():
    heroes, villains = crowd("Heroes", 3000), crowd("Villains", 3000)
    limit = MIN_LOG_BYTES + final_csv_bound(heroes) + final_csv_bound(villains) + 1000
    battle = start_battle(heroes, villains, seed=2, files_limit=limit)
    sizes = [len(text.encode()) for text in (battle.log, battle.heroes_csv, battle.villains_csv)]
    assert sum(sizes) <= limit
    assert sizes[0] > MIN_LOG_BYTES // 2 and "(summary: the full detail would not fit" in battle.log
    with pytest.raises(
        RuleInputError,
        match=r"the rosters are too large to send back: their final CSVs can take "
        r"up to 0\.\d MiB of the 0\.\d MiB that the log and both CSVs",
    ):
        start_battle(heroes, villains, seed=2, files_limit=limit - 1001)


def test_odds_count_every_battle_and_are_reproducible():
    heroes, villains = dragon_battle()
    progress: list[tuple[int, int]] = []
    odds = simulate_odds(heroes, villains, 300, seed=9, progress=lambda d, t: progress.append((d, t)))
    assert odds.heroes_wins + odds.villains_wins + odds.draws + odds.unfinished == 300
    assert sum(odds.rounds_histogram.values()) == 300
    assert progress[-1] == (300, 300) and len(progress) >= 10
    assert simulate_odds(heroes, villains, 300, seed=9) == odds
    # Dragon and Summoner are linked both ways: they always survive together.
    survival = dict(zip(odds.hero_names, odds.hero_survivals))
    assert survival["Dragon"] == survival["Summoner"] == odds.heroes_wins
    # With a one-round limit nothing can be a draw by exhaustion of rounds only: unfinished battles appear.
    short = simulate_odds(heroes, villains, 200, seed=9, max_rounds=1)
    assert short.unfinished > 0 and set(short.rounds_histogram) == {1}


def test_odds_too_much_work_is_refused_up_front_or_when_the_battles_run_long(monkeypatch):
    big = Roster("Heroes", "h", tuple(Fighter(f"H{i}", 1000, 2, aoe=1000) for i in range(21)))
    with pytest.raises(
        RuleInputError,
        match="1,000 battles of 21,001 attacks a round make 21,001,000 attacks in "
        f"their first round alone; the limit is {MAX_ODDS_ATTACKS:,}",
    ):
        simulate_odds(big, wall("Villains"), 1000, seed=1)
    monkeypatch.setattr(engine, "MAX_ODDS_ATTACKS", 6000)
    with pytest.raises(
        RuleInputError,
        match="the battles run long: with 0 of 100 finished, the simulation reached "
        "its limit of 6,000 attacks; set a round limit or use fewer battles",
    ):
        simulate_odds(wall("Heroes", 3), wall("Villains", 3), 100, seed=1)
    assert simulate_odds(wall("Heroes", 3), wall("Villains", 3), 100, seed=1, max_rounds=9).unfinished == 100


def test_odds_batches_count_buff_links_so_memory_stays_bounded():
    """40 fighters each buffing all 40 make 1,600 buff links a battle: batches hold fewer battles."""
    names = tuple(f"H{i}" for i in range(40))
    linked = Roster("Heroes", "h", tuple(Fighter(n, 3000, 3, buffs=(Buff("Rally", names, 0.01, 0),)) for n in names))
    batches: list[int] = []
    odds = simulate_odds(
        linked, crowd("Villains", 40), 50, seed=1, batch_size=20_000, progress=lambda done, total: batches.append(done)
    )
    # 40 + 40 fighters, 80 attacks and 1,600 links: 1,760 a battle, 11 battles to a batch of 20,000
    assert batches == [11, 22, 33, 44, 50] and odds.battles == 50


def linked_wall(side: str, size: int) -> Roster:
    """A wall whose fighters each buff the whole side: size x size buff links."""
    names = tuple(f"{side[0]}{i}" for i in range(size))
    return Roster(
        side, side, tuple(Fighter(n, 1000, 2, bonus_to_defend=1000, buffs=(Buff("Wall", names, 0, 0),)) for n in names)
    )


def test_buff_links_count_towards_the_limits_as_attacks_do(monkeypatch):
    """Every round walks every living buff link: rosters naming thousands in BuffWho are bounded by the limits."""
    crowded = linked_wall("Heroes", 200), linked_wall("Villains", 200)
    with pytest.raises(
        RuleInputError,
        match="^1,000 battles of 400 attacks and 80,000 buff links a round make 80,400,000 attacks and buff links in "
        f"their first round alone; the limit is {MAX_ODDS_ATTACKS:,} attacks and buff links in all: use fewer battles$",
    ):
        simulate_odds(*crowded, 1000, seed=1)
    # 10 + 10 fighters: 20 attacks and 200 links a round, so a run of at most 1000 stops after round 4 (880)
    monkeypatch.setattr(engine, "MAX_ATTACKS_PER_RUN", 1000)
    result = run_battle(linked_wall("Heroes", 10), linked_wall("Villains", 10), np.random.default_rng(1))
    assert (result.last_round, result.safety_stop) == (4, "the safety limit of 1,000 attacks and buff links a run")
    monkeypatch.setattr(engine, "MAX_ODDS_ATTACKS", 5000)  # 10 battles: 2,200 a round, past it in round 3
    with pytest.raises(RuleInputError, match="reached its limit of 5,000 attacks and buff links; set a round limit"):
        simulate_odds(linked_wall("Heroes", 10), linked_wall("Villains", 10), 10, seed=1)


def test_odds_walk_each_sides_buff_links_once_however_many_batches(monkeypatch):
    walked: list[str] = []
    side_template = engine._side_template

    def counted(roster: Roster) -> dict[str, np.ndarray]:
        walked.append(roster.side)
        return side_template(roster)

    monkeypatch.setattr(engine, "_side_template", counted)
    odds = simulate_odds(linked_wall("Heroes", 20), crowd("Villains", 20), 100, seed=1, batch_size=2_000)
    assert odds.battles == 100 and walked == ["Heroes", "Villains"]  # 460 a battle: 25 batches of 4 battles


def test_the_odds_text_counts_one_battle_and_one_round_as_one():
    text = describe_odds(simulate_odds(wall("Heroes"), wall("Villains"), 1, seed=1, max_rounds=1))
    assert text.startswith("1 battle (seed 1)\nHeroes win: 0.0% ") and "\nBoth standing after 1 round: 100.0% " in text
    assert describe_odds(simulate_odds(wall("Heroes"), wall("Villains"), 1000, seed=1, max_rounds=1)).startswith(
        "1,000 battles (seed 1)"
    )


def test_odds_agree_with_single_battles():
    """The batched odds and one-by-one battles sample the same distribution (fixed seeds: no flakiness)."""
    heroes, villains = random_rosters(7)
    odds = simulate_odds(heroes, villains, 600, seed=1)
    singles = Counter(run_battle(heroes, villains, np.random.default_rng(s)).ending for s in range(600))
    for ending, count in ((Ending.HEROES_WIN, odds.heroes_wins), (Ending.VILLAINS_WIN, odds.villains_wins)):
        low, high = wilson_interval(singles[ending], 600)
        assert low - 0.05 <= count / 600 <= high + 0.05


def test_the_chart_of_a_certain_outcome():
    heroes, _ = dragon_battle()
    sure = simulate_odds(heroes, Roster("Villains", "v", (Fighter("Rat", 1, 1),)), 10, seed=1)
    assert sure.heroes_wins == 10
    assert odds_chart_png(sure).startswith(b"\x89PNG")
