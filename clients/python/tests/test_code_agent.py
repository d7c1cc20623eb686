"""The code agent's external tools (`ExternalToolsMixin`) answered by `quiver serve --profile code-agent`.

The agent calls `search_documentation(query, library=None)` (Context7) and `search_web(query)`
(Perplexity) and reads back the dicts its mixin returned (the contract: packages/adapters/README.md,
"Seed systems"). Every case runs over Quiver's HTTP API and over MCP, the agent's own way to reach external services: Streamable HTTP, and
stdio (the server as the agent's child process).

Environment: `QUIVER_URL`; `QUIVER_URL_NO_PERPLEXITY_KEY`, the same profile started without
`PERPLEXITY_API_KEY` (their test deletes the variable); `QUIVER_SEED_CONTROL_URL` to take Context7
down or make an upstream answer 503; `QUIVER_STDIO_COMMAND` (a JSON array), `QUIVER_STDIO_CWD` and
`QUIVER_STDIO_ENV` (a JSON object of variables) to start the profile over stdio.
"""

from __future__ import annotations

import unittest
import uuid
from typing import Any

from quiver_seed.seed_call import HttpSeed, McpSeed, StdioSeed
from quiver_seed.settings import require
from quiver_seed.upstreams import Upstreams

UNAVAILABLE_ERROR = "Context7 not available. Use your embedded knowledge for this pattern."
ALL_REQUESTS = ".*"
SERVICE_UNAVAILABLE = {"kind": "status", "status": 503}


class CodeAgentTools:
    """The mixin's two tools as the agent calls them, each answered by Quiver."""

    def __init__(self, seed: Any):
        self.seed = seed

    def search_documentation(self, query: str, library: str | None = None, *,
                             session_id: str | None = None) -> dict[str, Any]:
        args: dict[str, Any] = {"query": query}
        if library is not None:
            args["library"] = library
        return self.seed.call("search_documentation", args, session_id=session_id)

    def search_web(self, query: str, *, session_id: str | None = None) -> dict[str, Any]:
        return self.seed.call("search_web", {"query": query}, session_id=session_id)


