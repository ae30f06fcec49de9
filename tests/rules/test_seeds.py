"""Fresh seeds: what every game shows with an unseeded result so it can be replayed."""

from __future__ import annotations

from rules.seeds import MAX_SEED, new_seed, seed_or_new


def test_fresh_seeds_fit_every_engine_and_discord_option_and_differ():
    seeds = [new_seed() for _ in range(2000)]
    assert all(0 <= seed <= MAX_SEED for seed in seeds)
    assert len(set(seeds)) > 1990  # 31 random bits: a repeat among 2000 is rare, a stuck source is not
    assert max(seeds) > MAX_SEED // 2  # the top bit of the 31 is drawn too


def test_a_given_seed_is_kept():
    assert seed_or_new(0) == 0
    assert seed_or_new(MAX_SEED) == MAX_SEED


def test_the_replay_stream_of_each_game_is_the_derivation_its_stored_games_were_played_with():
    import random

    from rules.seeds import ReplayStream, move_rng

    mma = move_rng(ReplayStream.NUMERIC, 12, 7).random()
    assert mma == random.Random(12 * 1_000_003 + 7).random()
    assert move_rng(ReplayStream.TEXT, 12, 7).random() == random.Random("12:7").random()
    assert move_rng(ReplayStream.TEXT, 12, 7, "loot", 2).random() == random.Random("12:7:loot:2").random()
