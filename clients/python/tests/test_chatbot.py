"""The course chatbot's LangGraph tools answered by `quiver serve --profile chatbot`.

The chatbot's graph calls `rag_search`, `get_guia` and `generate_test` (the contract:
packages/adapters/README.md, "Seed systems") and its state holds the student's `asignatura`: the
model never chooses it, the state's value overrides the model's. Over HTTP the state travels as `X-Quiver-Session-Values`; over MCP as
`_meta["quiver/session-values"]` on the call or as that header on the connection (what
langchain-mcp-adapters' `headers` sends). Every case runs over HTTP, MCP Streamable HTTP and stdio.

Environment: `QUIVER_URL`, the profile in demo mode (the shipped UGR guides and course material);
its backend (`BACKEND_SERVICE_URL`, the harness's) holds one professor's test preferences;
`QUIVER_URL_RAG_SERVICE`, the profile with `RAG_SERVICE_URL` set (the chatbot's own RAG service);
`QUIVER_SEED_CONTROL_URL` to make that service hang, fail or go away; `QUIVER_STDIO_COMMAND`,
`QUIVER_STDIO_CWD` and `QUIVER_STDIO_ENV` to start the demo profile over stdio.
"""

from __future__ import annotations

import json
import time
import unittest
from typing import Any

from quiver_seed.seed_call import HttpSeed, McpSeed, StdioSeed
from quiver_seed.settings import require
from quiver_seed.upstreams import Upstreams
from tests.repo_data import guide, squash

METAHEURISTICAS = "metaheuristicas"
MAC = "modelos_avanzados_computacion"
SUMMARY_KEYS = {"subject", "asignatura", "grado", "curso", "url", "brief_description"}


class ChatbotTools:
    """The chatbot's tools as its graph calls them: the arguments the model gave, `asignatura` from the state."""

    def __init__(self, seed: Any, state: dict[str, Any] | None = None):
        self.seed = seed
        self.state = state

    def _call(self, tool: str, **kwargs: Any) -> Any:
        args = {k: v for k, v in kwargs.items() if v is not None}
        return self.seed.call(tool, args, session_values=self.state)

    def rag_search(self, query: str, asignatura: str | None = None, tipo_documento: str | None = None,
                   top_k: int | None = None) -> dict[str, Any]:
        return self._call("rag_search", query=query, asignatura=asignatura,
                          tipo_documento=tipo_documento, top_k=top_k)

    def get_guia(self, asignatura: str | None = None, key: str | None = None) -> str:
        return self._call("get_guia", asignatura=asignatura, key=key)

    def generate_test(self, topic: str, num_questions: int | None = None, difficulty: str | None = None,
                      context: str | None = None, asignatura: str | None = None) -> list[dict[str, Any]]:
        return self._call("generate_test", topic=topic, num_questions=num_questions, difficulty=difficulty,
                          context=context, asignatura=asignatura)


