"""Winrates, duels and the Monte-Carlo deck optimization (docs/rules/deck.md, "The optimization";
RULINGS 5 and 6).

The optimization is the document's procedure against a fixed opponent deck: player 1 starts from a random
legal deck (the reference) and its winrate over `games` games. Each iteration swaps one card of the
reference deck (a random position) for a different random card of the set list that would not make a
third copy, plays `games` new games with that deck, and keeps it only if its winrate is strictly higher.
The reference winrate is recorded after every iteration: it is the best measurement so far, and being the
maximum of many noisy measurements it overstates the kept deck (by about 2 points at the defaults, and
100% after any win with one game per iteration).

So the reported winrates are measured afresh (RULINGS 6): after the run, cancelled or not, the starting
deck and the final deck each play `fresh_games(games)` = max(10 x games, 10,000) new games against the
opponent on `fresh_seed(seed)`, a seed derived from the run's, and are shown with Wilson's 95% interval.
Both decks use that one seed, so an unchanged deck measures exactly the same. These games count in the
work limit (`check_work`) and in the progress.

The run's result is the better of the two on those fresh games (RULINGS 7): a search that wandered onto a
worse deck (noise at few games per iteration) returns the start deck, never the worse one. `Verdict` says
how the two compare, and `verdict_note` says it in words, the same for the bot and the command line: when
the two 95% intervals overlap, the settings were too noisy to tell the decks apart.

Every batch of games gets its own seed drawn from the run's `random.Random(seed)`, so a run is replayed
exactly from its seed. The games themselves are played by the fast path (`rules.deck.fast`); the loop over
iterations stays in Python, one batch per iteration, so progress and cancellation are checked between
batches while the batches run without the GIL.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from rules.deck.cards import ALL_KEYWORDS, DECK_SIZE, MAX_COPIES, Card, Deck, Keyword, random_deck, set_list
from rules.deck.game import SplitMix64
from rules.errors import RuleInputError
from rules.stats import wilson_interval
from rules.text import plural

DEFAULT_ITERATIONS = 1000
DEFAULT_GAMES = 1000
MAX_ITERATIONS = 1_000_000
MAX_GAMES = 10_000_000
MAX_TOTAL_GAMES = 2_000_000_000  # about an hour of work; the bot sets a much lower cap of its own
SEED_LIMIT = 2**63  # seeds are 0 .. 2**63 - 1
FRESH_GAMES_FACTOR = 10  # the fresh measurement after a run: at least 10 x the games per iteration ...
MIN_FRESH_GAMES = 10_000  # ... and at least this many, for each of the two decks


def fresh_games(games: int) -> int:
    """Games each of the start and final decks plays in the fresh measurement after a run."""
    return max(FRESH_GAMES_FACTOR * games, MIN_FRESH_GAMES)


def fresh_seed(run_seed: int) -> int:
    """The fresh measurement's seed: the first output of SplitMix64 from the run's seed. The run's own
    batches take their seeds from random.Random(run_seed), so these games are new ones."""
    return SplitMix64(run_seed).next64()


def check_games(games: int) -> None:
    if not 1 <= games <= MAX_GAMES:
        raise RuleInputError(f"games must be between 1 and {MAX_GAMES:,}; got {games:,}")


def check_work(iterations: int, games: int, max_total: int = MAX_TOTAL_GAMES) -> None:
    """Refuse absurd sizes before any work, with the limit in the message. The fresh measurement of the
    start and final decks after the run counts too."""
    check_games(games)
    if not 1 <= iterations <= MAX_ITERATIONS:
        raise RuleInputError(f"iterations must be between 1 and {MAX_ITERATIONS:,}; got {iterations:,}")
    search = iterations * games
    fresh = fresh_games(games)
    total = search + 2 * fresh
    if total > max_total:
        raise RuleInputError(
            f"iterations x games = {iterations:,} x {games:,} = {search:,} games, plus 2 x {fresh:,} to measure "
            f"the start and final decks afresh: {total:,} games; the limit is {max_total:,}"
        )


def check_seed(seed: int) -> int:
    if not 0 <= seed < SEED_LIMIT:
        raise RuleInputError(f"the seed must be a whole number from 0 to {SEED_LIMIT - 1}; got {seed}")
    return seed


@dataclass(frozen=True)
class Score:
    """Player 1's results over a number of games, with Wilson's 95% interval for the winrate."""

    wins: int
    losses: int
    ties: int

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.ties

    @property
    def winrate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


def score(deck_1: Deck, deck_2: Deck, games: int, seed: int) -> Score:
    """Player 1 (deck_1) against deck_2 over `games` fast-path games."""
    check_games(games)
    from rules.deck.fast import batch_results, encode_deck  # numba loads on the first game, not on import

    wins, losses, ties = batch_results(encode_deck(deck_1.cards), encode_deck(deck_2.cards), games, seed)
    return Score(wins, losses, ties)


@dataclass(frozen=True)
class DuelResult:
    deck_a: Deck
    deck_b: Deck
    seed: int
    score: Score


def duel(deck_a: Deck, deck_b: Deck, games: int, seed: int) -> DuelResult:
    """Deck A as player 1 against deck B; half the games each side starts."""
    check_seed(seed)
    return DuelResult(deck_a, deck_b, seed, score(deck_a, deck_b, games, seed))


@dataclass(frozen=True)
class Swap:
    """An accepted iteration: the card that left the reference deck, the one that came in, the new winrate."""

    iteration: int  # 1-based
    removed: Card
    added: Card
    winrate: float


@dataclass(frozen=True)
class Progress:
    iteration: int  # iterations done
    iterations: int
    start_winrate: float  # the run's first measurement of the start deck (`games` games)
    best_winrate: float  # the best measurement so far
    accepted: int
    games_done: int  # the iterations' games and the fresh measurement's alike
    games_total: int  # as planned; once measuring, what the run really plays (fewer when it was cancelled)
    measuring: bool = False  # the iterations are over; the start and final decks are being measured afresh

    @property
    def fraction(self) -> float:
        return self.games_done / self.games_total


@dataclass(frozen=True)
class OptimizeSettings:
    iterations: int = DEFAULT_ITERATIONS
    games: int = DEFAULT_GAMES
    seed: int = 0
    keywords: frozenset[Keyword] = ALL_KEYWORDS
    opponent: Deck | None = None  # None: a random deck from the seed
    max_total_games: int = MAX_TOTAL_GAMES

    def __post_init__(self):
        object.__setattr__(self, "keywords", frozenset(self.keywords))
        check_work(self.iterations, self.games, self.max_total_games)
        check_seed(self.seed)
        if self.opponent is not None:
            off = self.opponent.keywords() - self.keywords
            if off:
                names = ", ".join(sorted(k.title for k in off))
                raise RuleInputError(f"the opponent deck uses {names}, switched off for this run")


class Verdict(StrEnum):
    """How the final deck (the best found) compares with the start deck on the fresh games."""

    IMPROVED = "improved"  # better, and the two 95% intervals are apart: the final deck is the result
    TOO_NOISY = "too noisy"  # the decks differ but their 95% intervals overlap: the better measured is the result
    WORSE = "worse"  # worse, and the intervals are apart: the start deck is the result
    UNCHANGED = "unchanged"  # the search ended on the start deck itself


@dataclass(frozen=True)
class FreshMeasurement:
    """The start and final decks measured afresh after a run: the same number of new games each, on `seed`."""

    seed: int
    start: Score
    final: Score

    @property
    def games(self) -> int:
        """Games of each deck."""
        return self.start.games

    @property
    def intervals_overlap(self) -> bool:
        """Whether the difference is inside the two 95% intervals, too small to tell the decks apart."""
        (start_low, start_high), (final_low, final_high) = self.start.interval, self.final.interval
        return start_low <= final_high and final_low <= start_high


@dataclass(frozen=True)
class OptimizeResult:
    settings: OptimizeSettings
    opponent: Deck
    start: Deck
    start_winrate: float  # the run's first measurement of the start deck: iteration 0 of the curve
    best: Deck
    best_winrate: float  # the best measurement so far, biased high: report `fresh` instead
    curve: tuple[float, ...]  # the best measurement so far (the reference winrate) after each iteration done
    accepted: tuple[Swap, ...]
    cancelled: bool
    set_list_size: int
    fresh: FreshMeasurement  # the winrates to report

    @property
    def iterations_done(self) -> int:
        return len(self.curve)

    @property
    def verdict(self) -> Verdict:
        if self.best == self.start:
            return Verdict.UNCHANGED
        if self.fresh.intervals_overlap:
            return Verdict.TOO_NOISY
        return Verdict.IMPROVED if self.fresh.final.winrate > self.fresh.start.winrate else Verdict.WORSE

    @property
    def kept_start(self) -> bool:
        """Whether the result is the start deck: the final deck did not measure better on the fresh games."""
        return self.fresh.final.winrate <= self.fresh.start.winrate

    @property
    def deck(self) -> Deck:
        """The run's result: the better of the start and final decks on the same fresh games (RULINGS 7)."""
        return self.start if self.kept_start else self.best

    @property
    def deck_score(self) -> Score:
        """The result's fresh measurement."""
        return self.fresh.start if self.kept_start else self.fresh.final

    @property
    def games_played(self) -> int:
        return (self.iterations_done + 1) * self.settings.games + 2 * self.fresh.games


