"""The fast path's choice of one thread or all for a batch (`rules.deck.fast.ThreadChoice`): the faster for
its size, the other tried now and then; the results never depend on it. And the costs it plays."""

from __future__ import annotations

import random

import numba
import pytest

from rules.deck import fast
from rules.deck.cards import Card, random_deck, set_list


def test_a_batch_size_plays_on_the_faster_thread_count_and_tries_the_other_every_so_often():
    choice = fast.ThreadChoice()
    assert choice.threads(1000, 2) == 2  # each is timed once first
    choice.timed(1000, 2, 0.0004)
    assert choice.threads(1000, 2) == 1
    choice.timed(1000, 1, 0.0003)
    picks = [choice.threads(1000, 2) for _ in range(2 * fast.ThreadChoice.TRY_EVERY)]
    assert picks.count(2) == 2 and picks[29] == picks[61] == 2  # the 32nd and 64th batches of that size
    assert choice.threads(600, 2) == 1  # the same size class (a power of two of games)
    assert choice.threads(20_000, 2) == 2  # a size class of its own starts over
    # the other turns faster: once the median of its last times is lower, it is played from then on
    for _ in range(8):
        choice.timed(1000, 2, 0.0001)
    assert choice.threads(1000, 2) == 2


def test_one_slow_batch_does_not_move_the_choice():
    # a batch whose thread was preempted takes several times the usual: the median of the last times ignores it
    choice = fast.ThreadChoice()
    for _ in range(fast.ThreadChoice.SAMPLES):
        choice.timed(1000, 2, 0.0002)
        choice.timed(1000, 1, 0.0004)
    choice.timed(1000, 2, 0.0100)
    assert choice.threads(1000, 2) == 2


def test_a_caller_on_one_thread_stays_on_one_and_keeps_its_setting():
    choice = fast.ThreadChoice()
    assert [choice.threads(1000, 1) for _ in range(3)] == [1, 1, 1]
    rng = random.Random(6)
    deck_1, deck_2 = (fast.encode_deck(random_deck(set_list(), rng).cards) for _ in range(2))
    everywhere = numba.get_num_threads()
    on_all = [fast.batch_results(deck_1, deck_2, 3000, seed) for seed in range(4)]
    numba.set_num_threads(1)
    try:
        assert [fast.batch_results(deck_1, deck_2, 3000, seed) for seed in range(4)] == on_all
        assert numba.get_num_threads() == 1
    finally:
        numba.set_num_threads(everywhere)
    assert fast.batch_results(deck_1, deck_2, 3000, 0, threads=everywhere) == on_all[0]  # exactly as asked
    numba.set_num_threads(1)
    try:
        assert fast.batch_results(deck_1, deck_2, 3000, 0, threads=2) == on_all[0]
        assert numba.get_num_threads() == 1
    finally:
        numba.set_num_threads(everywhere)
    assert numba.get_num_threads() == everywhere


def test_the_fast_path_refuses_a_card_dearer_than_any_deck_may_hold():
    # its hands count their cards by cost up to MAX_COST, the most a legal deck's card costs
    with pytest.raises(ValueError, match="costs up to 8"):
        fast.encode(Card(16, 16))
    assert fast.encode(Card(8, 8)) == 8 | 8 << 8 | 8 << 24


def test_the_kernels_play_on_tbbs_one_pool_of_threads():
    # one pool for every job thread of the bot (rules/deck/numba_import.py); OpenMP's pools, one per launching
    # thread, made four jobs together 1.5-1.7 times slower than four alone
    rng = random.Random(2)
    deck_1, deck_2 = (fast.encode_deck(random_deck(set_list(), rng).cards) for _ in range(2))
    fast.batch_results(deck_1, deck_2, 1000, 0, threads=numba.get_num_threads())
    assert numba.threading_layer() == "tbb"  # pyright: ignore[reportPrivateImportUsage]
