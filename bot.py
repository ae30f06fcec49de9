"""Arena's entry point: `make run` starts this file. Settings come from the environment and `.env` (see
.env.example); the bot itself is the package `arena/`."""

import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from arena.lifecycle import main

    main()
