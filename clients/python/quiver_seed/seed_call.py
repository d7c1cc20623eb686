"""One `call(tool, arguments)` for a seed system, over Quiver's HTTP API or over MCP (HTTP or stdio).

Each answers exactly what the seed's own Python function returns (a dict, a str, a list) and checks
the profiles' wire contract on the way (apps/host/README.md, "Profiles"):

- HTTP: `POST /tools/<name>/call` answers 200, `application/json`, and the body is the value.
- MCP (Streamable HTTP or stdio): `tools/call` answers `isError: false`, one text content `T` and
  `structuredContent`: the dict itself for a dict, `{"result": value}` for a str or a list; `T` is
  the str itself, else the value's JSON text.

A departure from the wire contract raises `WireError` (an AssertionError, so the test fails there).
"""

from __future__ import annotations

import json
import os
from typing import Any

from .http_client import QuiverHttp
from .mcp_client import McpClient, McpSession, StdioMcpClient
from .settings import quiver_token, quiver_url, require

SESSION_VALUES_META = "quiver/session-values"


class WireError(AssertionError):
    """The answer on the wire is not what the seed-wire contract says."""


class HttpSeed:
    """A seed's tools over Quiver's HTTP API."""

    transport = "http"

    def __init__(self, base_url: str | None = None, token: str | None = None):
        self.http = QuiverHttp(base_url or quiver_url(), token if token is not None else quiver_token())

    def call(self, tool: str, arguments: dict[str, Any], *, session_id: str | None = None,
             session_values: dict[str, Any] | None = None, timeout_ms: int | None = None) -> Any:
        answer = self.http.call_tool(tool, arguments, session_id=session_id,
                                     session_values=session_values, timeout_ms=timeout_ms)
        if answer.status != 200:
            raise WireError(f"POST /tools/{tool}/call answered HTTP {answer.status}: {answer.text[:500]}")
        if not answer.headers.get("content-type", "").startswith("application/json"):
            raise WireError(f"{tool}: content-type {answer.headers.get('content-type')!r}, not application/json")
        return answer.json

    def tool_names(self) -> list[str]:
        answer = self.http.get("/tools")
        if answer.status != 200:
            raise WireError(f"GET /tools answered HTTP {answer.status}: {answer.text[:300]}")
        body = answer.json
        tools = body.get("tools", body) if isinstance(body, dict) else body
        return [t["name"] for t in tools]

    def close(self) -> None:
        pass


def value_of(result: dict[str, Any], tool: str) -> Any:
    """The seed's return value carried by an MCP CallToolResult, after checking its wire shape."""
    if result.get("isError"):
        raise WireError(f"{tool}: isError is true for a seed answer: {json.dumps(result)[:500]}")
    texts = [c for c in result.get("content", []) if c.get("type") == "text"]
    if len(texts) != 1:
        raise WireError(f"{tool}: expected one text content, got {json.dumps(result.get('content'))[:300]}")
    text = texts[0]["text"]
    structured = result.get("structuredContent")
    if not isinstance(structured, dict):
        raise WireError(f"{tool}: structuredContent missing or not an object: {json.dumps(result)[:300]}")
    if set(structured) == {"result"} and isinstance(structured["result"], (str, list)):
        value = structured["result"]
        if isinstance(value, str):
            if text != value:
                raise WireError(f"{tool}: the text {text[:200]!r} is not the str result {value[:200]!r}")
        elif json.loads(text) != value:
            raise WireError(f"{tool}: the text is not the list result's JSON: {text[:200]!r}")
        return value
    if json.loads(text) != structured:
        raise WireError(f"{tool}: the text is not the structured dict's JSON: {text[:200]!r}")
    return structured


class McpSeed:
    """A seed's tools over MCP Streamable HTTP at `<QUIVER_URL>/mcp`.

    Each named session (`session_id`) gets its own MCP session, as each conversation of an agent
    holds its own connection; session values go in the call's `_meta["quiver/session-values"]`.
    """

    transport = "mcp"

    def __init__(self, base_url: str | None = None, token: str | None = None,
                 headers: dict[str, str] | None = None):
        self.url = (base_url or quiver_url()) + "/mcp"
        token = token if token is not None else quiver_token()
        self.headers = {**({"Authorization": f"Bearer {token}"} if token else {}), **(headers or {})}
        self._clients: dict[str | None, McpSession] = {}

    def _open(self, session_id: str | None) -> McpSession:
        headers = dict(self.headers)
        if session_id:
            headers["X-Quiver-Session"] = session_id
        return McpClient(self.url, headers)

    def client(self, session_id: str | None = None) -> McpSession:
        """The MCP session for a conversation (opened on first use)."""
        if session_id not in self._clients:
            client = self._open(session_id)
            client.initialize()
            self._clients[session_id] = client
        return self._clients[session_id]

    def call(self, tool: str, arguments: dict[str, Any], *, session_id: str | None = None,
             session_values: dict[str, Any] | None = None, timeout_ms: int | None = None) -> Any:
        meta: dict[str, Any] = {}
        if session_values is not None:
            meta[SESSION_VALUES_META] = session_values
        if timeout_ms is not None:
            meta["timeoutMs"] = timeout_ms
        return value_of(self.client(session_id).call_tool(tool, arguments, meta or None), tool)

    def list_tools(self) -> list[dict[str, Any]]:
        return self.client().list_tools()

    def tool_names(self) -> list[str]:
        return [t["name"] for t in self.list_tools()]

    def close(self) -> None:
        for client in self._clients.values():
            client.close()
        self._clients.clear()


class StdioSeed(McpSeed):
    """A seed's tools over MCP stdio: `quiver serve --stdio --profile …` as a child process.

    The command is `QUIVER_STDIO_COMMAND` (a JSON array), run in `QUIVER_STDIO_CWD` with `PATH`, `HOME`
    and the variables of `QUIVER_STDIO_ENV` (a JSON object). One process is one MCP session, so each
    named session (a conversation) gets its own process.
    """

    transport = "stdio"

    def __init__(self, env_overrides: dict[str, str | None] | None = None):
        super().__init__()
        self.command = json.loads(require("QUIVER_STDIO_COMMAND", "the command that starts quiver serve --stdio"))
        self.cwd = os.environ.get("QUIVER_STDIO_CWD") or None
        env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG") if k in os.environ}
        env.update(json.loads(os.environ.get("QUIVER_STDIO_ENV", "{}")))
        for name, value in (env_overrides or {}).items():
            if value is None:
                env.pop(name, None)
            else:
                env[name] = value
        self.env = env

    def _open(self, session_id: str | None) -> McpSession:
        return StdioMcpClient(self.command, self.env, self.cwd)
