"""A small MCP client over Streamable HTTP and stdio, written with the standard library only.

It does what an MCP client library (the Python SDK under langchain-mcp-adapters) does on the wire.
Streamable HTTP: JSON-RPC 2.0 messages POSTed to one endpoint with `Accept: application/json,
text/event-stream`, an answer that is either one JSON body or a Server-Sent Events stream carrying
the response, the `Mcp-Session-Id` the server assigns at `initialize` sent back on every later
request, and `MCP-Protocol-Version` once negotiated. stdio: the server is a child process, one
JSON-RPC message per line each way, its log on stderr. It is hand-written because the seed suites
must run on a bare `python3` (no PyPI), and it covers only what they need: initialize,
notifications/initialized, tools/list (every page), tools/call and closing the session.
"""

from __future__ import annotations

import itertools
import json
import queue
import subprocess
import tempfile
import threading
import urllib.error
import urllib.request
from typing import Any, Iterator

PROTOCOL_VERSION = "2025-06-18"
CLIENT_INFO = {"name": "quiver-seed-python", "version": "0.0.0"}


class McpError(Exception):
    """A JSON-RPC error answer, or an HTTP answer that is not an MCP message."""

    def __init__(self, message: str, code: int | None = None, data: Any = None, status: int | None = None):
        super().__init__(message)
        self.code = code
        self.data = data
        self.status = status


def _sse_events(lines: Iterator[bytes]) -> Iterator[tuple[str, str]]:
    """Yields (event, data) for each Server-Sent Event: `data:` lines joined by newlines, ended by a blank line."""
    event, data = "message", []
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data:
                yield event, "\n".join(data)
            event, data = "message", []
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "data":
                data.append(value)
            elif field == "event":
                event = value
    if data:
        yield event, "\n".join(data)


class McpSession:
    """What every MCP client session does, whatever carries the messages: the handshake and the calls.

    A transport implements `request` (send a JSON-RPC request, return its answer message), `notify`
    and `close`.
    """

    def __init__(self, timeout: float = 60.0):
        self.timeout = timeout
        self.protocol_version: str | None = None
        self.server_info: dict[str, Any] = {}
        self.capabilities: dict[str, Any] = {}
        self._ids = itertools.count(1)

    def __enter__(self) -> "McpSession":
        self.initialize()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _exchange(self, message: dict[str, Any], extra_headers: dict[str, str] | None) -> dict[str, Any]:
        raise NotImplementedError

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        """Sends a JSON-RPC notification."""
        raise NotImplementedError

    def close(self) -> None:
        """Ends the session."""
        raise NotImplementedError

    def request(self, method: str, params: dict[str, Any] | None = None,
                extra_headers: dict[str, str] | None = None) -> Any:
        """Sends a JSON-RPC request and returns its `result` (raises McpError for an `error`)."""
        message = {"jsonrpc": "2.0", "id": next(self._ids), "method": method,
                   **({"params": params} if params is not None else {})}
        answer = self._exchange(message, extra_headers)
        if "error" in answer:
            err = answer["error"]
            raise McpError(f"{method}: {err.get('message')}", err.get("code"), err.get("data"))
        return answer["result"]

    def initialize(self) -> dict[str, Any]:
        """The handshake: `initialize`, then `notifications/initialized`."""
        result = self.request("initialize", {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": CLIENT_INFO,
        })
        self.protocol_version = result.get("protocolVersion", PROTOCOL_VERSION)
        self.server_info = result.get("serverInfo", {})
        self.capabilities = result.get("capabilities", {})
        self.notify("notifications/initialized")
        return result

    def list_tools(self) -> list[dict[str, Any]]:
        """Every tool the server lists, following `nextCursor` across pages."""
        tools: list[dict[str, Any]] = []
        cursor = None
        while True:
            result = self.request("tools/list", {"cursor": cursor} if cursor else {})
            tools.extend(result.get("tools", []))
            cursor = result.get("nextCursor")
            if not cursor:
                return tools

    def call_tool(self, name: str, arguments: dict[str, Any], meta: dict[str, Any] | None = None,
                  extra_headers: dict[str, str] | None = None) -> dict[str, Any]:
        """`tools/call`: the CallToolResult (`content`, `structuredContent`, `isError`)."""
        params: dict[str, Any] = {"name": name, "arguments": arguments}
        if meta:
            params["_meta"] = meta
        return self.request("tools/call", params, extra_headers)