def propose_swap(deck: np.ndarray, pool_size: int, rng: random.Random) -> tuple[int, int]:
    """(position, new card id): a random position of the deck and a different card that stays legal."""
    position = rng.randrange(DECK_SIZE)
    removed = int(deck[position])
    cards = deck.tolist()  # as Python ints, in one call; counting a card in them beats a Counter of all 30
    while True:  # at least 136 cards in any set list; at most 15 are full, so this ends fast
        card = rng.randrange(pool_size)
        if card != removed and cards.count(card) < MAX_COPIES:
            return position, card


@dataclass(frozen=True)
class Checkpoint:
    """Where a run's iterations stand, as plain numbers: with the run's settings, `Search(settings, checkpoint)`
    goes on from it exactly as the run would have gone on (the same swaps tried, the same batch seeds), so a run
    stopped and resumed ends with the result of one never stopped."""

    iterations_done: int
    start_wins: int  # the start deck's wins in the run's first measurement
    reference: tuple[int, ...]  # the reference deck (the best so far), as positions in the set list
    accepted: tuple[tuple[int, int, int, int], ...]  # each swap kept: (iteration, removed, added position, wins)
    random_state: tuple[int, ...]  # the run's random.Random after those iterations (the words of its getstate())


_RANDOM_VERSION = 3  # random.Random.getstate()'s format: (3, 625 words, the gauss cache, which the run never fills)


