"""A TCP proxy on loopback that holds every chunk for a fixed delay each way: a database server "machines
apart" from the bot, for the tests and `benchmarks/storage.py`. Bytes keep their order; nothing is dropped."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass


@dataclass
class DelayProxy:
    port: int

    def url(self, database_url: str) -> str:
        """`database_url` (a loopback PostgreSQL URL) through the proxy."""
        head, _, tail = database_url.rpartition(":")
        return f"{head}:{self.port}/{tail.split('/', 1)[1]}"


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    loop = asyncio.get_running_loop()
    chunks: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def deliver() -> None:
        while True:
            due, data = await chunks.get()
            if not data:
                break
            await asyncio.sleep(max(0.0, due - loop.time()))
            writer.write(data)
            await writer.drain()

    delivering = asyncio.create_task(deliver())
    try:
        while data := await reader.read(65536):
            chunks.put_nowait((loop.time() + delay, data))
    except ConnectionError:
        pass
    finally:
        chunks.put_nowait((0.0, b""))
        with contextlib.suppress(ConnectionError):
            await delivering
        writer.close()


@contextlib.asynccontextmanager
async def delay_proxy(target_port: int, delay: float) -> AsyncIterator[DelayProxy]:
    """A proxy to 127.0.0.1:`target_port` adding `delay` seconds each way (a round trip costs twice that),
    running until the block ends."""
    pumps: set[asyncio.Task[None]] = set()

    async def connected(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target_port)
        for task in (
            asyncio.create_task(_pump(client_reader, server_writer, delay)),
            asyncio.create_task(_pump(server_reader, client_writer, delay)),
        ):
            pumps.add(task)
            task.add_done_callback(pumps.discard)

    server = await asyncio.start_server(connected, "127.0.0.1", 0)
    try:
        yield DelayProxy(server.sockets[0].getsockname()[1])
    finally:
        server.close()
        for task in list(pumps):
            task.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)
