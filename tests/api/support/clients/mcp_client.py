"""An MCP client session run by the official Python SDK (PyPI `mcp`), for the API tests.

Reads {"url", "token", "sessions": N, "steps": [...]} as JSON on stdin; runs N sessions at once, each
initialising and then taking the steps in order; prints {"sessions": [{"server", "protocol",
"results": [...]}, ...]} as JSON. A step is {"tool": name, "args": {...}}, {"list_tools": true},
{"list_resources": true}, {"templates": true} or {"read": uri}.
"""
import asyncio
import json
import sys

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def dump(value):
    return json.loads(value.model_dump_json(by_alias=True, exclude_none=True))


async def session(url, token, steps):
    headers = {"Authorization": f"Bearer {token}"}
    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write) as client:
                init = await client.initialize()
                results = []
                for step in steps:
                    if "tool" in step:
                        result = await client.call_tool(step["tool"], step.get("args", {}))
                    elif step.get("list_tools"):
                        result = await client.list_tools()
                    elif step.get("list_resources"):
                        result = await client.list_resources()
                    elif step.get("templates"):
                        result = await client.list_resource_templates()
                    else:
                        result = await client.read_resource(step["read"])
                    results.append(dump(result))
                return {"server": dump(init.server_info), "protocol": str(init.protocol_version), "results": results}


async def main():
    asked = json.loads(sys.stdin.read())
    runs = [session(asked["url"], asked["token"], asked["steps"]) for _ in range(asked.get("sessions", 1))]
    print(json.dumps({"sessions": await asyncio.gather(*runs)}))


asyncio.run(main())
