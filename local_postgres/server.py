"""A throwaway PostgreSQL server for the tests and benchmarks/storage.py: a new cluster in a temporary folder, on a
free loopback port, stopped and removed at the end.

Debian's server package keeps initdb and pg_ctl in its own folder (/usr/lib/postgresql/<version>/bin), off
PATH. initdb refuses to run as root, so as root the cluster belongs to the `postgres` user. Where no server is
installed, `PostgresServer.start` raises `PostgresMissing` with what to install: the tests that need it skip
with that sentence (`.ci/run` installs the package, so CI runs them).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

INSTALL_HINT = (
    "PostgreSQL's server is not installed: `apt-get install postgresql` (Debian), or put initdb and pg_ctl on "
    "PATH, to run the PostgreSQL tests"
)


class PostgresMissing(Exception):
    pass


def server_bin() -> Path:
    """The folder of initdb and pg_ctl: on PATH, or Debian's newest version folder."""
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if not found:
        raise PostgresMissing(INSTALL_HINT)
    return Path(found[-1]).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class PostgresServer:
    folder: Path
    port: int
    bin: Path
    as_user: list[str]  # runs a command as the cluster's owner (`postgres` when we are root)

    @property
    def url(self) -> str:
        return self.database_url("postgres")

    def database_url(self, name: str) -> str:
        return f"postgresql://arena@127.0.0.1:{self.port}/{name}"

    @classmethod
    def start(cls) -> PostgresServer:
        bin_folder = server_bin()
        folder = Path(tempfile.mkdtemp(prefix="arena-pg-"))
        as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres")
            as_user = ["runuser", "-u", "postgres", "--"]
        server = cls(folder, free_port(), bin_folder, as_user)
        data = folder / "data"
        server._run("initdb", "-D", str(data), "-U", "arena", "-A", "trust", "--no-sync", "-E", "UTF8")
        server.resume()
        return server

    async def create_database(self, name: str) -> str:
        """A new, empty database `name` on this server: its URL."""
        import asyncpg

        admin = await asyncpg.connect(self.url)
        try:
            await admin.execute(f"CREATE DATABASE {name}")
        finally:
            await admin.close()
        return self.database_url(name)

    def resume(self) -> None:
        """Start the server (again, after `pause`), on its port."""
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        data, log = str(self.folder / "data"), str(self.folder / "server.log")
        self._run("pg_ctl", "-D", data, "-o", options, "-l", log, "-w", "start")

    def pause(self) -> None:
        """Stop the server, keeping its data, as an outage would (`resume` brings it back)."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")

    def stop(self) -> None:
        try:
            self.pause()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            [*self.as_user, str(self.bin / program), *args],
            check=True,
            capture_output=True,
            text=True,
            timeout=60,
        )
