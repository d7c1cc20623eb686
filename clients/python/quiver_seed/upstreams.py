"""The harness's emulated upstreams, driven from Python: inject faults, take an upstream down.

The vitest harness (apps/host/test/seed-python/) serves this control API on 127.0.0.1 beside the
emulators and passes its URL as `QUIVER_SEED_CONTROL_URL`:

- `POST /faults` `{"upstream", "method", "path" | "pathRegex", "fault": {...}, "times"?}`: one
  `@quiver/testing` emulator fault (`{"kind": "status", "status": 503}`, `{"kind": "hang"}` ...).
- `DELETE /faults`: clears every fault of every upstream.
- `POST /outages/<upstream>` / `DELETE /outages/<upstream>`: the upstream refuses connections / is back.
- `GET /requests?upstream=&method=&path=`: `{"count": n}`, requests the emulator received there.
"""

from __future__ import annotations

import contextlib
import json
import urllib.parse
import urllib.request
from typing import Any, Iterator

from .settings import require


class Upstreams:
    """A client of the harness's control API."""

    def __init__(self, url: str):
        self.url = url.rstrip("/")

    @classmethod
    def from_env(cls) -> "Upstreams":
        """From `QUIVER_SEED_CONTROL_URL`; skips the test without it (fails in strict mode)."""
        return cls(require("QUIVER_SEED_CONTROL_URL", "these tests make an upstream fail through the harness"))

    def _send(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(
            self.url + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read().decode("utf-8")
        return json.loads(text) if text else None

    def fault(self, upstream: str, method: str, path: str | None = None, fault: dict[str, Any] | None = None,
              *, path_regex: str | None = None, times: int | None = None) -> None:
        """Injects a fault on the upstream's matching requests (every one until `clear()`, or `times`)."""
        body: dict[str, Any] = {"upstream": upstream, "method": method, "fault": fault}
        if path_regex is not None:
            body["pathRegex"] = path_regex
        else:
            body["path"] = path
        if times is not None:
            body["times"] = times
        self._send("POST", "/faults", body)

    def clear(self) -> None:
        """Removes every fault."""
        self._send("DELETE", "/faults")

    @contextlib.contextmanager
    def faulted(self, upstream: str, method: str, path_regex: str, fault: dict[str, Any]) -> Iterator[None]:
        """Every matching request of the upstream faulted for the duration of the block."""
        self.fault(upstream, method, fault=fault, path_regex=path_regex)
        try:
            yield
        finally:
            self.clear()

    @contextlib.contextmanager
    def down(self, upstream: str) -> Iterator[None]:
        """The upstream refuses every connection for the duration of the block."""
        self._send("POST", f"/outages/{urllib.parse.quote(upstream)}")
        try:
            yield
        finally:
            self._send("DELETE", f"/outages/{urllib.parse.quote(upstream)}")

    def request_count(self, upstream: str, method: str, path_regex: str) -> int:
        """How many requests the upstream's emulator received on matching paths."""
        query = urllib.parse.urlencode({"upstream": upstream, "method": method, "pathRegex": path_regex})
        return int(self._send("GET", f"/requests?{query}")["count"])
