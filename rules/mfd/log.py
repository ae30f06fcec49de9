"""The battle log: readable text built round by round from the engine's records, within a size limit.

A small battle gets every detail: the start rosters with derived stats, each round's targets (with
bodyguard diversions), every attack with its dice, kills, linked deaths, who stands at the end of the
round, and how it ended. The log never grows past `limit_bytes` (10 MiB by default; the bot gives it what
the final CSVs leave of a message, see `battle`): a round whose detail does not fit in what is left is
written as a one-paragraph summary (attacks, hits, blocks, damage, the fallen) and the log says so; long
lists of names are cut with a count, and the final CSV files always carry everyone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from rules.mfd.engine import NEVER, RoundRecord, derived_stats, start_stats
from rules.mfd.models import SIDES, BattleResult, DerivedStats, Ending, Roster
from rules.text import format_number, plural

LOG_LIMIT_BYTES = 10 * 1024 * 1024
_END_SHARE = 8  # the end section may use 1/8 of the limit, the start rosters 1/4
_START_SHARE = 4
_ATTACK_LINE_ESTIMATE = 110  # bytes per attack in a detailed round (to decide before rendering)


def percent(chance: float) -> str:
    """A chance as a percentage to 4 decimals, trailing zeros dropped: 33.3333%, 50%, 0%."""
    # The same digits as format_number(round(chance * 100, 4)) (both round correctly), at half the cost:
    # a detailed round writes two per attack.
    return f"{f'{chance * 100:.4f}'.rstrip('0').rstrip('.')}%"


def hp_text(hp: float) -> str:
    return format_number(float(hp))


def mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"


def describe_outcome(result: BattleResult) -> str:
    n = result.last_round
    if result.rounds_fought == 0:
        standing = [s for s, r in zip(SIDES, (result.heroes, result.villains), strict=True) if not r.fighters]
        return f"No round fought: {' and '.join(standing)} have no one standing."
    if result.ending is Ending.HEROES_WIN:
        return f"Heroes win: the last villain fell in round {n}."
    if result.ending is Ending.VILLAINS_WIN:
        return f"Villains win: the last hero fell in round {n}."
    if result.ending is Ending.DRAW:
        return f"Draw: both sides fell in round {n}."
    why = result.safety_stop or "the round limit"
    return f"Stopped after round {n} ({why}); both sides still stand."


class _Texts(dict[float, str]):
    """Each value's text, written once: a log repeats few distinct HP values and each fighter's chances."""

    def __init__(self, render: Callable[[float], str]) -> None:
        super().__init__()
        self.render = render

    def __missing__(self, value: float) -> str:
        text = self[value] = self.render(value)
        return text


def utf8_size(text: str) -> int:
    """The bytes `text` takes in UTF-8; ASCII text (most of a log) is counted without encoding it."""
    return len(text) if text.isascii() else len(text.encode())


class _Budget:
    """Text pieces with a running UTF-8 size."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.size += utf8_size(text)


def _bounded_text(lines: list[str], budget: int, more: str) -> str:
    """`lines` as text, each ending with a line break, cut to fit `budget` bytes and ending with `more` (given
    the count left out) when cut."""
    text = "\n".join([*lines, ""])
    if utf8_size(text) <= budget:  # the text that fits is the text measured: the start rosters are joined once
        return text
    kept: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        size += utf8_size(line) + 1
        if size > budget:
            kept.append(more.format(len(lines) - i))
            break
        kept.append(line)
    return "\n".join([*kept, ""])


