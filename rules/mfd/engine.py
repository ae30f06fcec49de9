"""The Marked for Death battle engine, vectorized with numpy.

A round, as RULINGS 2 sets it out:
1. Everyone alive at the start of the round attacks. Each fighter's stats for the round (dice and chances)
   come from its own bonuses, the exhaustion so far and the buffs of the fighters of its side alive at the
   start of the round, and are fixed for the round: a buff whose provider falls mid-round lasts to the end
   of that round, as the fallen still make their attacks in it (RULINGS 6).
2. Targets are chosen at the start of the round: AOE distinct random opponents; when AOE exceeds the
   opponents left, everyone is picked AOE // n times and AOE % n more distinct ones at random. An
   attacker's attacks are made in the random order they were picked in. A picked opponent with living
   bodyguards has the attack diverted to one of them at random (one level deep).
3. Attacks resolve heroes first, then villains, each side in name order (see `models.name_order`). The
   attacker rolls OffenseDice percentile dice, each a hit with probability ToHit; the defender rolls
   DefenseDice, each a block with probability ToDefend; the defender loses max(0, hits - blocks) HP.
   An attack on a fighter already dead is skipped. When a fighter dies, everyone linked to it
   (recursively) dies at once (HP set to 0).
4. End of round: the dead are removed, survivors' BonusToDefend drops by 0.1 (exhaustion); the battle
   stops when a side is gone (both: a draw) or at the round limit. HP carries over.

How it is computed, and why it is the same thing:
- Dice: the number of successes among N independent dice that each succeed with probability p is
  Binomial(N, p), so `rng.binomial(N, p)` is statistically identical to rolling the N dice one by one
  (percentile dice are read as real numbers, so a 57.5% ToHit succeeds with probability 0.575).
- The dice of every planned attack are drawn up front, in resolution order; an attack that turns out to
  be skipped discards its dice. Dice are independent, so this changes no probability, and the stream
  stays deterministic for a seed.
- Skips and linked deaths without a sequential loop: a fighter's own death is the first of its attacks,
  in resolution order, at which the damage so far reaches its HP; its death time is the earliest of that
  and the death times of the fighters it is linked to, followed transitively (pointer doubling over the
  LinkedTo links, so cycles such as Dragon <-> Summoner are fine). An attack is skipped when it comes
  after its defender's death time. This is exactly the outcome of resolving attacks one at a time.
- Dice counts are exact (RULINGS 8): every number is the decimal its CSV cell wrote (its shortest repr), so
  base dice are ceil(TotalXP / 1000) in fractions, and a round's raw ToHit and ToDefend are summed as whole
  multiples of the smallest decimal place any of the battle's numbers uses (`_Field.places`). Float noise
  cannot turn 0.3 + 0.7 into "more than 100%", 10 x 1.1 into 12 dice, or 1.0000000001 into 1. Exhaustion
  keeps BonusToDefend to 10 decimal places, so the final CSV shows e.g. -0.09 and reads back as exactly the
  value the engine holds.
- Many battles at once: `simulate_odds` runs a batch of independent copies of a battle as one field of
  fighters (each copy's fighters only meet each other), so the same round code serves one battle and a
  thousand.

Limits, so that no input can tie up the bot's few engine workers (the limits are in the messages):
- At most 1,000,000 planned attacks a round (the sum of AOE over both sides): refused up front.
- A battle run stops, both sides standing, after 1000 rounds or before a round would take it past
  10,000,000 attacks (a few seconds of work), whichever comes first; the log and result say which. With
  enough defense two sides can block each other for thousands of rounds; the stored battle can go on.
- Odds: at most 20,000,000 attacks over all battles. Refused up front when the first rounds alone would
  pass it, else stopped (and refused) when the battles run long. Battles are fought in batches of about
  400,000 fighters, attacks and buff links, so memory stays bounded however many battles are asked for.
- A round's buff links (a living provider naming a living fighter of its side in BuffWho) count towards the
  run and odds limits as attacks do: each costs work every round, and a roster can name thousands of
  fighters in each buff. The messages then speak of "attacks and buff links".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from rules.errors import RuleInputError
from rules.mfd.models import (
    BASE_TO_DEFEND,
    BASE_TO_HIT,
    EXHAUSTION_PENALTY,
    MAX_TO_DEFEND,
    MAX_TO_HIT,
    MIN_TO_DEFEND,
    MIN_TO_HIT,
    SIDES,
    XP_PER_DIE,
    BattleResult,
    Casualty,
    DerivedStats,
    Ending,
    Fighter,
    OddsResult,
    Roster,
)

if TYPE_CHECKING:
    from fractions import Fraction

SAFETY_ROUND_LIMIT = 1000
MAX_ATTACKS_PER_ROUND = 1_000_000
MAX_ATTACKS_PER_RUN = 10_000_000
MAX_ODDS_ATTACKS = 20_000_000
ODDS_BATCH_SIZE = 400_000  # fighters + attacks a round + buff links, over the battles fought together
NEVER = np.iinfo(np.int64).max  # death time of a fighter that survives the round

HEROES, VILLAINS = 0, 1


class _Field(NamedTuple):  # a tuple: its class costs a command line's start 1 ms less than a dataclass's
    """Every living fighter of every battle in play, one array entry each (`size` of them).

    Entries are ordered by side (heroes first), then battle, then name, which is also the order attacks
    resolve in. `guard_of`, `link` and the buff edges hold entry indices (-1: none).
    """

    n_battles: int
    side: np.ndarray
    battle: np.ndarray
    origin: np.ndarray  # index of the fighter in its side's roster
    hp: np.ndarray
    base_dice: np.ndarray
    bonus_hit: np.ndarray
    bonus_def: np.ndarray
    aoe: np.ndarray
    guard_of: np.ndarray
    link: np.ndarray
    buff_from: np.ndarray
    buff_to: np.ndarray
    buff_hit: np.ndarray
    buff_def: np.ndarray
    places: int  # decimal places that make every ToHit and ToDefend term a whole number (`_whole_units`)

    @property
    def size(self) -> int:
        """The number of entries (`len` is a tuple's: its number of fields)."""
        return len(self.hp)

    def keep(self, mask: np.ndarray) -> _Field:
        """The field without the entries where `mask` is False; references to removed ones are dropped."""
        new_index = np.cumsum(mask) - 1

        def remap(ref: np.ndarray) -> np.ndarray:
            valid = ref >= 0
            valid[valid] = mask[ref[valid]]
            return np.where(valid, new_index[np.maximum(ref, 0)], -1)

        edges = mask[self.buff_from] & mask[self.buff_to]
        return _Field(
            self.n_battles,
            self.side[mask],
            self.battle[mask],
            self.origin[mask],
            self.hp[mask],
            self.base_dice[mask],
            self.bonus_hit[mask],
            self.bonus_def[mask],
            self.aoe[mask],
            remap(self.guard_of[mask]),
            remap(self.link[mask]),
            new_index[self.buff_from[edges]],
            new_index[self.buff_to[edges]],
            self.buff_hit[edges],
            self.buff_def[edges],
            self.places,
        )


def _side_template(roster: Roster) -> dict[str, np.ndarray]:
    """One side's arrays for one battle; references are indices within the side."""
    fighters = roster.fighters
    index = {f.name: i for i, f in enumerate(fighters)}
    edges = [
        (i, index[name], buff.offense, buff.defense)
        for i, f in enumerate(fighters)
        for buff in f.buffs
        for name in buff.who
        if name in index
    ]
    edge_cols = list(zip(*edges, strict=True)) if edges else [(), (), (), ()]
    return {
        "hp": np.array([f.hp for f in fighters], dtype=np.float64),
        "base_dice": _base_dice(fighters),
        "bonus_hit": np.array([f.bonus_to_hit for f in fighters], dtype=np.float64),
        "bonus_def": np.array([f.bonus_to_defend for f in fighters], dtype=np.float64),
        "aoe": np.maximum(np.array([f.aoe for f in fighters], dtype=np.int64), 1),
        "guard_of": np.array([index.get(f.bodyguard_for, -1) for f in fighters], dtype=np.int64),
        "link": np.array([index.get(f.linked_to, -1) for f in fighters], dtype=np.int64),
        "buff_from": np.array(edge_cols[0], dtype=np.int64),
        "buff_to": np.array(edge_cols[1], dtype=np.int64),
        "buff_hit": np.array(edge_cols[2], dtype=np.float64),
        "buff_def": np.array(edge_cols[3], dtype=np.float64),
    }


def _build_field(heroes: Roster, villains: Roster, n_battles: int) -> _Field:
    """`n_battles` independent copies of the battle between the two rosters."""
    return _copies((_side_template(heroes), _side_template(villains)), n_battles)


def _copies(templates: tuple[dict[str, np.ndarray], dict[str, np.ndarray]], n_battles: int) -> _Field:
    """`n_battles` independent copies of the battle between the two sides' templates (built once for many
    batches: a template walks every buff link in Python)."""
    parts: dict[str, list[np.ndarray]] = {}
    offset = 0
    for side, t in enumerate(templates):
        size = len(t["hp"])
        battle = np.repeat(np.arange(n_battles, dtype=np.int64), size)
        base = offset + battle * size  # entry index of this copy's first fighter of the side
        columns = {
            "side": np.full(size * n_battles, side, dtype=np.int8),
            "battle": battle,
            "origin": np.tile(np.arange(size, dtype=np.int64), n_battles),
            **{k: np.tile(t[k], n_battles) for k in ("hp", "base_dice", "bonus_hit", "bonus_def", "aoe")},
        }
        for ref in ("guard_of", "link"):
            local = np.tile(t[ref], n_battles)
            columns[ref] = np.where(local >= 0, base + local, -1)
        edge_base = np.repeat(offset + np.arange(n_battles, dtype=np.int64) * size, len(t["buff_from"]))
        columns["buff_from"] = edge_base + np.tile(t["buff_from"], n_battles)
        columns["buff_to"] = edge_base + np.tile(t["buff_to"], n_battles)
        columns["buff_hit"] = np.tile(t["buff_hit"], n_battles)
        columns["buff_def"] = np.tile(t["buff_def"], n_battles)
        for key, value in columns.items():
            parts.setdefault(key, []).append(value)
        offset += size * n_battles
    places = _decimal_places(
        np.array([BASE_TO_HIT, BASE_TO_DEFEND, EXHAUSTION_PENALTY]),
        *(t[k] for t in templates for k in ("bonus_hit", "bonus_def", "buff_hit", "buff_def")),
    )
    return _Field(n_battles, **{k: np.concatenate(v) for k, v in parts.items()}, places=places)


def _base_dice(fighters: tuple[Fighter, ...]) -> np.ndarray:
    """ceil(TotalXP / 1000) of each fighter, exactly; at least one die however little TotalXP is (the reader
    refuses 0 or less)."""
    xp = np.array([f.xp for f in fighters], dtype=np.float64)
    bonus = np.array([f.bonus_xp for f in fighters], dtype=np.float64)
    if np.all((np.abs(xp) < 2**52) & (np.abs(bonus) < 2**52) & (xp == np.floor(xp)) & (bonus == np.floor(bonus))):
        # Whole numbers (as rosters almost always hold): their decimals are themselves, and int64 is exact.
        total = xp.astype(np.int64) + bonus.astype(np.int64)
        return np.maximum(1, -(-total // XP_PER_DIE))
    return np.array(
        [max(1, math.ceil((_exact(f.xp) + _exact(f.bonus_xp)) / XP_PER_DIE)) for f in fighters], dtype=np.int64
    )


def _exact(value: float) -> Fraction:
    """The decimal a CSV cell wrote (the float's shortest repr), not the binary fraction that stands for it."""
    from fractions import Fraction  # here: only numbers beyond the fast paths need it, and a run imports it then

    return Fraction(repr(value))


def _decimal_places(*arrays: np.ndarray) -> int:
    """The most decimal places any of the values has as written: '0.15' has 2, '1.5e-07' 8, '123.0' 1."""
    values = set(np.concatenate(arrays).tolist())  # not np.unique: its first call imports numpy.ma (7 ms)
    places = 0
    for value in values:
        mantissa, _, exponent = repr(value).partition("e")
        places = max(places, len(mantissa.partition(".")[2]) - int(exponent or 0))
    return places


class _Stats(NamedTuple):  # tuples: their classes cost a command line's start less than dataclasses
    raw_hit: np.ndarray
    raw_def: np.ndarray
    to_hit: np.ndarray
    to_def: np.ndarray
    offense_dice: np.ndarray
    defense_dice: np.ndarray


def _derive(f: _Field) -> _Stats:
    """This round's dice and chances for every entry: the document's table, with living providers' buffs."""
    raw_hit, offense_dice = _raw_and_dice(f, BASE_TO_HIT, f.bonus_hit, f.buff_hit)
    raw_def, defense_dice = _raw_and_dice(f, BASE_TO_DEFEND, f.bonus_def, f.buff_def)
    return _Stats(
        raw_hit,
        raw_def,
        np.clip(raw_hit, MIN_TO_HIT, MAX_TO_HIT),
        np.clip(raw_def, MIN_TO_DEFEND, MAX_TO_DEFEND),
        offense_dice,
        defense_dice,
    )


def _raw_and_dice(f: _Field, base: float, bonus: np.ndarray, buff: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each entry's raw chance (`base` + its bonus + its living providers' buffs, as the float nearest the exact
    sum) and its dice: its base dice, or ceil(base dice x raw) when raw is more than 1, computed exactly."""
    n, scale = f.size, 10**f.places
    most = (abs(base) + np.abs(bonus) + np.bincount(f.buff_to, np.abs(buff), minlength=n)).max(initial=0.0) * scale
    biggest_die_count = int(f.base_dice.max(initial=0))
    if most < 2**51 and biggest_die_count * scale < 2**61 and biggest_die_count * most / scale < 2**61:
        # Whole units below 2**51 are exact as floats, and so are their sums: int64 from here on.
        units = np.rint(
            base * scale + np.rint(bonus * scale) + np.bincount(f.buff_to, np.rint(buff * scale), minlength=n)
        )
        units = units.astype(np.int64)
        raw = units / scale
    else:  # numbers too big or too fine for int64: Python's integers, slower and as exact
        units = np.array([int(_exact(v) * scale) for v in bonus.tolist()], dtype=object) + int(_exact(base) * scale)
        np.add.at(units, f.buff_to, np.array([int(_exact(v) * scale) for v in buff.tolist()], dtype=object))
        raw = np.array([u / scale for u in units.tolist()], dtype=np.float64)
    whole, part = units // scale, units % scale
    bonus_dice = f.base_dice * whole - (-f.base_dice * part // scale)  # base x (whole + part / scale), rounded up
    return raw, np.where(units > scale, bonus_dice, f.base_dice).astype(np.int64)


def derived_stats(roster: Roster) -> tuple[DerivedStats, ...]:
    """The stats each fighter of a side fights with now (all of the side alive), in roster order."""
    f = _build_field(roster, Roster(roster.side, "", ()), 1)
    s = _derive(f)
    return _stats_tuples(roster.fighters, f.base_dice, f.aoe, s)


def start_stats(record: RoundRecord, roster: Roster, side: int) -> tuple[DerivedStats, ...]:
    """`derived_stats(roster)`, read off `record`: the first round a run fought with `roster` as side `side`
    (0 heroes, 1 villains), everyone alive. A fighter's stats come from its own side alone (its bonuses and its
    side's buffs), and are exact whatever decimal places the other side's numbers use, so they are the same
    numbers; the log's start rosters then cost no second derivation. A record of other fighters (a side's
    entries not the roster's, one for one) gets `derived_stats(roster)` itself."""
    fighters = roster.fighters
    first = int(np.count_nonzero(record.side == HEROES)) if side == VILLAINS else 0
    entries = slice(first, first + len(fighters))
    if not np.array_equal(record.side[entries], np.full(len(fighters), side)) or not np.array_equal(
        record.origin[entries], np.arange(len(fighters))
    ):
        return derived_stats(roster)
    stats = _Stats(*(column[entries] for column in record.stats))
    return _stats_tuples(fighters, record.base_dice[entries], record.aoe[entries], stats)


def _stats_tuples(
    fighters: tuple[Fighter, ...], base_dice: np.ndarray, aoe: np.ndarray, s: _Stats
) -> tuple[DerivedStats, ...]:
    # Whole columns into tuples in the fields' order: a side can have 50,000 fighters.
    columns = zip(
        [x.name for x in fighters],
        [x.hp for x in fighters],
        [x.total_xp for x in fighters],
        base_dice.tolist(),
        s.raw_hit.tolist(),
        s.raw_def.tolist(),
        s.to_hit.tolist(),
        s.to_def.tolist(),
        s.offense_dice.tolist(),
        s.defense_dice.tolist(),
        aoe.tolist(),
        [x.bodyguard_for for x in fighters],
        [x.linked_to for x in fighters],
        strict=True,
    )
    return tuple(map(DerivedStats._make, columns))


def _segments(f: _Field) -> tuple[np.ndarray, np.ndarray]:
    """Start and size of each (side, battle) block of entries, indexed by side * n_battles + battle."""
    counts = np.bincount(f.side.astype(np.int64) * f.n_battles + f.battle, minlength=2 * f.n_battles)
    return np.cumsum(counts) - counts, counts


def _pick_targets(f: _Field, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Every planned attack's attacker and picked opponent, in resolution order."""
    starts, counts = _segments(f)
    opposing = (1 - f.side.astype(np.int64)) * f.n_battles + f.battle
    n_opp, opp_start = counts[opposing], starts[opposing]
    # An attacker's AOE picks come in chunks of distinct opponents, at most n_opp each.
    chunks_per = -(-f.aoe // n_opp)
    chunk_attacker = np.repeat(np.arange(f.size), chunks_per)
    chunk_no = np.arange(len(chunk_attacker)) - np.repeat(np.cumsum(chunks_per) - chunks_per, chunks_per)
    chunk_n = n_opp[chunk_attacker]
    chunk_size = np.minimum(chunk_n, f.aoe[chunk_attacker] - chunk_no * chunk_n)
    slot_chunk = np.repeat(np.arange(len(chunk_attacker)), chunk_size)
    pick = np.empty(len(slot_chunk), dtype=np.int64)

    # Few picks from many opponents (a quarter or less): draw freely, redraw the repeats within a chunk until
    # none is left. Above a quarter the redraws would take many passes; a shuffle is cheaper there.
    dense = (2 * chunk_size > chunk_n) | ((chunk_size > 1) & (4 * chunk_size > chunk_n))
    sparse_slots = np.flatnonzero(~dense[slot_chunk])
    if sparse_slots.size:
        high = chunk_n[slot_chunk[sparse_slots]]
        pick[sparse_slots] = rng.integers(0, high)
        multi = sparse_slots[chunk_size[slot_chunk[sparse_slots]] > 1]
        width = int(chunk_n.max()) + 1
        while multi.size:
            key = slot_chunk[multi] * width + pick[multi]
            order = np.argsort(key, kind="stable")
            repeats = multi[order[1:][key[order][1:] == key[order][:-1]]]
            if not repeats.size:
                break
            pick[repeats] = rng.integers(0, chunk_n[slot_chunk[repeats]])
            # Only a chunk that had a repeat can have one now: look at those alone (same draws, less sorting).
            unsettled = np.zeros(len(chunk_size), dtype=bool)
            unsettled[slot_chunk[repeats]] = True
            multi = multi[unsettled[slot_chunk[multi]]]
    # Many picks from few opponents: shuffle the opponents and take the first chunk_size.
    dense_chunks = np.flatnonzero(dense)
    if dense_chunks.size:
        sizes = chunk_n[dense_chunks]
        first = np.cumsum(sizes) - sizes
        candidate_chunk = np.repeat(np.arange(len(dense_chunks)), sizes)
        candidate = np.arange(len(candidate_chunk)) - np.repeat(first, sizes)
        # chunk + U[0, 1) sorts by chunk, then randomly within it (one sort, much faster than lexsort)
        order = np.argsort(candidate_chunk + rng.random(len(candidate_chunk)), kind="stable")
        taken = candidate < np.repeat(chunk_size[dense_chunks], sizes)  # candidate = rank within its chunk
        pick[np.flatnonzero(dense[slot_chunk])] = candidate[order][taken]
    attacker = chunk_attacker[slot_chunk]
    return attacker, opp_start[attacker] + pick


def _divert_to_bodyguards(f: _Field, picked: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The defender of each attack: the picked fighter, or one of its bodyguards at random."""
    guards = np.flatnonzero(f.guard_of >= 0)
    if not guards.size or not picked.size:
        return picked
    protectee = f.guard_of[guards]
    guards = guards[np.argsort(protectee, kind="stable")]
    guard_count = np.bincount(protectee, minlength=f.size)
    guard_start = np.cumsum(guard_count) - guard_count
    diverted = np.flatnonzero(guard_count[picked] > 0)
    defender = picked.copy()
    chosen = picked[diverted]
    defender[diverted] = guards[guard_start[chosen] + rng.integers(0, guard_count[chosen])]
    return defender


def _death_times(f: _Field, defender: np.ndarray, damage: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each entry's death time (index of the attack that killed it or its link; NEVER if it lives) and
    its own death time (from attacks on it alone)."""
    n = f.size
    own = np.full(n, NEVER, dtype=np.int64)
    if defender.size:
        order = np.argsort(defender, kind="stable")  # by defender, attacks in resolution order
        d, dmg = defender[order], damage[order]
        running = np.cumsum(dmg)
        starts = np.flatnonzero(np.r_[True, d[1:] != d[:-1]])
        first = np.repeat(starts, np.diff(np.r_[starts, len(d)]))
        taken = running - (running[first] - dmg[first])  # damage to this defender up to this attack
        reached = taken >= f.hp[d]
        killing = reached & ((np.arange(len(d)) == first) | ~np.r_[False, reached[:-1]])
        own[d[killing]] = order[killing]
    death = own.copy()
    pointer = np.where(f.link >= 0, f.link, np.arange(n))
    while True:  # pointer doubling: after k steps, the earliest death among the next 2^k links
        earlier = np.minimum(death, death[pointer])
        if np.array_equal(earlier, death):
            return death, own
        death, pointer = earlier, pointer[pointer]


class RoundRecord(NamedTuple):
    """One round of one battle as arrays, for the log. Entries are the fighters alive at its start."""

    number: int
    side: np.ndarray
    origin: np.ndarray
    hp_start: np.ndarray
    hp_end: np.ndarray
    to_hit: np.ndarray
    to_defend: np.ndarray
    offense_dice: np.ndarray
    defense_dice: np.ndarray
    death: np.ndarray  # index of the attack at which the entry died, NEVER if it lived
    linked_via: np.ndarray  # entry whose death took this one with it, -1 if none
    attacker: np.ndarray  # per planned attack, in resolution order
    picked: np.ndarray
    defender: np.ndarray
    hits: np.ndarray
    blocks: np.ndarray
    skipped: np.ndarray
    stats: _Stats  # every entry's stats for the round (to_hit ... defense_dice above are its columns)
    base_dice: np.ndarray
    aoe: np.ndarray


def _fight_round(f: _Field, rng: np.random.Generator, number: int) -> RoundRecord:
    stats = _derive(f)
    attacker, picked = _pick_targets(f, rng)
    defender = _divert_to_bodyguards(f, picked, rng)
    hits = rng.binomial(stats.offense_dice[attacker], stats.to_hit[attacker])
    blocks = rng.binomial(stats.defense_dice[defender], stats.to_def[defender])
    damage = np.maximum(hits - blocks, 0)
    death, own = _death_times(f, defender, damage)
    skipped = np.arange(len(defender)) > death[defender]
    hp_end = f.hp - np.bincount(defender, np.where(skipped, 0, damage), minlength=f.size)
    linked = death < own
    hp_end[linked] = np.minimum(hp_end[linked], 0)
    return RoundRecord(
        number,
        f.side,
        f.origin,
        f.hp,
        hp_end,
        stats.to_hit,
        stats.to_def,
        stats.offense_dice,
        stats.defense_dice,
        death,
        np.where(linked, f.link, -1),
        attacker,
        picked,
        defender,
        hits,
        blocks,
        skipped,
        stats,
        f.base_dice,
        f.aoe,
    )


def _after_round(f: _Field, hp_end: np.ndarray, keep: np.ndarray) -> _Field:
    """The field for the next round: HP carried over, exhaustion applied, the dead (and `keep` False) gone."""
    f = f._replace(hp=hp_end, bonus_def=np.round(f.bonus_def - EXHAUSTION_PENALTY, 10))
    return f.keep(keep)


def planned_attacks(heroes: Roster, villains: Roster) -> int:
    """The attacks of a round with everyone alive: the sum of AOE over both sides."""
    # numpy's maximum, not max per fighter: a third of the time for thousands
    return int(np.maximum([x.aoe for r in (heroes, villains) for x in r.fighters], 1).sum())


def _round_work(f: _Field) -> int:
    """What a round of `f` costs against the run and odds limits: its attacks and its buff links."""
    return int(f.aoe.sum()) + len(f.buff_from)


def _work_unit(links: int) -> str:
    """How the limits' messages name the work of rounds with `links` buff links."""
    return "attacks and buff links" if links else "attacks"


def check_attack_limit(heroes: Roster, villains: Roster) -> None:
    attacks = planned_attacks(heroes, villains)
    if attacks > MAX_ATTACKS_PER_ROUND:
        raise RuleInputError(
            f"the two rosters plan {attacks:,} attacks a round (the sum of AOE); the limit is {MAX_ATTACKS_PER_ROUND:,}"
        )


def _round_limit(max_rounds: int | None) -> tuple[int, str]:
    """The rounds to run at most, and the safety limit it is ("" when it is the user's limit)."""
    if max_rounds is None or max_rounds > SAFETY_ROUND_LIMIT:
        return SAFETY_ROUND_LIMIT, f"the safety limit of {SAFETY_ROUND_LIMIT:,} rounds a run"
    if max_rounds < 1:
        raise RuleInputError(f"the round limit must be at least 1 (got {max_rounds})")
    return max_rounds, ""


def _ending(heroes_left: int, villains_left: int) -> Ending:
    if heroes_left and villains_left:
        return Ending.ROUND_LIMIT
    if heroes_left:
        return Ending.HEROES_WIN
    return Ending.VILLAINS_WIN if villains_left else Ending.DRAW


def run_battle(
    heroes: Roster,
    villains: Roster,
    rng: np.random.Generator,
    *,
    max_rounds: int | None = None,
    first_round: int = 1,
    observer: Callable[[RoundRecord], None] | None = None,
) -> BattleResult:
    """Fight until a side is gone, `max_rounds` rounds have been fought (numbered from `first_round`) or a
    safety limit is reached (see the module docstring).

    `observer` sees every round's record as it happens (the log is built from it); nothing per round is
    kept here, so memory stays flat however long the battle runs.
    """
    check_attack_limit(heroes, villains)
    limit, round_safety = _round_limit(max_rounds)
    rosters = (heroes, villains)
    names = tuple([x.name for x in roster.fighters] for roster in rosters)
    f = _build_field(heroes, villains, 1)
    unit = _work_unit(len(f.buff_from))
    fallen: list[Casualty] = []
    number = first_round - 1
    work = 0
    safety_stop = ""
    while _ending(*np.bincount(f.side, minlength=2)) is Ending.ROUND_LIMIT:
        if number - first_round + 1 >= limit:
            safety_stop = round_safety
            break
        planned = _round_work(f)
        if work + planned > MAX_ATTACKS_PER_RUN:
            safety_stop = f"the safety limit of {MAX_ATTACKS_PER_RUN:,} {unit} a run"
            break
        work += planned
        number += 1
        record = _fight_round(f, rng, number)
        if observer is not None:
            observer(record)
        died = np.flatnonzero(record.death != NEVER)
        # Plain lists: a round can fell thousands, and numpy's items one at a time are slow.
        in_order: list[int] = died[np.lexsort((record.linked_via[died] >= 0, record.death[died]))].tolist()
        sides: list[int] = f.side.tolist()
        origins: list[int] = f.origin.tolist()
        linked_via: list[int] = record.linked_via.tolist()
        for i in in_order:
            via = linked_via[i]
            fallen.append(
                Casualty(
                    SIDES[sides[i]],
                    names[sides[i]][origins[i]],
                    number,
                    names[sides[via]][origins[via]] if via >= 0 else "",
                )
            )
        f = _after_round(f, record.hp_end, record.death == NEVER)
    counts = np.bincount(f.side, minlength=2)
    ending = _ending(*counts)
    survivors: list[Roster] = []
    for side, roster in enumerate(rosters):
        mine = np.flatnonzero(f.side == side)
        survivors.append(
            Roster(
                roster.side,
                roster.file,
                tuple(
                    roster.fighters[int(f.origin[i])]._replace(hp=float(f.hp[i]), bonus_to_defend=float(f.bonus_def[i]))
                    for i in mine
                ),
                buff_groups=roster.buff_groups,
            )
        )
    return BattleResult(
        heroes=survivors[0],
        villains=survivors[1],
        ending=ending,
        first_round=first_round,
        last_round=number,
        fallen=tuple(fallen),
        safety_stop=safety_stop,
    )


def buff_links(roster: Roster) -> int:
    """A side's buff links with everyone standing: the names in its buffs' BuffWho that are on the side."""
    names = {f.name for f in roster.fighters}
    return sum(name in names for f in roster.fighters for buff in f.buffs for name in buff.who)


def check_odds_work(heroes: Roster, villains: Roster, battles: int) -> None:
    """Refuse odds that would be too much work, before any is done."""
    if battles < 1:
        raise RuleInputError(f"the number of battles must be at least 1 (got {battles})")
    check_attack_limit(heroes, villains)
    attacks, links = planned_attacks(heroes, villains), buff_links(heroes) + buff_links(villains)
    first_rounds = battles * (attacks + links)
    if first_rounds > MAX_ODDS_ATTACKS:
        unit = _work_unit(links)
        raise RuleInputError(
            f"{battles:,} battles of {attacks:,} attacks{f' and {links:,} buff links' if links else ''} a round make "
            f"{first_rounds:,} {unit} in their first round alone; the limit is {MAX_ODDS_ATTACKS:,} {unit} in all: "
            "use fewer battles"
        )


def simulate_odds(
    heroes: Roster,
    villains: Roster,
    battles: int,
    *,
    seed: int,
    max_rounds: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    batch_size: int = ODDS_BATCH_SIZE,
) -> OddsResult:
    """Fight `battles` independent battles from the same rosters; count who wins and who survives.

    Battles run in batches of about `batch_size` fighters, attacks and buff links (and at least ten batches
    when there are 100 battles or more, so `progress` has something to report); `progress(done, battles)`
    is called after each batch.
    """
    check_odds_work(heroes, villains, battles)
    limit, _ = _round_limit(max_rounds)
    templates = (_side_template(heroes), _side_template(villains))
    one = _copies(templates, 1)
    unit = _work_unit(len(one.buff_from))
    size = one.size + _round_work(one)
    rng = np.random.default_rng(seed)
    per_batch = max(1, min(batch_size // size, math.ceil(battles / 10) if battles >= 100 else battles))
    n_heroes, n_villains = len(heroes.fighters), len(villains.fighters)
    wins = np.zeros(4, dtype=np.int64)  # heroes, villains, draws, unfinished
    rounds_count: dict[int, int] = {}
    survived = [np.zeros(n_heroes, dtype=np.int64), np.zeros(n_villains, dtype=np.int64)]
    work = 0
    done_battles = 0
    while done_battles < battles:
        batch = min(per_batch, battles - done_battles)
        f = _copies(templates, batch)
        number = 0
        while f.size:
            work += _round_work(f)
            if work > MAX_ODDS_ATTACKS:
                finished = done_battles + batch - len(np.unique(f.battle))
                raise RuleInputError(
                    f"the battles run long: with {finished:,} of {battles:,} finished, the simulation reached its "
                    f"limit of {MAX_ODDS_ATTACKS:,} {unit}; set a round limit or use fewer battles"
                )
            number += 1
            record = _fight_round(f, rng, number)
            alive = record.death == NEVER
            left = [np.bincount(f.battle[alive & (f.side == s)], minlength=batch) for s in (HEROES, VILLAINS)]
            playing = np.zeros(batch, dtype=bool)
            playing[f.battle] = True
            over = playing & ((left[0] == 0) | (left[1] == 0) | (number >= limit))
            if over.any():
                ended = np.flatnonzero(over)
                codes = np.select(
                    [(left[0][ended] > 0) & (left[1][ended] > 0), left[0][ended] > 0, left[1][ended] > 0], [3, 0, 1], 2
                )
                wins += np.bincount(codes, minlength=4)
                rounds_count[number] = rounds_count.get(number, 0) + len(ended)
                final = alive & over[f.battle]
                for s in (HEROES, VILLAINS):
                    survived[s] += np.bincount(f.origin[final & (f.side == s)], minlength=len(survived[s]))
            f = _after_round(f, record.hp_end, alive & ~over[f.battle])
        done_battles += batch
        if progress is not None:
            progress(done_battles, battles)
    return OddsResult(
        battles=battles,
        heroes_wins=int(wins[0]),
        villains_wins=int(wins[1]),
        draws=int(wins[2]),
        unfinished=int(wins[3]),
        rounds_histogram=dict(sorted(rounds_count.items())),
        hero_names=tuple(x.name for x in heroes.fighters),
        hero_survivals=tuple(int(x) for x in survived[0]),
        villain_names=tuple(x.name for x in villains.fighters),
        villain_survivals=tuple(int(x) for x in survived[1]),
        max_rounds=limit,
        seed=seed,
    )
