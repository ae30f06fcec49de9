"""Servers with things to show, made through the games' own repositories as the bot makes them: matches dealt from
a seed and played to their end (rated between members), a tournament, a raid, a character, a world boss."""

from __future__ import annotations

from collections.abc import Sequence

from arena.text import markdown_safe
from rules.bossfight import BUILTIN_BOSSES
from rules.mma.engine import new_game
from rules.mma.simulate import played_ai_match
from rules.tournament import Player, new_tournament, with_next_round
from storage.bossfight import PlayerUpdate
from storage.guild_settings import GuildSettingsRepository
from storage.mma import Match, MatchStatus, MmaRepository, NewMatch
from storage.protocol import Storage
from storage.rows import required
from storage.tournament import Tournament, TournamentRepository
from storage.world_boss import WorldBossRepository
from storage.world_boss_records import WorldBoss

GUILD = 1111111111111111111  # Discord ids of today have 19 digits
OTHER_GUILD = 1222222222222222222
CHANNEL = 1333333333333333333
NAME_LIMIT = 40  # as cogs.mma.notes stores a display name

HOSTILE_NAMES = (
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(2)>',
    "מתמודד\u202eabc",  # right-to-left, with a right-to-left override
    "🥊 Émile 🔥",
    "W" * 100,
)


def stored_name(name: str) -> str:
    return markdown_safe(name, NAME_LIMIT)


async def played_match(
    db: Storage,
    players: tuple[tuple[int, str], tuple[int, str]],
    seed: int,
    now: float,
    *,
    guild_id: int = GUILD,
    channel_id: int = CHANNEL,
) -> Match:
    """A match between two members, challenged, accepted and played to its end (and rated) as the bot does."""
    repo = MmaRepository(db)
    (first, first_name), (second, second_name) = players
    names = (stored_name(first_name), stored_name(second_name))
    pending = await repo.create(
        guild_id, channel_id, (first, second), names, seed, now, state=None, feed=[], expire_before=0
    )
    dealt, _ = new_game(seed)
    live = await repo.answer_challenge(pending, MatchStatus.LIVE, now, state=dealt, feed=[])
    moves, final = played_ai_match(seed)
    return await repo.save_moves(live, final, [], moves, now)  # type: ignore[arg-type]


async def pages_on(db: Storage, guild_id: int = GUILD) -> None:
    await GuildSettingsRepository(db).set_web_pages(guild_id, True)


async def running_tournament(
    db: Storage,
    players: list[tuple[int, str]],
    now: float,
    *,
    rounds: int = 2,
    guild_id: int = GUILD,
    channel_id: int = CHANNEL + 1,
) -> tuple[Tournament, list[Match]]:
    """A tournament of `players` started by its game master, its first round's matches dealt and live."""
    tournaments = TournamentRepository(db)
    opened = await tournaments.create(guild_id, channel_id, 1, rounds, None)
    for user_id, name in players:
        assert await tournaments.join(opened.id, user_id, stored_name(name), limit=64)
    opened = required(await tournaments.get(opened.id))
    field = [Player(id=user_id, name=stored_name(name), rating=1500.0) for user_id, name in players]
    state = with_next_round(new_tournament(field, rounds))
    dealt: list[NewMatch] = []
    for board, pairing in enumerate(state.rounds[-1].pairings, start=1):
        seed = 100 + board
        names = (state.player(pairing.challenger).name, state.player(pairing.opponent).name)
        dealt.append(NewMatch((pairing.challenger, pairing.opponent), names, seed, new_game(seed)[0], []))
    return await MmaRepository(db).start_round(opened, state, dealt, now)


async def finish(db: Storage, match: Match, now: float) -> Match:
    """A live match played to its end from its seed (a tournament's board records its result with it)."""
    moves, final = played_ai_match(match.seed)
    return await MmaRepository(db).save_moves(match, final, [], moves, now)  # type: ignore[arg-type]


async def world_boss(
    db: Storage, hp: float, attacks: Sequence[tuple[int, int, float]], now: float, ends_in: float = 3600.0
) -> WorldBoss:
    """The first built-in boss spawned as the world boss at `now`, hit by each (server, member, damage) in turn,
    every attack applied."""
    repo = WorldBossRepository(db)
    boss = await repo.spawn(BUILTIN_BOSSES[0], hp, spawned_by=1, now=now, ends_at=now + ends_in, cooldown_seconds=0)
    for guild_id, user_id, damage in attacks:
        player = await repo.player(boss.id, guild_id, user_id)
        hit = PlayerUpdate(deck_damage=1.0, deck_hp_after=100.0, knocked_out=False, at=now)
        await repo.store_attack(boss.id, guild_id, user_id, player, damage, hit)
    return (await repo.apply_pending(boss.id, now, 1000)).boss