class McpClient(McpSession):
    """One MCP session with a Streamable HTTP server.

    >>> with McpClient("http://127.0.0.1:7333/mcp") as mcp:
    ...     names = [t["name"] for t in mcp.list_tools()]
    ...     result = mcp.call_tool("get_guia", {"key": "evaluación"})
    """

    def __init__(self, url: str, headers: dict[str, str] | None = None, timeout: float = 60.0):
        super().__init__(timeout)
        self.url = url
        self.headers = dict(headers or {})
        self.session_id: str | None = None

    def _post(self, message: dict[str, Any], extra_headers: dict[str, str] | None = None):
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **self.headers,
            **(extra_headers or {}),
        }
        if self.session_id:
            headers["Mcp-Session-Id"] = self.session_id
        if self.protocol_version:
            headers["MCP-Protocol-Version"] = self.protocol_version
        request = urllib.request.Request(
            self.url, data=json.dumps(message).encode("utf-8"), headers=headers, method="POST"
        )
        try:
            return urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as e:
            body = e.read().decode("utf-8", "replace")
            raise McpError(f"HTTP {e.code} from {self.url}: {body[:500]}", status=e.code) from None

    def _exchange(self, message: dict[str, Any], extra_headers: dict[str, str] | None) -> dict[str, Any]:
        id_ = message["id"]
        with self._post(message, extra_headers) as response:
            if message["method"] == "initialize":
                self.session_id = response.headers.get("Mcp-Session-Id") or self.session_id
            content_type = response.headers.get("Content-Type", "")
            if content_type.startswith("text/event-stream"):
                return self._answer_from_stream(response, id_)
            if content_type.startswith("application/json"):
                return self._answer_from_json(json.loads(response.read().decode("utf-8")), id_)
            raise McpError(f"{message['method']}: unexpected content type {content_type!r}", status=response.status)

    @staticmethod
    def _answer_from_json(body: Any, id_: int) -> dict[str, Any]:
        for message in body if isinstance(body, list) else [body]:
            if isinstance(message, dict) and message.get("id") == id_:
                return message
        raise McpError(f"no answer to request {id_} in {json.dumps(body)[:300]}")

    @staticmethod
    def _answer_from_stream(response: Any, id_: int) -> dict[str, Any]:
        # Read event by event and stop at our answer: a server may keep the stream open afterwards.
        for event, data in _sse_events(iter(response.readline, b"")):
            if event != "message" or not data.strip():
                continue
            message = json.loads(data)
            if isinstance(message, dict) and message.get("id") == id_ and ("result" in message or "error" in message):
                return message
        raise McpError(f"the event stream ended without an answer to request {id_}")

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        """Sends a JSON-RPC notification; the server accepts it with 202."""
        message = {"jsonrpc": "2.0", "method": method, **({"params": params} if params is not None else {})}
        with self._post(message) as response:
            response.read()
            if response.status != 202:
                raise McpError(f"{method} answered HTTP {response.status}, not 202", status=response.status)

    def close(self) -> None:
        """Ends the session (`DELETE` with its id); a server that keeps no sessions may refuse it."""
        if not self.session_id:
            return
        headers = {**self.headers, "Mcp-Session-Id": self.session_id}
        if self.protocol_version:
            headers["MCP-Protocol-Version"] = self.protocol_version
        request = urllib.request.Request(self.url, headers=headers, method="DELETE")
        try:
            urllib.request.urlopen(request, timeout=self.timeout).close()
        except (urllib.error.HTTPError, urllib.error.URLError):
            pass
        self.session_id = None


class StdioMcpClient(McpSession):
    """One MCP session with a server run as a child process (`quiver serve --stdio`).

    >>> with StdioMcpClient(["quiver", "serve", "--stdio", "--profile", "code-agent"]) as mcp:
    ...     result = mcp.call_tool("search_documentation", {"query": "useState hook", "library": "react"})
    """

    def __init__(self, command: list[str], env: dict[str, str] | None = None, cwd: str | None = None,
                 timeout: float = 60.0):
        super().__init__(timeout)
        # The server's log goes to a file: a pipe nobody reads would fill up and block it.
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self.log, env=env, cwd=cwd)
        self._lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in iter(self.process.stdout.readline, b""):
            self._lines.put(line)
        self._lines.put(b"")

    def stderr(self) -> str:
        """What the server printed on stderr so far."""
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")

    def _send(self, message: dict[str, Any]) -> None:
        self.process.stdin.write(json.dumps(message).encode("utf-8") + b"\n")
        self.process.stdin.flush()

    def _exchange(self, message: dict[str, Any], extra_headers: dict[str, str] | None) -> dict[str, Any]:
        self._send(message)
        while True:
            try:
                line = self._lines.get(timeout=self.timeout)
            except queue.Empty:
                raise McpError(f"no answer to {message['method']} within {self.timeout} s") from None
            if line == b"":
                raise McpError(f"the server exited before answering {message['method']}:\n{self.stderr()[-2000:]}")
            answer = json.loads(line)
            if answer.get("id") == message["id"] and ("result" in answer or "error" in answer):
                return answer

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, **({"params": params} if params is not None else {})})

    def close(self) -> None:
        """Closes the server's stdin (its signal to exit) and waits for it."""
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        self.log.close()
