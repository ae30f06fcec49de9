"""What each page holds, read from storage: every function returns the page's JSON document (plain dicts, lists,
strings and numbers), and the page's template draws that same document, so the HTML and the JSON never differ.

Who may be shown: a server's pages exist only while its game master has them on (`NotShown` otherwise, the same
for a server Arena never saw); a member who hid their pages, or erased their data (FORMER_MEMBER, or the ids
below it a tournament gives its former members), has no page and no name on anyone else's. The world boss's
page is the whole world's: it names servers (by their page where it is on), never a member.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, TypeVar

from arena.text import as_written, markdown_safe
from rules.bossfight.world import WorldBossStatus
from rules.mma.cards import CARDS
from rules.mma.engine import HAND_LIMIT, MAX_ENERGY
from rules.mma.replay import ReplayStep, replay_index, replay_match
from rules.mma.state import CONCEDE, DEPLOY, DRAW, END_TURN, NO_ONE, OVER, PLAY, SKIP_DRAW, Action, EndReason
from rules.mma.text import describe, shared_fighters
from rules.rating import Rating, RatingChange, Result
from rules.tournament import standings
from rules.tournament.chart import LEGEND, crosstable_header, crosstable_rows
from storage.andor import AndorRepository
from storage.bossfight import BossfightRepository, RaidTotals
from storage.member_data import FORMER_MEMBER, FORMER_MEMBER_NAME
from storage.mma import Match, MatchStatus, MmaRepository, ended_words
from storage.protocol import Storage
from storage.ratings import Leaderboard, RatedGame, RatedMember, RatingRepository
from storage.rows import required
from storage.tables import FORMER_SERVER
from storage.times import unix_time
from storage.tournament import Tournament, TournamentRepository, TournamentStatus
from storage.web_pages import WebPagesRepository
from storage.world_boss import WorldBossRepository
from storage.world_boss_boards import WorldBossBoards
from storage.world_boss_records import ServerCredit, WorldBoss
from web.paths import match_path, member_path, server_path, tournament_path, world_boss_path

PAGE_SIZE = 50  # leaderboard rows a page
RECENT = 10  # recent matches, tournaments and raids listed
BEST = 3  # best wins and worst losses listed
SEARCH_LIMIT = 200  # members a name search looks at
# Finished matches whose replay steps stay worked out in memory, for members stepping through them. Few: a replay's
# steps are 3,300 objects the garbage collector walks at each full collection, and 64 kept made those collections
# walk 300,000 objects for 40-146 ms each, a replay page's p95 78-113 ms (benchmarks.web); working one out again
# takes 4 ms (9 for the longest).
REPLAYS_KEPT = 4
WORLD_BOARD_SHOWN = 100  # servers listed on the world boss's board
HIDDEN_NAME = "a hidden member"
PAGES_OFF_SERVER_NAME = "a server"
FORMER_SERVER_NAME = "a former server"
AI_NAME = "AI"

Document = dict[str, Any]
T = TypeVar("T")


class NotShown(Exception):
    """No such page for the web: an unknown server, a server with its pages off, a hidden or erased member, a
    match or tournament of another server or not there. Every one answers the same 404."""


def iso(unix: float) -> str:
    """A time as the JSON gives it: ISO 8601 UTC to the second."""
    return datetime.fromtimestamp(unix, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Server:
    """One server as its pages read it: who is hidden, and the names members played under."""

    guild_id: int
    name: str  # as its owner wrote it
    hidden: frozenset[int]
    names: dict[int, str]  # stored (markdown-escaped) names, by member

    @property
    def url(self) -> str:
        return server_path(self.guild_id)

    @property
    def reference(self) -> Document:
        """The server as its pages name it (the world boss's board names servers the same way)."""
        return {"id": str(self.guild_id), "name": self.name, "url": self.url}

    def shown(self, user_id: int | None) -> bool:
        return user_id is not None and user_id > FORMER_MEMBER and user_id not in self.hidden

    def member(self, user_id: int | None, stored_name: str | None = None) -> Document:
        """A member as every page names them: a link to their page, or the words for someone without one."""
        if user_id is None:
            return {"id": None, "name": AI_NAME, "url": None}
        if user_id <= FORMER_MEMBER:
            return {"id": None, "name": FORMER_MEMBER_NAME, "url": None}
        if user_id in self.hidden:
            return {"id": None, "name": HIDDEN_NAME, "url": None}
        name = self.names.get(user_id, stored_name)
        return {
            "id": str(user_id),  # a string: JavaScript's numbers cannot hold a Discord id exactly
            "name": "a member" if name is None else as_written(name),
            "url": member_path(self.guild_id, user_id),
        }


def _change(change: RatingChange) -> Document:
    return {"before": change.before.shown, "after": change.after.shown, "change": change.delta}


def _rated_row(server: Server, member: RatedMember) -> Document:
    return {
        "rank": member.rank,
        "member": server.member(member.user_id),
        "rating": member.rating.shown,
        "deviation": member.rating.deviation,
        "games": member.rating.games,
        "provisional": member.rating.provisional,
    }


class _Kept(OrderedDict[Any, Any]):
    """The last `size` values worked out, the least recently used dropped first."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def keep(self, key: Any, value: T) -> T:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)
        return value


class Site:
    """The pages of every server, over one database. `executor` runs the engine's replays off the event loop
    (None: asyncio's default one); `clock` tells the world boss's time left."""

    def __init__(self, db: Storage, executor: Executor | None = None, clock: Callable[[], float] = time.time):
        self.db = db
        self.executor = executor
        self.clock = clock
        self.web = WebPagesRepository(db)
        self.ratings = RatingRepository(db)
        self.mma = MmaRepository(db)
        self.tournaments = TournamentRepository(db)
        self.bossfight = BossfightRepository(db)
        self.andor = AndorRepository(db)
        self.world_bosses = WorldBossRepository(db)
        self.world_boards = WorldBossBoards(db)
        self._leaderboards = _Kept(16)  # by server: (what the ratings were when read, the leaderboard)
        self._replays = _Kept(REPLAYS_KEPT)  # by (match id, version): its steps

    async def _in_worker(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.executor, work)

    # --- reading a server ----------------------------------------------------------------------------------

    async def server(self, guild_id: int, user_ids: Iterable[int] = ()) -> Server:
        """The server, with the names of `user_ids`; NotShown unless its pages are on."""
        hidden = await self.web.shown_except(guild_id)
        if hidden is None:
            raise NotShown
        names = await self.web.names(guild_id, [u for u in user_ids if u not in hidden])
        return Server(guild_id, await self._server_name(guild_id), hidden, names)

    async def _server_name(self, guild_id: int) -> str:
        return await self.web.server_name(guild_id) or f"Server {guild_id}"

    async def _with_names(self, server: Server, user_ids: Iterable[int]) -> Server:
        wanted = [u for u in user_ids if server.shown(u) and u not in server.names]
        if not wanted:
            return server
        return replace(server, names=server.names | await self.web.names(server.guild_id, wanted))

    async def leaderboard(self, guild_id: int) -> Leaderboard:
        """The server's leaderboard, read again only when a rating changed: a page of 50 out of 10,000 members
        would otherwise read them all for every reader."""
        probe = required(
            await self.db.fetch_one(
                "SELECT count(*) AS members, max(updated_at) AS latest, sum(mu) AS total, sum(games) AS games "
                "FROM mma_ratings WHERE guild_id = ?",
                (guild_id,),
            )
        )
        mark = tuple(probe)
        kept = self._leaderboards.get(guild_id)
        if kept is not None and kept[0] == mark:
            return kept[1]
        board = await self.ratings.leaderboard(guild_id)
        return self._leaderboards.keep(guild_id, (mark, board))[1]

    # --- a server's page -----------------------------------------------------------------------------------

    async def server_page(self, guild_id: int, page: int = 1, query: str = "") -> Document:
        server = await self.server(guild_id)
        board = await self.leaderboard(guild_id)
        rows = [member for member in board.everyone if server.shown(member.user_id)]
        query = query.strip()[:100]
        if query:
            rows = await self._named(server, rows, query)
        pages = max(1, math.ceil(len(rows) / PAGE_SIZE))
        page = min(max(page, 1), pages)
        shown = rows[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
        server = await self._with_names(server, (member.user_id for member in shown))
        tournaments = [
            required(await self.tournaments.get(tournament_id))
            for tournament_id in await self.web.recent_tournaments(guild_id, RECENT)
        ]
        raids: list[Document] = []
        for ref in await self.web.finished_raids(guild_id, RECENT):
            finished = required(await self.bossfight.finished_raid(ref.channel_id, ref.raid_id))
            top = finished.totals[0] if finished.totals else None
            server = await self._with_names(server, [top.user_id] if top else [])
            raids.append(
                {
                    "id": finished.raid.id,
                    "boss": finished.raid.boss.name,
                    "max_hp": round(finished.raid.max_hp),
                    "defeated": finished.raid.status.value == "defeated",
                    "ended_at": finished.raid.ended_at,
                    "attackers": len(finished.totals),
                    "top": None if top is None else {"member": server.member(top.user_id), "damage": round(top.damage)},
                }
            )
        return {
            "server": server.reference,
            "leaderboard": {
                "query": query,
                "page": page,
                "pages": pages,
                "members": len(rows),
                "page_size": PAGE_SIZE,
                "established": [_rated_row(server, m) for m in shown if not m.rating.provisional],
                "provisional": [_rated_row(server, m) for m in shown if m.rating.provisional],
            },
            "tournaments": [self._tournament_summary(server, t) for t in tournaments],
            "raids": raids,
            "world_boss": await self._world_place(guild_id),
        }

    async def _world_place(self, guild_id: int) -> Document | None:
        """The server's place on the latest world boss's board (None: no world boss yet); `place` None while the
        server has not attacked it."""
        boss = await self.world_bosses.latest()
        if boss is None:
            return None
        board = await self.world_boards.world_board(boss.id)
        place, entry = next(((n, e) for n, e in enumerate(board, 1) if e.guild_id == guild_id), (None, None))
        return {
            "boss": boss.boss.name,
            "status": boss.status.value,
            "url": world_boss_path(),
            "place": place,
            "servers": len(board),
            "damage": 0 if entry is None else entry.credited,
            "members": 0 if entry is None else entry.members,
        }

    # --- the world boss's page -------------------------------------------------------------------------------

    async def world_boss_page(self) -> Document:
        """The live world boss, else the last one to end (NotShown: none yet). Servers only, never their members
        (RULINGS 9): a server by its page where its pages are on, else as "a server"."""
        boss = await self.world_bosses.latest()
        if boss is None:
            raise NotShown
        board = await self.world_boards.world_board(boss.id)
        final = await self.world_boards.attack(boss.final_attack_id) if boss.final_attack_id is not None else None
        return {
            "boss": _world_boss(boss, self.clock()),
            "final_blow": None if final is None else {"server": await self._world_server(final.guild_id)},
            "board": {
                "servers": len(board),
                "members": sum(entry.members for entry in board),
                "rows": [
                    await self._world_row(place, entry) for place, entry in enumerate(board[:WORLD_BOARD_SHOWN], 1)
                ],
            },
        }

    async def _world_row(self, place: int, entry: ServerCredit) -> Document:
        server = await self._world_server(entry.guild_id)
        return {"place": place, "server": server, "damage": entry.credited, "members": entry.members}

    async def _world_server(self, guild_id: int) -> Document:
        if guild_id == FORMER_SERVER:
            return {"id": None, "name": FORMER_SERVER_NAME, "url": None}
        if not await self.web.pages_on(guild_id):
            return {"id": None, "name": PAGES_OFF_SERVER_NAME, "url": None}
        return {"id": str(guild_id), "name": await self._server_name(guild_id), "url": server_path(guild_id)}

    async def _named(self, server: Server, rows: list[RatedMember], query: str) -> list[RatedMember]:
        """The rows of members whose name holds `query`, in any case: candidates by the stored names, kept when
        their latest name, as typed, holds it."""
        candidates = set(await self.web.named_like(server.guild_id, markdown_safe(query), SEARCH_LIMIT))
        names = await self.web.names(server.guild_id, candidates)
        wanted = query.casefold()
        return [m for m in rows if m.user_id in names and wanted in as_written(names[m.user_id]).casefold()]

    @staticmethod
    def _tournament_summary(server: Server, tournament: Tournament) -> Document:
        state = tournament.state
        leader = standings(state)[0] if state is not None and state.rounds else None
        return {
            "id": tournament.id,
            "url": tournament_path(server.guild_id, tournament.id),
            "status": tournament.status.value,
            "players": len(state.players) if state else len(tournament.entrants),
            "round": len(state.rounds) if state else 0,
            "rounds": state.settings.rounds if state else tournament.rounds,
            "leader": None if leader is None else server.member(leader.player.id, leader.player.name),
            "ended_at": tournament.ended_at,
        }

    # --- a member's page -----------------------------------------------------------------------------------

    async def member_page(self, guild_id: int, user_id: int) -> Document:
        server = await self.server(guild_id, [user_id])
        if not server.shown(user_id):
            raise NotShown
        history = list(reversed(await self.ratings.history(guild_id, user_id)))  # oldest first
        rating = history[-1].change.after if history else Rating()
        recent = await self.mma.finished(guild_id, user_id, limit=RECENT)
        raids = await self.bossfight.member_totals(guild_id, user_id)
        character = await self.andor.character(guild_id, user_id)
        if not history and not recent and raids.attacks == 0 and character is None:
            raise NotShown  # nothing of theirs here: the same as no such member
        server = await self._with_names(
            server, [g.opponent_id for g in history] + [m.opponent_id for m in recent if m.opponent_id is not None]
        )
        board = await self.leaderboard(guild_id)
        standing = board.standing(user_id)
        points = [self._point(server, game) for game in history]
        wins = sorted((g for g in history if g.result is Result.WIN), key=lambda g: (-g.change.delta, -g.rated_at))
        losses = sorted((g for g in history if g.result is Result.LOSS), key=lambda g: (g.change.delta, -g.rated_at))
        peak = max(history, key=lambda g: (g.change.after.shown, -g.rated_at), default=None)
        return {
            "server": server.reference,
            "member": server.member(user_id),
            "rating": None
            if rating.games == 0
            else {
                "rating": rating.shown,
                "deviation": rating.deviation,
                "games": rating.games,
                "provisional": rating.provisional,
                "rank": None if standing is None else standing.rank,
                "ranked_among": None if standing is None else len(board.of_kind(standing)),
            },
            "peak": None if peak is None else {"rating": peak.change.after.shown, "match_id": peak.match_id},
            "streaks": _streaks([g.result for g in history]),
            "history": points,
            "best_wins": [self._point(server, g) for g in wins[:BEST]],
            "worst_losses": [self._point(server, g) for g in losses[:BEST]],
            "recent": [
                {
                    "match_id": m.match_id,
                    "url": match_path(server.guild_id, m.match_id) if m.result is not None else None,
                    "opponent": server.member(m.opponent_id),
                    "result": None if m.result is None else m.result.value,
                    "reason": m.reason,
                    "ended": ended_words(m.reason),
                    "finished_at": iso(m.finished_at),
                    "change": None if m.change is None else m.change.delta,
                }
                for m in recent
            ],
            "raids": _raid_totals(raids),
            "andor": None
            if character is None
            else {
                "level": character.level,
                "xp": character.xp,
                "xp_to_next_level": character.xp_to_next_level,
                "max_hp": character.max_hp,
                "armor": character.armor,
                "attack_chance": character.attack_chance,
                "damage": [character.damage_min, character.damage_max],
                "crit_chance": character.crit_chance,
                "block_chance": character.block_chance,
                "potions": character.potions,
                "gold": character.gold,
            },
        }

    @staticmethod
    def _point(server: Server, game: RatedGame) -> Document:
        return {
            "match_id": game.match_id,
            "url": match_path(server.guild_id, game.match_id),
            "opponent": server.member(game.opponent_id),
            "result": game.result.value,
            "rating": game.change.after.shown,
            "change": game.change.delta,
            "at": iso(game.rated_at),
        }

    # --- a match's replay ----------------------------------------------------------------------------------

    async def _finished_match(self, guild_id: int, match_id: int) -> tuple[Server, Match, list[ReplayStep]]:
        match = await self.mma.get(match_id)
        if match is None or match.guild_id != guild_id or match.status != MatchStatus.OVER:
            raise NotShown
        server = await self.server(guild_id, [p for p in match.player_ids if p is not None])
        key = (match.id, match.version)
        steps: list[ReplayStep] | None = self._replays.get(key)
        if steps is None:
            moves = await self.mma.moves(match.id)
            claimed_by = match.winner_slot if match.result_reason == EndReason.IDLE else None
            ai = 1 if match.vs_ai else None
            steps = await self._in_worker(lambda: replay_match(match.seed, moves, ai_player=ai, claimed_by=claimed_by))
            self._replays.keep(key, steps)
        return server, match, steps

    async def replay_page(self, guild_id: int, match_id: int, step: int | None = None) -> Document:
        """The replay with every step (`step` None: the JSON) or with one step only (the HTML's)."""
        server, match, steps = await self._finished_match(guild_id, match_id)
        index = replay_index(steps)
        players = [server.member(user_id, name) for user_id, name in zip(match.player_ids, match.names, strict=True)]
        names = [player["name"] for player in players]
        chosen = range(len(steps)) if step is None else [min(max(step, 0), len(steps) - 1)]
        url = match_path(guild_id, match.id)
        return {
            "server": server.reference,
            "match": {
                "id": match.id,
                "url": url,
                "seed": match.seed,
                "players": players,
                "winner": match.winner_slot,
                "reason": match.result_reason,
                "ended": None if match.result_reason is None else ended_words(match.result_reason),
                "rating_changes": [
                    None
                    if user_id is None or user_id not in match.rating_changes
                    else _change(match.rating_changes[user_id])
                    for user_id in match.player_ids
                ],
            },
            "last_step": len(steps) - 1,
            "turns": [{"turn": turn, "step": index.turn_start(turn)} for turn in range(1, index.last_turn + 1)],
            "steps": [_step(steps[number], index.turns[number], names) for number in chosen],
        }

    # --- a tournament's page -------------------------------------------------------------------------------

    async def tournament_page(self, guild_id: int, tournament_id: int) -> Document:
        tournament = await self.tournaments.get(tournament_id)
        if tournament is None or tournament.guild_id != guild_id:
            raise NotShown
        server = await self.server(guild_id)
        state = tournament.state
        summary = self._tournament_summary(server, tournament)
        summary["version"] = tournament.version
        summary["live"] = tournament.status in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)
        if state is None:
            return {
                "server": server.reference,
                "tournament": summary,
                "entrants": [server.member(e.user_id, e.name) for e in tournament.entrants],
                "standings": [],
                "rounds": [],
                "crosstable": None,
            }
        table = standings(state)
        rounds: list[Document] = []
        for played in state.rounds:
            match_ids = await self.tournaments.match_ids(tournament.id, played.number)
            rounds.append(
                {
                    "number": played.number,
                    "boards": [
                        {
                            "board": board,
                            "challenger": server.member(p.challenger, state.player(p.challenger).name),
                            "opponent": server.member(p.opponent, state.player(p.opponent).name),
                            "result": None if p.result is None else p.result.value,
                            "url": match_path(guild_id, match_ids[board])
                            if board in match_ids and p.result is not None and p.result.rated
                            else None,
                        }
                        for board, p in enumerate(played.pairings, start=1)
                    ],
                    "bye": None if played.bye is None else server.member(played.bye, state.player(played.bye).name),
                }
            )
        cross = crosstable_rows(state)
        for row, standing in zip(cross, table, strict=True):
            row[1] = server.member(standing.player.id, standing.player.name)["name"]
            if standing.player.withdrawn:
                row[1] += " (withdrawn)"
        return {
            "server": server.reference,
            "tournament": summary,
            "entrants": [],
            "standings": [
                {
                    "rank": s.rank,
                    "member": server.member(s.player.id, s.player.name),
                    "points": s.points,
                    "buchholz": s.buchholz,
                    "sonneborn_berger": s.sonneborn_berger,
                    "wins": s.wins,
                    "draws": s.draws,
                    "losses": s.losses,
                    "byes": s.byes,
                    "withdrawn": s.player.withdrawn,
                }
                for s in table
            ],
            "rounds": rounds,
            "crosstable": {"header": crosstable_header(state), "rows": cross, "legend": " ".join(LEGEND)},
        }


def _world_boss(boss: WorldBoss, now: float) -> Document:
    live = boss.status is WorldBossStatus.LIVE
    return {
        "id": boss.id,
        "name": boss.boss.name,
        "status": boss.status.value,  # live, felled (its HP brought to 0) or expired (its end time came first)
        "hp": boss.hp,
        "max_hp": boss.max_hp,
        "spawned_at": iso(unix_time(boss.spawned_at)),
        "ends_at": iso(boss.ends_at_unix),
        "ended_at": None if boss.ended_at is None else iso(unix_time(boss.ended_at)),
        "seconds_left": max(0, math.floor(boss.ends_at_unix - now)) if live else 0,
    }


def _streaks(results: Sequence[Result]) -> Document:
    """The longest run of wins, and the run the member is on now (results oldest first)."""
    longest = run = 0
    for result in results:
        run = run + 1 if result is Result.WIN else 0
        longest = max(longest, run)
    current = 0
    for result in reversed(results):
        if result is not results[-1]:
            break
        current += 1
    return {
        "longest_win": longest,
        "current": None if not results else {"result": results[-1].value, "length": current},
    }


def _raid_totals(totals: RaidTotals) -> Document:
    return {
        "damage": round(totals.damage),
        "attacks": totals.attacks,
        "raids": totals.raids,
        "knockouts": totals.knockouts,
        "bosses_felled": totals.bosses_felled,
    }


_MOVES = {
    DRAW: "draws a card",
    SKIP_DRAW: "skips the draw",
    END_TURN: "ends the turn",
    CONCEDE: "concedes",
}


def _move(move: Action | None, names: Sequence[str]) -> str | None:
    if move is None:
        return None
    who = names[move.player]
    if move.kind == PLAY:
        return f"{who} plays {CARDS[move.card].name}"
    if move.kind == DEPLOY:
        return f"{who} sends in {CARDS[move.card].name}"
    return f"{who} {_MOVES.get(move.kind, move.kind)}"


def _step(step: ReplayStep, turn: int, names: Sequence[str]) -> Document:
    state = step.state
    shared = shared_fighters(state)
    lines = [line for line in (describe(event, names, shared) for event in step.events) if line]
    players: list[Document] = []
    for slot, me in enumerate(state.players):
        players.append(
            {
                "fighter": None if me.fighter == NO_ONE else CARDS[me.fighter].name,
                "style": None if me.fighter == NO_ONE else CARDS[me.fighter].style,
                "stamina": me.stamina,
                "max_stamina": me.max_stamina,
                "health": me.health,
                "energy": me.energy,
                "max_energy": MAX_ENERGY,
                "hand": [CARDS[card].name for card in me.hand],
                "hand_limit": HAND_LIMIT,
                "deck": len(me.deck),
                "knockouts": me.knockouts,
                "bleed": me.bleed,
                "staggered": me.staggered,
                "guard": None if me.guard == NO_ONE else CARDS[me.guard].name,
                "advantage": state.advantage == slot,
            }
        )
    return {
        "number": step.number,
        "turn": turn,
        "to_move": None if state.phase == OVER else state.to_move,
        "move": _move(step.move, names),
        "events": lines,
        "players": players,
    }


__all__ = ["PAGE_SIZE", "Document", "NotShown", "Server", "Site"]
