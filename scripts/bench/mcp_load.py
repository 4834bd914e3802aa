"""Load for scripts/bench/agents.sh through the official MCP client (PyPI `mcp`).

  mcp_load.py URL TOKEN calls SESSIONS SECONDS TOOL ARGS_FILE
      SESSIONS sessions at once, each calling TOOL in a loop for SECONDS with arguments taken in turn
      from ARGS_FILE (one JSON object per line); prints calls, calls/s, p50, p99 and errors as JSON.
  mcp_load.py URL TOKEN open COUNT
      opens COUNT sessions (initialised, kept open), prints "ready" and waits for a line on stdin.
"""
import asyncio
import json
import sys
import time

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


async def calls(url, token, sessions, seconds, tool, args):
    latencies, errors = [], 0
    deadline = time.monotonic() + seconds

    async def one(index):
        nonlocal errors
        async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http:
            async with streamable_http_client(url, http_client=http) as streams:
                async with ClientSession(streams[0], streams[1]) as session:
                    await session.initialize()
                    turn = index
                    while time.monotonic() < deadline:
                        started = time.perf_counter()
                        result = await session.call_tool(tool, args[turn % len(args)])
                        latencies.append(time.perf_counter() - started)
                        errors += bool(result.is_error)
                        turn += sessions

    began = time.monotonic()
    await asyncio.gather(*(one(i) for i in range(sessions)))
    elapsed = time.monotonic() - began
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
    print(json.dumps({"calls": len(latencies), "per_second": len(latencies) / elapsed, "p50_ms": pick(0.50),
                      "p99_ms": pick(0.99), "errors": errors}))


async def hold_open(url, token, count):
    ready = asyncio.Event()
    opened = 0

    async def one():
        nonlocal opened
        async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http:
            async with streamable_http_client(url, http_client=http, terminate_on_close=False) as streams:
                async with ClientSession(streams[0], streams[1]) as session:
                    await session.initialize()
                    opened += 1
                    if opened == count:
                        ready.set()
                    await release.wait()

    release = asyncio.Event()
    tasks = []
    for start in range(0, count, 50):
        tasks += [asyncio.create_task(one()) for _ in range(start, min(count, start + 50))]
        await asyncio.sleep(0.2)
    await ready.wait()
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    release.set()
    await asyncio.gather(*tasks, return_exceptions=True)


url, token, mode = sys.argv[1:4]
if mode == "open":
    asyncio.run(hold_open(url, token, int(sys.argv[4])))
else:
    sessions, seconds, tool, file = int(sys.argv[4]), float(sys.argv[5]), sys.argv[6], sys.argv[7]
    args = [json.loads(line) for line in open(file) if line.strip()]
    asyncio.run(calls(url, token, sessions, seconds, tool, args))
