"""Where the suites find the server and the harness: environment variables, one place.

| variable | what |
|---|---|
| `QUIVER_URL` | the `quiver serve --profile …` under test (default `http://127.0.0.1:7333`) |
| `QUIVER_TOKEN` | bearer token for it, when it has `tokens` |
| `QUIVER_SEED_CONTROL_URL` | the harness's control of the emulated upstreams (faults, outages) |
| `QUIVER_SEED_STRICT` | `1`: a missing setting fails the test instead of skipping it (CI) |

Profile suites name the few more they need (see each test module and the README).
"""

from __future__ import annotations

import os
import unittest

DEFAULT_URL = "http://127.0.0.1:7333"


def strict() -> bool:
    """True when every test must run (the vitest harness sets it): nothing may be skipped."""
    return os.environ.get("QUIVER_SEED_STRICT") == "1"


def quiver_url() -> str:
    """The server under test."""
    return os.environ.get("QUIVER_URL", DEFAULT_URL).rstrip("/")


def quiver_token() -> str | None:
    """The bearer token for the server under test, if any."""
    return os.environ.get("QUIVER_TOKEN") or None


def require(name: str, why: str) -> str:
    """The variable's value; without it the test is skipped with the reason (failed in strict mode)."""
    value = os.environ.get(name)
    if value:
        return value
    message = f"{name} is not set: {why}"
    if strict():
        raise AssertionError(message)
    raise unittest.SkipTest(message)
