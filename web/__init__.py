"""Arena on the web: read-only pages over the bot's database (a server's leaderboard, a member, a match's
replay, a tournament), each also as JSON. Served in the bot's process when WEB_PORT is set, or alone by
`python -m web` (any number of processes reading PostgreSQL behind a proxy)."""