class BattleLog:
    """Pass `add_round` as the observer of `run_battle` on the same rosters, then call `finish` with the result."""

    def __init__(
        self,
        heroes: Roster,
        villains: Roster,
        *,
        seed: int | None = None,
        first_round: int = 1,
        limit_bytes: int = LOG_LIMIT_BYTES,
    ) -> None:
        self.rosters = (heroes, villains)
        self.names = tuple([f.name for f in roster.fighters] for roster in self.rosters)
        # A detailed round writes two chances and two HP values per attack: each distinct one is written once.
        self.percents = _Texts(percent)
        self.hps = _Texts(hp_text)
        self.limit = limit_bytes
        self.summarized_rounds = 0
        self.out = _Budget()
        title = "Marked for Death: battle log"
        if first_round > 1:
            title += f", continued from round {first_round}"
        self.out.add(title + (f" (seed {seed})" if seed is not None else "") + "\n")
        self.started = False  # the start rosters are written with the first round, or at the end if none is

    def _start(self, first: RoundRecord | None) -> None:
        """The start rosters with their stats, read off the first round's record when there is one (the same
        numbers as `derived_stats`, see `start_stats`)."""
        self.started = True
        lines: list[str] = []
        for side, roster in enumerate(self.rosters):
            lines.append(f"\n{roster.side} ({len(roster.fighters)}), from {roster.file}:")
            lines += self._stats_lines(derived_stats(roster) if first is None else start_stats(first, roster, side))
            lines += [f"  warning: {w}" for w in roster.warnings]
        more = "  ... {} more lines left out to keep the log within its size limit"
        self.out.add(_bounded_text(lines, self.limit // _START_SHARE, more))

    def _stats_lines(self, stats: tuple[DerivedStats, ...]) -> list[str]:
        percents, hps = self.percents, self.hps
        return [  # the tuples unpacked: a side can have 50,000 fighters, and attribute access costs more
            f"  {name}: HP {hps[hp]}, ToHit {percents[to_hit]}, ToDefend {percents[to_defend]}, AOE {aoe}, "
            f"TotalXP {format_number(total_xp)}, OffenseDice {offense_dice}, DefenseDice {defense_dice}, "
            f"bodyguarding {bodyguard_for or 'no one'}, linked to {linked_to or 'no one'}"
            for (
                name,
                hp,
                total_xp,
                _,
                _,
                _,
                to_hit,
                to_defend,
                offense_dice,
                defense_dice,
                aoe,
                bodyguard_for,
                linked_to,
            ) in stats
        ]

    def name(self, record: RoundRecord, entry: int | np.integer[Any]) -> str:
        return self.rosters[int(record.side[entry])].fighters[int(record.origin[entry])].name

    def add_round(self, record: RoundRecord) -> None:
        if not self.started:
            self._start(record)
        room = self.limit - self.limit // _END_SHARE - self.out.size
        text = None
        if len(record.attacker) * _ATTACK_LINE_ESTIMATE + len(record.side) * 40 < room:
            text = self._detailed(record)
            if utf8_size(text) > room:
                text = None
        if text is None:
            self.summarized_rounds += 1
            text = self._summary(record, room)
        self.out.add(text)

    def _fallen(self, record: RoundRecord) -> list[int]:
        died = np.flatnonzero(record.death != NEVER)
        return died[np.lexsort((record.linked_via[died] >= 0, record.death[died]))].tolist()

    def _standing_lines(self, record: RoundRecord) -> list[str]:
        lines: list[str] = []
        for side, label in enumerate(SIDES):
            alive = np.flatnonzero((record.side == side) & (record.death == NEVER))
            roster_names, hps = self.names[side], self.hps
            names = ", ".join(
                f"{roster_names[origin]} {hps[hp]} HP"
                for origin, hp in zip(record.origin[alive].tolist(), record.hp_end[alive].tolist(), strict=True)
            )
            lines.append(f"  {label} standing ({len(alive)}): {names or 'none'}")
        return lines

    def _detailed(self, r: RoundRecord) -> str:
        # Plain lists: a round can hold a million attacks, and indexing numpy arrays one item at a time is
        # several times slower than indexing lists.
        names = self.names
        name: list[str] = [names[side][origin] for side, origin in zip(r.side.tolist(), r.origin.tolist(), strict=True)]
        percents, hps = self.percents, self.hps
        attacker: list[int] = r.attacker.tolist()
        picked: list[int] = r.picked.tolist()
        defender: list[int] = r.defender.tolist()
        hits_of, blocks_of, skipped = r.hits.tolist(), r.blocks.tolist(), r.skipped.tolist()
        offense_dice, defense_dice, death = r.offense_dice.tolist(), r.defense_dice.tolist(), r.death.tolist()
        lines = [f"\nRound {r.number}", "  Targets:"]
        slot, attacks = 0, len(attacker)
        while slot < attacks:
            who = attacker[slot]
            picks: list[str] = []
            while slot < attacks and attacker[slot] == who:
                p, d = picked[slot], defender[slot]
                picks.append(name[p] if p == d else f"{name[p]} (bodyguard {name[d]} steps in)")
                slot += 1
            lines.append(f"    {name[who]}: {', '.join(picks)}")
        lines.append("  Attacks:")
        hp = r.hp_start.tolist()
        linked_at: dict[int, list[int]] = {}
        for i in np.flatnonzero(r.linked_via >= 0).tolist():
            linked_at.setdefault(death[i], []).append(i)
        to_hit, to_defend = r.to_hit.tolist(), r.to_defend.tolist()
        for s in range(attacks):
            a, p, d = attacker[s], picked[s], defender[s]
            target = name[d] if p == d else f"{name[d]} (guarding {name[p]})"
            if skipped[s]:
                lines.append(f"    {name[a]} -> {target}: skipped, {name[d]} has already fallen")
                continue
            hits, blocks = hits_of[s], blocks_of[s]
            damage = hits - blocks if hits > blocks else 0
            before, hp[d] = hp[d], hp[d] - damage
            line = (
                f"    {name[a]} -> {target}: {hits}/{offense_dice[a]} hit "
                f"({percents[to_hit[a]]}), {blocks}/{defense_dice[d]} blocked ({percents[to_defend[d]]}): "
                f"{damage} damage, HP {hps[before]} -> {hps[hp[d]]}"
            )
            if death[d] == s:
                line += f"; {name[d]} falls"
            lines.append(line)
            for x in linked_at.get(s, ()):
                lines.append(
                    f"      {name[x]} falls with {name[int(r.linked_via[x])]} (linked), "
                    f"HP {hps[hp[x]]} -> {hps[float(r.hp_end[x])]}"
                )
                hp[x] = float(r.hp_end[x])
        fallen = self._fallen(r)
        lines.append(
            f"  End of round {r.number}. Fallen ({len(fallen)}): {', '.join(name[i] for i in fallen) or 'none'}"
        )
        lines += self._standing_lines(r)
        lines.append("")  # the closing line break, without copying a round of a megabyte again to add it
        return "\n".join(lines)

    def _summary(self, r: RoundRecord, room: int) -> str:
        done = ~r.skipped
        damage = np.maximum(r.hits - r.blocks, 0)[done]
        fallen = self._fallen(r)
        counts = [int(np.sum((r.side == s) & (r.death == NEVER))) for s in (0, 1)]
        lost = [int(np.sum(r.side[fallen] == s)) for s in (0, 1)] if fallen else [0, 0]
        head = (
            f"\nRound {r.number} (summary: the full detail would not fit in the log's "
            f"{mib(self.limit)})\n"
            f"  {plural(len(r.attacker), 'attack')} ({int(np.sum(r.skipped))} skipped, "
            f"{int(np.sum(r.picked != r.defender))} taken by bodyguards): "
            f"{int(r.hits[done].sum())} hits, {int(r.blocks[done].sum())} blocked, "
            f"{int(damage.sum())} damage\n"
            f"  Fallen: Heroes {lost[0]}, Villains {lost[1]}; standing: Heroes {counts[0]}, "
            f"Villains {counts[1]}\n"
        )
        names = "  Fallen: " + ", ".join(self.name(r, i) for i in fallen) + "\n" if fallen else ""
        if utf8_size(head + names) > room:
            names = ""
        return head + names

    def finish(self, result: BattleResult) -> str:
        if not self.started:
            self._start(None)
        lines = ["", f"The end: {describe_outcome(result)}"]
        if self.summarized_rounds:
            summarized = plural(self.summarized_rounds, "round is", "rounds are")
            lines.append(f"({summarized} summarized to keep this log within {mib(self.limit)}.)")
        for roster in (result.heroes, result.villains):
            lines.append(f"{roster.side} standing: {len(roster.fighters) or 'none'}")
            lines += [f"  {f.name}: {self.hps[f.hp]} HP" for f in roster.fighters]
        sides = [c.side for c in result.fallen]
        by_side = [sides.count(s) for s in SIDES]
        lines.append(f"Fallen in these rounds: Heroes {by_side[0]}, Villains {by_side[1]}")
        room = self.limit - self.out.size
        more = "... {} more lines left out; the final CSV files list everyone"
        self.out.add(_bounded_text(lines, room - 200, more))
        return "".join(self.out.parts)