class ChatbotCases:
    """The cases, run once per transport by the classes below."""

    make_seed: Any = None

    @classmethod
    def setUpClass(cls) -> None:
        cls.seed = cls.make_seed()
        cls.student = ChatbotTools(cls.seed, {"asignatura": METAHEURISTICAS})

    @classmethod
    def tearDownClass(cls) -> None:
        cls.seed.close()

    def tools_for(self, state: dict[str, Any] | None) -> ChatbotTools:
        return ChatbotTools(self.seed, state)

    # -- shapes ---------------------------------------------------------------------------------

    def assert_rag_success(self, result: dict[str, Any], query: str) -> None:
        self.assertIsInstance(result, dict)
        self.assertIs(result.get("ok"), True, result)  # their test: result["ok"] is True
        self.assertGreater(len(result["results"]), 0)  # their test: len(result["results"]) > 0
        self.assertEqual(result["total_results"], len(result["results"]))
        self.assertEqual(result["query"], query)
        for hit in result["results"]:
            self.assertEqual(set(hit), {"content", "metadata", "score"}, hit)
            self.assertIsInstance(hit["content"], str)
            self.assertTrue(hit["content"])
            self.assertIsInstance(hit["metadata"], dict)
            self.assertIsInstance(hit["metadata"].get("source"), str, hit)
            self.assertIsInstance(hit["score"], (int, float))

    def assert_question(self, item: dict[str, Any]) -> None:
        """A MultipleChoiceTest: {"question": {"question_text", "difficulty"}, "options": [Answer]}."""
        self.assertEqual(set(item), {"question", "options"}, item)
        self.assertEqual(set(item["question"]), {"question_text", "difficulty"}, item)
        self.assertIsInstance(item["question"]["question_text"], str)
        self.assertTrue(item["question"]["question_text"])
        self.assertIn(item["question"]["difficulty"], ("easy", "medium", "hard"))
        self.assertIsInstance(item["options"], list)
        for option in item["options"]:
            self.assertEqual(set(option), {"answer_text", "is_correct"}, option)
            self.assertIsInstance(option["answer_text"], str)
            self.assertIsInstance(option["is_correct"], bool)

    # -- the tools are there --------------------------------------------------------------------

    def test_lists_the_chatbots_tools(self) -> None:
        names = self.seed.tool_names()
        for name in ("rag_search", "get_guia", "generate_test"):
            self.assertIn(name, names)
        # The usual tools stay served under their own names beside the profile's.
        self.assertIn("guia_get_guide", names)
        self.assertIn("testgen_generate_test", names)

    # -- rag_search -----------------------------------------------------------------------------

    def test_rag_search_finds_course_material_of_the_states_subject(self) -> None:
        query = "¿Cómo se evalúa la asignatura?"
        result = self.student.rag_search(query)
        self.assert_rag_success(result, query)
        for hit in result["results"]:
            self.assertEqual(hit["metadata"].get("asignatura"), METAHEURISTICAS, hit)

    def test_rag_search_state_overrides_the_models_asignatura(self) -> None:
        query = "bibliografía fundamental"
        result = self.student.rag_search(query, asignatura=MAC)
        self.assert_rag_success(result, query)
        for hit in result["results"]:
            self.assertEqual(hit["metadata"].get("asignatura"), METAHEURISTICAS, hit)
        other = self.tools_for({"asignatura": MAC}).rag_search(query, asignatura=METAHEURISTICAS)
        self.assert_rag_success(other, query)
        for hit in other["results"]:
            self.assertEqual(hit["metadata"].get("asignatura"), MAC, hit)

    def test_rag_search_top_k(self) -> None:
        result = self.student.rag_search("algoritmos genéticos", top_k=2)
        self.assert_rag_success(result, "algoritmos genéticos")
        self.assertLessEqual(len(result["results"]), 2)

    # -- get_guia -------------------------------------------------------------------------------

    def test_get_guia_summary_is_a_json_string(self) -> None:
        for subject in (METAHEURISTICAS, MAC):
            with self.subTest(subject=subject):
                result = self.tools_for({"asignatura": subject}).get_guia()
                self.assertIsInstance(result, str)  # get_guia returns a str
                summary = json.loads(result)
                self.assertIsInstance(summary, dict)
                self.assertEqual(set(summary), SUMMARY_KEYS)
                source = guide(subject)
                self.assertEqual(summary["subject"], subject)
                self.assertEqual(squash(summary["grado"]), squash(source["grado"]))
                self.assertEqual(summary["curso"], source.get("curso"))
                self.assertEqual(summary["url"], source.get("url"))
                # The first three lines of the brief description (their test: len(...) <= 3).
                self.assertIsInstance(summary["brief_description"], list)
                self.assertLessEqual(len(summary["brief_description"]), 3)
                self.assertEqual(squash(summary["brief_description"]),
                                 squash(source["breve_descripción_de_contenidos"][:3]))
                self.assertEqual(result, json.dumps(summary, ensure_ascii=False))
                # The guide's own `asignatura` field, as the chatbot's document holds it.
                self.assertEqual(squash(summary["asignatura"]), squash(source["asignatura"]))

    def test_get_guia_section_by_key(self) -> None:
        source = guide(METAHEURISTICAS)
        for key in ("evaluación", "metodología_docente", "resultados_de_aprendizaje",
                    "prerrequisitos_o_recomendaciones", "breve_descripción_de_contenidos"):
            with self.subTest(key=key):
                result = self.student.get_guia(key=key)
                self.assertIsInstance(result, str)
                self.assertEqual(squash(json.loads(result)), squash(source[key]))
                self.assertEqual(result, json.dumps(json.loads(result), ensure_ascii=False))

    def test_get_guia_dot_paths(self) -> None:
        source = guide(METAHEURISTICAS)
        for key in ("bibliografía.bibliografía_fundamental", "evaluación.evaluación_ordinaria",
                    "evaluación.evaluación_extraordinaria"):
            with self.subTest(key=key):
                section, child = key.split(".")
                self.assertEqual(squash(json.loads(self.student.get_guia(key=key))), squash(source[section][child]))

    def test_get_guia_competencias_of_another_subject(self) -> None:
        result = self.tools_for({"asignatura": MAC}).get_guia(key="competencias")
        self.assertEqual(squash(json.loads(result)), squash(guide(MAC)["competencias"]))

    def test_get_guia_state_overrides_the_models_asignatura(self) -> None:
        summary = json.loads(self.student.get_guia(asignatura=MAC))
        self.assertEqual(summary["subject"], METAHEURISTICAS)

    def test_get_guia_unknown_subject(self) -> None:
        result = self.tools_for({"asignatura": "fisica_cuantica"}).get_guia()
        self.assertIsInstance(result, str)
        self.assertIn("No guia found", result)  # their test's assertion
        self.assertEqual(result, "No guia found for subject: fisica_cuantica")

    def test_get_guia_without_a_subject(self) -> None:
        result = self.tools_for(None).get_guia()
        self.assertIsInstance(result, str)
        self.assertIn("No guia found for subject", result)
        self.assertEqual(result, "No guia found for subject")

    def test_get_guia_key_not_present(self) -> None:
        # software_libre is one of the chatbot's SubjectDataKey values; this guide has no such section.
        result = self.student.get_guia(key="software_libre")
        self.assertIsInstance(result, str)
        self.assertTrue(result.startswith("Key 'software_libre' not present"), result)
        self.assertIn("not present in guia", result)  # their test's assertion
        self.assertEqual(result, "Key 'software_libre' not present in guia for subject metaheuristicas")

    # -- generate_test --------------------------------------------------------------------------

    def test_generate_test_returns_multiple_choice_tests(self) -> None:
        result = self.student.generate_test("algoritmos genéticos", num_questions=3, difficulty="easy")
        self.assertIsInstance(result, list)
        self.assertEqual(len(result), 3)
        for item in result:
            self.assert_question(item)
            self.assertEqual(len(item["options"]), 4)
            self.assertEqual(sum(o["is_correct"] for o in item["options"]), 1)

    def test_generate_test_takes_the_professors_preferences(self) -> None:
        # The harness's backend: GET /users/subject/metaheuristicas/preferences ->
        # {"default_test_questions": 4, "default_test_difficulty": "hard"}; other subjects 404.
        Upstreams.from_env()
        self.assertEqual(len(self.student.generate_test("búsqueda local")), 4)
        # Explicit arguments win over the preferences.
        self.assertEqual(len(self.student.generate_test("búsqueda local", num_questions=2)), 2)
        # No preferences for this subject (the backend answers 404): the default, 5.
        self.assertEqual(len(self.tools_for({"asignatura": MAC}).generate_test("autómatas")), 5)

    def test_generate_test_on_error_falls_back_to_one_question(self) -> None:
        # num_questions outside 1–10 is an error; the seed answers its one-question fallback.
        result = self.student.generate_test("búsqueda tabú", num_questions=11)
        self.assertEqual(result, [{
            "question": {"question_text": "¿Qué has aprendido sobre búsqueda tabú?", "difficulty": "medium"},
            "options": [],
        }])


