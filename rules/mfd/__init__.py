"""Marked for Death: large battles between a heroes CSV and a villains CSV, round by round, with odds.

- `roster`: reading a side's CSV (located errors, warnings one line per kind) and writing the final CSV
  (survivors + HP, every buff group of the input). Its docstring lists the choices made for the files.
- `engine`: derived stats, the vectorized round, `run_battle` and the batched `simulate_odds`. Its
  docstring lists every choice made for the rounds where the rules are silent.
- `log`: the readable battle log, kept within 10 MiB.
- `battle`: start and continue a battle (the state keeps the random stream and who fell; its docstring
  says how continuing from the battle's own final CSVs gives no warnings about the fallen); `odds`: rates
  and intervals; `chart`: the odds as a PNG.
- `cli`: `python -m rules mfd --heroes H.csv --villains V.csv [-m ROUNDS] [--seed N] [--out DIR]`.
"""
