"""The bot itself: its settings, the ArenaBot that loads every game, the watchdog that makes sure every
interaction gets an answer, and the life of the process (start-up, signals, shutdown). `bot.py` starts it."""
