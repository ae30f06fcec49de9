"""A random source whose rolls a test chooses."""

import random


class ScriptedRandom(random.Random):
    """random() returns the given values in order, so a test can choose every roll."""

    def __init__(self, *values: float):
        super().__init__(0)
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0)