class CodeAgentCases:
    """The cases, run once per transport by the classes below."""

    make_seed: Any = None

    @classmethod
    def setUpClass(cls) -> None:
        cls.seed = cls.make_seed()
        cls.tools = CodeAgentTools(cls.seed)
        # Queries that must fail are new to the server: a question answered before would come back
        # from the stale-result fallback instead of failing.
        cls.tag = uuid.uuid4().hex[:8]

    @classmethod
    def tearDownClass(cls) -> None:
        cls.seed.close()

    # -- shapes ---------------------------------------------------------------------------------

    def assert_strings_never_none(self, result: dict[str, Any], *keys: str) -> None:
        self.assertIsInstance(result, dict)
        self.assertIsInstance(result.get("success"), bool, result)
        for key in keys:
            if key in result:
                self.assertIsInstance(result[key], str, f"{key} must be a str, never None: {result}")

    def assert_unavailable(self, result: dict[str, Any]) -> None:
        """The mixin's answer when Context7 is not there."""
        self.assert_strings_never_none(result, "documentation", "error", "guidance")
        self.assertIs(result["success"], False, result)
        self.assertEqual(result["documentation"], "")
        self.assertEqual(result["error"], UNAVAILABLE_ERROR)
        self.assertIn("embedded knowledge", result["guidance"])  # their test's assertion
        self.assertIn("escalate", result["guidance"])
        self.assertIs(result["unavailable"], True)

    # -- search_documentation -------------------------------------------------------------------

    def test_lists_the_mixins_tools(self) -> None:
        names = self.seed.tool_names()
        self.assertIn("search_documentation", names)
        self.assertIn("search_web", names)
        # The usual tools stay served under their own names beside the profile's.
        self.assertIn("context7_search_documentation", names)
        self.assertIn("perplexity_search_web", names)

    def test_search_documentation_use_state_hook_in_react(self) -> None:
        # The docstring's example and their test: search_documentation("useState hook", library="react").
        result = self.tools.search_documentation("useState hook", library="react")
        self.assert_strings_never_none(result, "documentation", "error", "guidance")
        self.assertIs(result["success"], True, result)
        self.assertIn("useState", result["documentation"])
        self.assertIsNot(result.get("unavailable"), True, result)

    def test_search_documentation_without_a_library_keeps_the_shape(self) -> None:
        # The docstring's other example: search_documentation("async/await best practices").
        result = self.tools.search_documentation("async/await best practices")
        self.assert_strings_never_none(result, "documentation", "error", "guidance")
        if result["success"]:
            self.assertTrue(result["documentation"])
        else:
            self.assertEqual(result["documentation"], "")
            self.assertTrue(result["error"])

    def test_search_documentation_unavailable_when_context7_is_down(self) -> None:
        with Upstreams.from_env().down("context7"):
            result = self.tools.search_documentation(f"useEffect cleanup {self.tag}", library="react")
        self.assert_unavailable(result)

    def test_search_documentation_unavailable_when_context7_answers_503(self) -> None:
        with Upstreams.from_env().faulted("context7", "*", ALL_REQUESTS, SERVICE_UNAVAILABLE):
            result = self.tools.search_documentation(f"useReducer hook {self.tag}", library="react")
        self.assert_unavailable(result)

    def test_search_documentation_failed_search_is_an_error_not_unavailable(self) -> None:
        # Service up, search failed: {"success": False, "documentation": "", "error": "<message>"}.
        result = self.tools.search_documentation("routing", library=f"no-such-library-{self.tag}")
        self.assert_strings_never_none(result, "documentation", "error", "guidance")
        self.assertIs(result["success"], False, result)
        self.assertEqual(result["documentation"], "")
        self.assertTrue(result["error"], result)
        self.assertNotEqual(result["error"], UNAVAILABLE_ERROR)
        self.assertIsNot(result.get("unavailable"), True, result)

    def test_escalates_after_two_failures_in_a_session(self) -> None:
        # The guidance says: "If you encounter errors after 2 attempts, escalate to the user."
        session = f"code-agent-{self.tag}-{self.seed.transport}"
        with Upstreams.from_env().down("context7"):
            first = self.tools.search_documentation(f"useMemo {self.tag}", library="react", session_id=session)
            second = self.tools.search_documentation(f"useMemo {self.tag}", library="react", session_id=session)
        self.assert_unavailable(first)
        self.assertIsNot(first.get("escalate"), True, first)
        self.assert_unavailable(second)
        self.assertIs(second.get("escalate"), True, second)
        self.assertIn("user", second["guidance"].lower())

    # -- search_web -----------------------------------------------------------------------------

    def test_search_web_python_async_best_practices(self) -> None:
        # The docstring's example and their test: the answer is written text that mentions async.
        result = self.tools.search_web("Python async best practices 2025")
        self.assert_strings_never_none(result, "answer", "error")
        self.assertIs(result["success"], True, result)
        self.assertIn("async", result["answer"])

    def test_search_web_failure_is_success_false_with_an_error(self) -> None:
        with Upstreams.from_env().faulted("perplexity", "POST", ALL_REQUESTS, SERVICE_UNAVAILABLE):
            result = self.tools.search_web(f"Python 3.13 asyncio changes {self.tag}")
        self.assert_strings_never_none(result, "answer", "error")
        self.assertIs(result["success"], False, result)
        self.assertEqual(result["answer"], "")
        self.assertTrue(result["error"])

    def test_search_web_without_perplexity_api_key(self) -> None:
        # Their test deletes PERPLEXITY_API_KEY and asserts success is False and error is present.
        seed = self.seed_without_perplexity_key()
        try:
            result = CodeAgentTools(seed).search_web("Python async best practices 2025")
        finally:
            seed.close()
        self.assert_strings_never_none(result, "answer", "error")
        self.assertIs(result["success"], False, result)
        self.assertIn("error", result)
        self.assertTrue(result["error"])
        self.assertEqual(result["answer"], "")


    def seed_without_perplexity_key(self) -> Any:
        """The same profile, started without PERPLEXITY_API_KEY."""
        return self.make_seed(require("QUIVER_URL_NO_PERPLEXITY_KEY", "the profile started without PERPLEXITY_API_KEY"))


class CodeAgentOverHttp(CodeAgentCases, unittest.TestCase):
    """`POST /tools/<name>/call`."""

    make_seed = HttpSeed


class CodeAgentOverMcp(CodeAgentCases, unittest.TestCase):
    """MCP Streamable HTTP at /mcp."""

    make_seed = McpSeed

    def test_tools_list_gives_the_mixins_signatures(self) -> None:
        tools = {t["name"]: t for t in self.seed.list_tools()}
        docs = tools["search_documentation"]["inputSchema"]
        self.assertEqual(docs.get("type"), "object")
        self.assertEqual(set(docs["properties"]), {"query", "library"})
        self.assertEqual(docs.get("required"), ["query"])
        web = tools["search_web"]["inputSchema"]
        self.assertEqual(set(web["properties"]), {"query"})
        self.assertEqual(web.get("required"), ["query"])


class CodeAgentOverStdio(CodeAgentCases, unittest.TestCase):
    """MCP stdio: the agent starts `quiver serve --stdio --profile code-agent` as its MCP server."""

    make_seed = StdioSeed

    def seed_without_perplexity_key(self) -> Any:
        return StdioSeed(env_overrides={"PERPLEXITY_API_KEY": None})


if __name__ == "__main__":
    unittest.main()
