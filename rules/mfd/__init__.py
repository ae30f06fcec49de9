"""Marked for Death: large battles between a heroes CSV and a villains CSV, round by round, with odds.

- `roster`: reading a side's CSV (located errors, warnings) and writing the final CSV (survivors + HP).
- `engine`: derived stats, the vectorized round, `run_battle` and the batched `simulate_odds`. Its
  docstring lists every choice made where the rules are silent.
- `log`: the readable battle log, kept within 10 MiB.
- `battle`: start and continue a battle (the state keeps the random stream); `odds`: rates and intervals;
  `chart`: the odds as a PNG.
- `cli`: `python -m rules mfd --heroes H.csv --villains V.csv [-m ROUNDS] [--seed N] [--out DIR]`.
"""
