"""MMA's ratings and past matches, driven by the `RivalryDesk` (`desk`): `records` (stats, leaderboard, history,
replay and the clicks on their buttons), `items` (those buttons), `render` and `replay_render` (drawing)."""
