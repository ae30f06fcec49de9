"""Charts drawn again and again on figures set up once: a chart's axes, labels and grid cost as much as drawing
it, so each kind keeps its figures and draws only what changed (the MfD battle chart, the /deck winrate chart).
A figure is not safe to share between threads, so each chart takes an idle one (a new one when all are in use)
and gives it back."""

from __future__ import annotations

import queue
from collections.abc import Callable, Generator
from contextlib import contextmanager
from typing import Generic, TypeVar

T = TypeVar("T")


class FigurePool(Generic[T]):
    def __init__(self, new: Callable[[], T]):
        self._new = new
        self._idle: queue.SimpleQueue[T] = queue.SimpleQueue()

    def prepare(self) -> None:
        """Set up an idle figure ahead of the first chart, whose wait it takes off."""
        self._idle.put(self._new())

    @contextmanager
    def taken(self) -> Generator[T, None, None]:
        try:
            figure = self._idle.get_nowait()
        except queue.Empty:
            figure = self._new()
        try:
            yield figure
        finally:
            self._idle.put(figure)


__all__ = ["FigurePool"]