class Search:
    """A run's iterations, one `step` at a time, from its start or from a checkpoint, then its fresh
    measurement (`result`). The opponent and the start deck are drawn from the seed again on a resume, before
    the generator is set to the checkpoint's state: the draws the run made, made again."""

    def __init__(self, settings: OptimizeSettings, resume_from: Checkpoint | None = None):
        from rules.deck.fast import encode_deck  # numba loads on the first run, not on import

        self.settings = settings
        self.rng = random.Random(settings.seed)
        self.pool = set_list(settings.keywords)
        self.opponent = settings.opponent if settings.opponent is not None else random_deck(self.pool, self.rng)
        self.start = random_deck(self.pool, self.rng)
        self.pool_codes = encode_deck(self.pool)
        self.opponent_codes = encode_deck(self.opponent.cards)
        if resume_from is None:
            position_of = {card: i for i, card in enumerate(self.pool)}
            self.reference = np.array([position_of[c] for c in self.start.cards], dtype=np.int64)
            self.start_wins = self._wins(self.reference)
            self.accepted: list[tuple[int, int, int, int]] = []
            self.iterations_done = 0
        else:
            self._check(resume_from)
            self.rng.setstate((_RANDOM_VERSION, resume_from.random_state, None))
            self.reference = np.array(resume_from.reference, dtype=np.int64)
            self.start_wins = resume_from.start_wins
            self.accepted = list(resume_from.accepted)
            self.iterations_done = resume_from.iterations_done
        self.best_wins = self.accepted[-1][3] if self.accepted else self.start_wins

    def _check(self, checkpoint: Checkpoint) -> None:
        if not (
            0 <= checkpoint.iterations_done <= self.settings.iterations
            and len(checkpoint.reference) == DECK_SIZE
            and all(0 <= p < len(self.pool) for p in checkpoint.reference)
            and len(checkpoint.random_state) == 625
        ):
            raise RuleInputError("the checkpoint does not belong to a run with these settings")

    def _wins(self, deck: np.ndarray) -> int:
        """Wins of a deck given as positions in the pool, over `games` games on the run's next batch seed."""
        from rules.deck.fast import batch_results

        wins, _, _ = batch_results(
            self.pool_codes[deck], self.opponent_codes, self.settings.games, self.rng.getrandbits(64)
        )
        return wins

    @property
    def done(self) -> bool:
        return self.iterations_done == self.settings.iterations

    def step(self) -> None:
        """One iteration: a swap tried on `games` new games, kept if it won strictly more."""
        iteration = self.iterations_done + 1
        position, card = propose_swap(self.reference, len(self.pool), self.rng)
        candidate = self.reference.copy()
        candidate[position] = card
        wins = self._wins(candidate)
        if wins > self.best_wins:
            self.accepted.append((iteration, int(self.reference[position]), card, wins))
            self.reference, self.best_wins = candidate, wins
        self.iterations_done = iteration

    def checkpoint(self) -> Checkpoint:
        version, words, gauss = self.rng.getstate()
        assert version == _RANDOM_VERSION and gauss is None
        return Checkpoint(
            self.iterations_done,
            self.start_wins,
            tuple(int(p) for p in self.reference),
            tuple(self.accepted),
            words,
        )

    def progress(self, games_done: int, games_total: int, measuring: bool = False) -> Progress:
        games = self.settings.games
        return Progress(
            self.iterations_done,
            self.settings.iterations,
            self.start_wins / games,
            self.best_wins / games,
            len(self.accepted),
            games_done,
            games_total,
            measuring,
        )

    def run(
        self,
        progress: Callable[[Progress], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        after_each: Callable[[Search], None] | None = None,
    ) -> bool:
        """The iterations left, until the last or until `cancelled()` turns true (then True). `progress`, and
        `after_each` (given the search: to take a `checkpoint()` when the caller wants one), are called after
        every one."""
        games, per_deck = self.settings.games, fresh_games(self.settings.games)
        total = (self.settings.iterations + 1) * games + 2 * per_deck
        while not self.done:
            if cancelled is not None and cancelled():
                return True
            self.step()
            if progress is not None:
                progress(self.progress((self.iterations_done + 1) * games, total))
            if after_each is not None:
                after_each(self)
        return False

    def curve(self) -> tuple[float, ...]:
        """The best measurement so far after each iteration done: the start deck's until the first swap kept,
        then each swap's from its iteration on."""
        games = self.settings.games
        curve: list[float] = []
        wins = self.start_wins
        kept = iter(self.accepted)
        swap = next(kept, None)
        for iteration in range(1, self.iterations_done + 1):
            if swap is not None and swap[0] == iteration:
                wins = swap[3]
                swap = next(kept, None)
            curve.append(wins / games)
        return tuple(curve)

    def result(self, progress: Callable[[Progress], None] | None = None, cancelled: bool = False) -> OptimizeResult:
        """The start and final decks measured afresh, and the run's result."""
        from rules.deck.fast import batch_results, encode_deck

        settings, pool = self.settings, self.pool
        per_deck = fresh_games(settings.games)
        best = Deck(tuple(pool[int(i)] for i in self.reference))
        searched = (self.iterations_done + 1) * settings.games
        total = searched + 2 * per_deck
        seed = fresh_seed(settings.seed)
        scores: list[Score] = []
        for deck in (self.start, best):  # as Decks (cards in cost order): the games of score(deck, opponent, ...)
            if progress is not None:
                progress(self.progress(searched + len(scores) * per_deck, total, measuring=True))
            scores.append(Score(*batch_results(encode_deck(deck.cards), self.opponent_codes, per_deck, seed)))
        if progress is not None:
            progress(self.progress(total, total, measuring=True))
        return OptimizeResult(
            settings=settings,
            opponent=self.opponent,
            start=self.start,
            start_winrate=self.start_wins / settings.games,
            best=best,
            best_winrate=self.best_wins / settings.games,
            curve=self.curve(),
            accepted=tuple(
                Swap(iteration, pool[removed], pool[added], wins / settings.games)
                for iteration, removed, added, wins in self.accepted
            ),
            cancelled=cancelled,
            set_list_size=len(pool),
            fresh=FreshMeasurement(seed, *scores),
        )


def optimize(
    settings: OptimizeSettings,
    progress: Callable[[Progress], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> OptimizeResult:
    """Run the Monte-Carlo optimization, then measure the start and final decks afresh. `progress` is called
    after every iteration and at each step of the measurement (keep it cheap); when `cancelled()` turns true
    the iterations stop, and the run measures what it has and returns it, marked cancelled."""
    search = Search(settings)
    stopped = search.run(progress, cancelled)
    return search.result(progress, cancelled=stopped)


def measurement_margin(result: OptimizeResult) -> float:
    """Half the 95% interval of one measurement of the run (`games` games at the start deck's winrate): how far
    chance alone moves the numbers the search compares."""
    games = result.settings.games
    low, high = wilson_interval(round(result.fresh.start.winrate * games), games)
    return (high - low) / 2


def verdict_note(result: OptimizeResult) -> str:
    """Which deck is the result and why, in plain text: what the numbers alone do not tell."""
    verdict = result.verdict
    games = result.settings.games
    margin = (
        f"a measurement of {plural(games, 'game')} is only good to about ±{100 * measurement_margin(result):.1f} points"
    )
    if verdict is Verdict.UNCHANGED:
        return "No swap was kept: the result is the start deck."
    if verdict is Verdict.TOO_NOISY:
        if not result.kept_start:
            which = "the final deck, which measured higher"
        elif result.fresh.start.winrate > result.fresh.final.winrate:
            which = "the start deck, which measured higher"
        else:
            which = "the start deck (both measured the same)"
        return (
            "Too noisy to tell the decks apart: the start and final decks' 95% intervals overlap, so the "
            f"difference may be chance. The result is {which}. With these settings {margin}; more games "
            "per iteration measure finer."
        )
    if verdict is Verdict.WORSE:
        return (
            "The final deck measured worse than the start deck on the same fresh games, so the result is the "
            f"start deck. The search kept swaps on noise: {margin}, too noisy to optimize on; use more games "
            "per iteration."
        )
    return "The final deck measured better than the start deck beyond both 95% intervals: it is the result."


def keywords_without(switched_off: Iterable[Keyword]) -> frozenset[Keyword]:
    return ALL_KEYWORDS - frozenset(switched_off)
