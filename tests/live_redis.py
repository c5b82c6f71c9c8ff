"""A Redis of a test's own, and a proxy in front of one whose connections can be frozen:
for the live tables' tests that kill, restart or freeze the channel layer's Redis."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time

import pytest


class Redis:
    """A Redis of this test's own, so that killing it touches nothing else."""

    def __init__(self) -> None:
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        server = shutil.which("redis-server")
        assert server, "redis-server is installed by the test command"
        self.process = subprocess.Popen(
            [
                server,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        pytest.fail("the test's Redis did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait()


class FreezingProxy:
    """A TCP proxy in front of Redis whose connections made so far can be frozen: they
    stay open and carry nothing, as a pooled connection whose peer went away without a
    word (Redis restarted elsewhere, a NAT forgot it); new connections reach Redis."""

    def __init__(self, host: str, port: int) -> None:
        self.upstream = (host, port)
        self.frozen: list[asyncio.Event] = []
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        frozen = asyncio.Event()
        self.frozen.append(frozen)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            while data := await src.read(65536):
                if frozen.is_set():
                    return  # swallowed: the other side waits for an answer
                dst.write(data)
                await dst.drain()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def freeze(self) -> None:
        for frozen in self.frozen:
            frozen.set()

    def close(self) -> None:
        assert self.server is not None
        self.server.close()
