"""MMA's Swiss tournaments, driven by the `TournamentDesk` (`desk`): `commands` (the commands and the sign-up
buttons), `rounds` (the driver: each step done from the stored state, so a restart resumes), `tables` (history,
crosstable) and `render`."""