class ChatbotOverHttp(ChatbotCases, unittest.TestCase):
    """`POST /tools/<name>/call` with `X-Quiver-Session-Values`."""

    make_seed = HttpSeed

    def test_session_values_in_the_body_wrapper(self) -> None:
        # The existing wrapper: {"input": {...}, "session": {"values": {...}}}.
        answer = self.seed.http.post_json("/tools/get_guia/call", {
            "input": {"asignatura": MAC},
            "session": {"values": {"asignatura": METAHEURISTICAS}},
        })
        self.assertEqual(answer.status, 200, answer.text)
        self.assertEqual(json.loads(answer.json)["subject"], METAHEURISTICAS)


class ChatbotOverMcp(ChatbotCases, unittest.TestCase):
    """MCP Streamable HTTP at /mcp, the state in `_meta["quiver/session-values"]`."""

    make_seed = McpSeed

    def test_tools_list_hides_asignatura(self) -> None:
        tools = {t["name"]: t for t in self.seed.list_tools()}
        for name in ("rag_search", "get_guia", "generate_test"):
            with self.subTest(tool=name):
                self.assertNotIn("asignatura", tools[name]["inputSchema"].get("properties", {}))
        self.assertIn("query", tools["rag_search"]["inputSchema"]["properties"])
        self.assertIn("key", tools["get_guia"]["inputSchema"]["properties"])
        self.assertIn("topic", tools["generate_test"]["inputSchema"]["properties"])

    def test_session_values_header_on_the_connection(self) -> None:
        # langchain-mcp-adapters: {"transport": "streamable_http", "url": ..., "headers": {...}}.
        header = {"X-Quiver-Session-Values": json.dumps({"asignatura": MAC})}
        seed = McpSeed(headers=header)
        try:
            summary = json.loads(ChatbotTools(seed).get_guia(asignatura=METAHEURISTICAS))
            hits = ChatbotTools(seed).rag_search("evaluación", asignatura=METAHEURISTICAS)
        finally:
            seed.close()
        self.assertEqual(summary["subject"], MAC)
        self.assert_rag_success(hits, "evaluación")
        for hit in hits["results"]:
            self.assertEqual(hit["metadata"].get("asignatura"), MAC, hit)


