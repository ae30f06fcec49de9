"""mma_moves: each match's moves in order, appended in the transaction that saves the state after them."""

from __future__ import annotations

import json

from rules.mma.state import Action
from storage.protocol import Storage, StorageTransaction
from storage.times import stored_time


async def append(conn: StorageTransaction, match_id: int, first: int, moves: list[Action], now: float) -> None:
    """`moves`, numbered from `first` (the state's move count before them)."""
    await conn.execute_many(
        "INSERT INTO mma_moves (match_id, seq, slot, action_json, made_at) VALUES (?, ?, ?, ?, ?)",
        [
            (match_id, first + i, action.player, json.dumps(action.to_dict()), stored_time(now))
            for i, action in enumerate(moves)
        ],
    )


async def of_match(db: Storage, match_id: int) -> list[Action]:
    rows = await db.fetch_all("SELECT action_json FROM mma_moves WHERE match_id = ? ORDER BY seq", (match_id,))
    return [Action.from_dict(json.loads(r["action_json"])) for r in rows]
