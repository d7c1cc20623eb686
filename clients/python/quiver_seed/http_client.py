"""Quiver's HTTP API from the standard library: `POST /tools/<name>/call` and plain JSON requests."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any


@dataclass
class HttpAnswer:
    """An HTTP answer: its status, headers (lower-case names), raw body and the body parsed as JSON."""

    status: int
    headers: dict[str, str]
    text: str
    json: Any = field(default=None)


class QuiverHttp:
    """A client of one `quiver serve`.

    >>> quiver = QuiverHttp("http://127.0.0.1:7333")
    >>> quiver.call_tool("rag_search", {"query": "evaluación"}, session_values={"asignatura": "metaheuristicas"}).json
    """

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 60.0):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def _headers(self, extra: dict[str, str] | None) -> dict[str, str]:
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        headers.update(extra or {})
        return headers

    def send(self, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None) -> HttpAnswer:
        """Any request; an HTTP error status is an answer too, never an exception."""
        request = urllib.request.Request(
            self.base_url + path, data=body, headers=self._headers(headers), method=method
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                status, raw, hdrs = response.status, response.read(), response.headers
        except urllib.error.HTTPError as e:
            status, raw, hdrs = e.code, e.read(), e.headers
        text = raw.decode("utf-8")
        answer = HttpAnswer(status, {k.lower(): v for k, v in hdrs.items()}, text)
        if answer.headers.get("content-type", "").startswith("application/json") and text:
            answer.json = json.loads(text)
        return answer

    def get(self, path: str) -> HttpAnswer:
        """`GET path`."""
        return self.send("GET", path)

    def post_json(self, path: str, value: Any, headers: dict[str, str] | None = None) -> HttpAnswer:
        """`POST path` with a JSON body."""
        return self.send("POST", path, json.dumps(value).encode("utf-8"),
                         {"Content-Type": "application/json", **(headers or {})})

    def call_tool(self, name: str, arguments: dict[str, Any], *, session_id: str | None = None,
                  session_values: dict[str, Any] | None = None, timeout_ms: int | None = None) -> HttpAnswer:
        """`POST /tools/<name>/call` with the keyword arguments as the body, and the session headers."""
        headers: dict[str, str] = {}
        if session_id:
            headers["X-Quiver-Session"] = session_id
        if session_values is not None:
            headers["X-Quiver-Session-Values"] = json.dumps(session_values, ensure_ascii=True)
        if timeout_ms is not None:
            headers["X-Quiver-Timeout-Ms"] = str(timeout_ms)
        return self.post_json(f"/tools/{urllib.parse.quote(name, safe='')}/call", arguments, headers)