class ChatbotOverStdio(ChatbotCases, unittest.TestCase):
    """MCP stdio: `quiver serve --stdio --profile chatbot --demo` as a child process."""

    make_seed = StdioSeed


class RagServiceCases:
    """rag_search against the chatbot's RAG service (`RAG_SERVICE_URL`), and its error strings."""

    make_seed: Any = None

    @classmethod
    def setUpClass(cls) -> None:
        cls.seed = cls.make_seed(require("QUIVER_URL_RAG_SERVICE", "the profile with RAG_SERVICE_URL set"))
        cls.tools = ChatbotTools(cls.seed, {"asignatura": METAHEURISTICAS})

    @classmethod
    def tearDownClass(cls) -> None:
        cls.seed.close()

    def assert_error(self, result: dict[str, Any], prefix: str) -> None:
        self.assertEqual(set(result), {"ok", "error"}, result)
        self.assertIs(result["ok"], False)
        self.assertIsInstance(result["error"], str)
        self.assertTrue(result["error"].startswith(prefix), result)

    def test_rag_service_answer(self) -> None:
        result = self.tools.rag_search("¿Cómo se evalúa?")
        self.assertIs(result["ok"], True, result)
        self.assertGreater(len(result["results"]), 0)
        self.assertEqual(result["total_results"], len(result["results"]))
        for hit in result["results"]:
            self.assertEqual(set(hit), {"content", "metadata", "score"})
            self.assertIsInstance(hit["content"], str)

    def test_cannot_connect(self) -> None:
        with Upstreams.from_env().down("rag"):
            result = self.tools.rag_search("evaluación continua")
        self.assert_error(result, "Cannot connect to RAG service")

    def test_timeout(self) -> None:
        # The chatbot gave its RAG service 6 s; the caller's time limit for this call is 1.5 s
        # (X-Quiver-Timeout-Ms over HTTP, _meta.timeoutMs over MCP), so the answer comes well before 6 s.
        started = time.monotonic()
        with Upstreams.from_env().faulted("rag", "POST", "^/search$", {"kind": "hang"}):
            result = self.seed.call("rag_search", {"query": "prácticas"},
                                    session_values={"asignatura": METAHEURISTICAS}, timeout_ms=1500)
        self.assert_error(result, "RAG service timeout")
        self.assertLess(time.monotonic() - started, 6, "the call's time limit (1.5 s) was not applied")

    def test_error_status(self) -> None:
        with Upstreams.from_env().faulted("rag", "POST", "^/search$", {"kind": "status", "status": 500}):
            result = self.tools.rag_search("examen final")
        self.assert_error(result, "Error contacting RAG service")


class RagServiceOverHttp(RagServiceCases, unittest.TestCase):
    make_seed = HttpSeed


class RagServiceOverMcp(RagServiceCases, unittest.TestCase):
    make_seed = McpSeed


if __name__ == "__main__":
    unittest.main()
