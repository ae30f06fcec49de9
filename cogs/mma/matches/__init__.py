"""MMA's matches, driven by the `MatchDesk` (`desk`): `challenges` (starting matches), `clicks` (the route of a
click) and `moves` (the moves through the one driver), `boards` (the match's message), `claims` (the idle claim's
timers), `hands` (the open hand views), `pings` and `notes` (the words beside the board), `render` and
`hand_render` (drawing)."""
