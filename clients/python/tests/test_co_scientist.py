"""The AI co-scientist's External Tools Interface answered by `quiver serve --profile co-scientist`.

The co-scientist's agents send an `ExternalToolRequest` and read an `ExternalToolResponse` (the
contract: packages/adapters/README.md, "Seed systems"): over HTTP (`POST /external-tools/execute`,
`GET /external-tools`) and over MCP (the tool `execute_external_tool`). The cases are the interface's four documented scenarios (a
protein structure from AlphaFold, FDA drugs approved after 2010, a repository search after
2020-01-01, an unavailable tool) and the behaviour it lists: caching, unknown names, access control.

Environment: `QUIVER_URL` and `QUIVER_TOKEN` (scientist alice, who owns the collections `papers`
and `scifact`); `QUIVER_OTHER_TOKEN` (scientist bob, who owns nothing); `QUIVER_SEED_CONTROL_URL` to
make AlphaFold's upstreams fail; `QUIVER_STDIO_COMMAND`, `QUIVER_STDIO_CWD` and `QUIVER_STDIO_ENV`
(with `QUIVER_PRINCIPAL=alice`) to start the profile over stdio.
"""

from __future__ import annotations

import json
import time
import unittest
import uuid
from typing import Any

from quiver_seed.http_client import QuiverHttp
from quiver_seed.seed_call import McpSeed, StdioSeed, value_of
from quiver_seed.settings import quiver_token, quiver_url, require
from quiver_seed.upstreams import Upstreams
from tests.repo_data import REPO, recorded_sequence

STATUSES = {"SUCCESS", "PARTIAL_SUCCESS", "FAILURE", "TIMEOUT", "ACCESS_DENIED"}
TOOL_TYPES = {"SPECIALIZED_MODEL", "SCIENTIFIC_DATABASE", "PRIVATE_REPOSITORY", "COMPUTATIONAL_SERVICE"}
RESPONSE_KEYS = {"tool_name", "status", "results", "metadata", "cached"}
TP53 = "P04637"
EGFR = "P00533"
SCIFACT_QUERIES = REPO / "packages" / "plugins" / "private-repo" / "test" / "fixtures" / "scifact"


class HttpExecutor:
    """`POST /external-tools/execute`, as the co-scientist's tool manager calls it."""

    transport = "http"

    def __init__(self, token: str | None = None):
        self.http = QuiverHttp(quiver_url(), token if token is not None else quiver_token())

    def execute(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = self.http.post_json("/external-tools/execute", request)
        if answer.status != 200:
            raise AssertionError(f"POST /external-tools/execute answered HTTP {answer.status}: {answer.text[:500]}")
        return answer.json

    def close(self) -> None:
        pass


class McpExecutor:
    """The MCP tool `execute_external_tool`, taking the same request object."""

    transport = "mcp"

    def __init__(self, token: str | None = None):
        self.seed = McpSeed(token=token)

    def execute(self, request: dict[str, Any]) -> dict[str, Any]:
        result = self.seed.client().call_tool("execute_external_tool", request)
        return value_of(result, "execute_external_tool")

    def close(self) -> None:
        self.seed.close()


class StdioExecutor(McpExecutor):
    """`execute_external_tool` over MCP stdio; the scientist is the server's principal (`QUIVER_PRINCIPAL`)."""

    transport = "stdio"

    def __init__(self, env_overrides: dict[str, str | None] | None = None):
        self.seed = StdioSeed(env_overrides)


def protein(accession: str) -> dict[str, Any]:
    """A ProteinQuery request for a recorded protein's sequence."""
    return {
        "tool_type": "SPECIALIZED_MODEL",
        "tool_name": "AlphaFold",
        "query": {"sequence": recorded_sequence(accession)},
        "timeout_seconds": 120,
    }


def year_of(entry: dict[str, Any]) -> int | None:
    """The approval or publication year a result states, if any."""
    for key in ("original_approval_date", "approval_date", "date", "publication_date"):
        value = entry.get(key)
        if isinstance(value, str) and value[:4].isdigit():
            return int(value[:4])
    return None


class CoScientistCases:
    """The cases, run once per transport by the classes below."""

    make_executor: Any = None
    #: Keeps the cache test's query unique per transport (both share the caller, so the cache).
    variant = 0

    @classmethod
    def setUpClass(cls) -> None:
        cls.tools = cls.make_executor()
        cls.tag = uuid.uuid4().hex[:8]

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tools.close()

    def assert_response(self, response: dict[str, Any], tool_name: str) -> None:
        """Every ExternalToolResponse: its five members, a known status, results null exactly on failure."""
        self.assertIsInstance(response, dict)
        self.assertLessEqual(RESPONSE_KEYS, set(response), response)
        self.assertEqual(response["tool_name"], tool_name)
        self.assertIn(response["status"], STATUSES)
        self.assertIsInstance(response["metadata"], dict)
        self.assertIsInstance(response["cached"], bool)
        if response["status"] in ("FAILURE", "ACCESS_DENIED"):
            self.assertIsNone(response["results"], response)
            self.assertIsInstance(response["metadata"].get("error_type"), str, response)
            self.assertIsInstance(response["metadata"].get("message"), str, response)

    # -- scenario 1: a protein structure --------------------------------------------------------

    def test_1_protein_structure_from_alphafold(self) -> None:
        request = protein(TP53)
        response = self.tools.execute(request)
        self.assert_response(response, "AlphaFold")
        self.assertEqual(response["status"], "SUCCESS", response.get("metadata"))
        result = response["results"]
        scores = result["confidence_scores"]
        self.assertIsInstance(scores["overall"], (int, float))
        self.assertTrue(0 <= scores["overall"] <= 100, scores["overall"])
        self.assertEqual(len(scores["per_residue"]), len(request["query"]["sequence"]))
        for value in scores["per_residue"]:
            self.assertTrue(0 <= value <= 100, value)
        pdb = result["structure_data"]
        self.assertIsInstance(pdb, str)
        atoms = [line for line in pdb.splitlines() if line.startswith("ATOM")]
        self.assertGreater(len(atoms), 0, pdb[:300])
        self.assertIsInstance(result.get("warnings", []), list)

    # -- scenario 2: FDA drugs approved after 2010 ----------------------------------------------

    def test_2_fda_drugs_approved_after_2010(self) -> None:
        request = {
            "tool_type": "SCIENTIFIC_DATABASE",
            "tool_name": "FDA_Drug_Database",
            "query": {"search_criteria": {"active_ingredient": "semaglutide", "approval_year": {"after": 2010}},
                      "max_results": 10},
        }
        response = self.tools.execute(request)
        self.assert_response(response, "FDA_Drug_Database")
        self.assertEqual(response["status"], "SUCCESS", response.get("metadata"))
        result = response["results"]
        self.assertIsInstance(result["matches"], list)
        self.assertGreater(len(result["matches"]), 0)
        self.assertIsInstance(result["total_count"], int)
        self.assertGreaterEqual(result["total_count"], len(result["matches"]))
        self.assertIs(result["query_constraints_met"], True)
        for match in result["matches"]:
            year = year_of(match)
            self.assertIsNotNone(year, match)
            self.assertGreaterEqual(year, 2010, match)

    def test_2_fda_constraint_excludes_earlier_approvals(self) -> None:
        # Ozempic (2017) is semaglutide too: a later bound must leave it out and say the constraint held.
        request = {
            "tool_type": "SCIENTIFIC_DATABASE",
            "tool_name": "FDA_Drug_Database",
            "query": {"search_criteria": {"active_ingredient": "semaglutide", "approval_year": {"after": 2018}}},
        }
        response = self.tools.execute(request)
        self.assert_response(response, "FDA_Drug_Database")
        self.assertEqual(response["status"], "SUCCESS", response.get("metadata"))
        years = [year_of(m) for m in response["results"]["matches"]]
        self.assertTrue(years, response["results"])
        self.assertTrue(all(y is not None and y >= 2018 for y in years), years)
        self.assertIs(response["results"]["query_constraints_met"], True)

    def test_2_constraint_set_is_honoured(self) -> None:
        # The same bound as a ConstraintSet beside the query: only Wegovy (2021) was approved after 2020.
        response = self.tools.execute({
            "tool_type": "SCIENTIFIC_DATABASE",
            "tool_name": "FDA_Drug_Database",
            "query": {"search_criteria": {"active_ingredient": "semaglutide"}},
            "constraints": {"approval_year": {"after": 2020}},
        })
        self.assert_response(response, "FDA_Drug_Database")
        self.assertEqual(response["status"], "SUCCESS", response.get("metadata"))
        years = [year_of(m) for m in response["results"]["matches"]]
        self.assertTrue(years)
        self.assertTrue(all(y is not None and y >= 2020 for y in years), years)

    def test_2_a_constraint_that_cannot_be_applied_is_named(self) -> None:
        response = self.tools.execute({
            "tool_type": "SCIENTIFIC_DATABASE",
            "tool_name": "FDA_Drug_Database",
            "query": {"search_criteria": {"active_ingredient": "semaglutide", "mechanism": "SGLT2 inhibitor"}},
        })
        self.assert_response(response, "FDA_Drug_Database")
        self.assertEqual(response["status"], "PARTIAL_SUCCESS")
        self.assertIs(response["results"]["query_constraints_met"], False)
        self.assertIn("mechanism", json.dumps(response["metadata"]))

    # -- scenario 3: a repository search with a date filter -------------------------------------

    def test_3_repository_search_after_2020(self) -> None:
        request = {
            "tool_type": "PRIVATE_REPOSITORY",
            "tool_name": "papers",
            "query": {"search_terms": ["semaglutide", "obesity"],
                      "filters": {"publication_date": {"after": "2020-01-01"}}},
        }
        response = self.tools.execute(request)
        self.assert_response(response, "papers")
        self.assertEqual(response["status"], "SUCCESS", response.get("metadata"))
        documents = response["results"]["documents"]
        scores = response["results"]["relevance_scores"]
        self.assertGreater(len(documents), 0)
        self.assertEqual(len(scores), len(documents))
        self.assertEqual(scores, sorted(scores, reverse=True))
        for score in scores:
            self.assertIsInstance(score, float)
        for document in documents:
            year = year_of(document)
            self.assertIsNotNone(year, document)
            self.assertGreaterEqual(year, 2020, document)
        titles = " ".join(str(d.get("title", "")) for d in documents)
        self.assertIn("Once-Weekly Semaglutide in Adults with Overweight or Obesity", titles)
        self.assertNotIn("Semaglutide and Cardiovascular Outcomes in Patients with Type 2 Diabetes", titles)

    def test_3_repository_ranks_the_relevant_abstract_first(self) -> None:
        # SciFact query 2 and its judged abstract (the demo data and its test judgments).
        queries = (SCIFACT_QUERIES / "queries.jsonl").read_text(encoding="utf-8").splitlines()
        query = next(q for q in map(json.loads, queries) if q["_id"] == "2")
        relevant = {line.split("\t")[1] for line in (SCIFACT_QUERIES / "qrels.tsv").read_text().splitlines()[1:]
                    if line.split("\t")[0] == "2"}
        response = self.tools.execute({
            "tool_type": "PRIVATE_REPOSITORY",
            "tool_name": "scifact",
            "query": {"search_terms": [query["text"]]},
        })
        self.assert_response(response, "scifact")
        self.assertEqual(response["status"], "SUCCESS", response.get("metadata"))
        top = response["results"]["documents"][0]
        self.assertIn(str(top.get("id")), relevant, top)

    # -- scenario 4: the tool is unavailable ----------------------------------------------------

    def test_4_unavailable_tool_is_a_failure_with_service_unavailable(self) -> None:
        upstreams = Upstreams.from_env()
        # A protein never folded before (no cached or stale result to fall back on), within ESMFold's
        # 400 residues and different per transport; AlphaFold DB, UniProt and ESMFold all answer 503.
        request = protein(EGFR)
        request["query"]["sequence"] = request["query"]["sequence"][: 300 + self.variant]
        try:
            for name in ("afdb", "fold"):
                upstreams.fault(name, "*", fault={"kind": "status", "status": 503}, path_regex=".*")
            response = self.tools.execute(request)
        finally:
            upstreams.clear()
        self.assert_response(response, "AlphaFold")
        self.assertEqual(response["status"], "FAILURE", response)
        self.assertIsNone(response["results"])
        self.assertEqual(response["metadata"]["error_type"], "SERVICE_UNAVAILABLE", response["metadata"])
        retry_after = response["metadata"].get("retry_after")
        if retry_after is not None:
            self.assertIsInstance(retry_after, (int, float))

    def test_4_a_rate_limited_database_says_when_to_retry(self) -> None:
        # openFDA answers 429 with Retry-After: 1 to every request (the query is new: nothing stale).
        upstreams = Upstreams.from_env()
        request = {
            "tool_type": "SCIENTIFIC_DATABASE",
            "tool_name": "FDA_Drug_Database",
            "query": {"search_criteria": {"active_ingredient": "imatinib"}, "max_results": 5 + self.variant},
        }
        try:
            upstreams.fault("fda", "GET", fault={"kind": "status", "status": 429, "retryAfter": 1}, path_regex=".*")
            response = self.tools.execute(request)
        finally:
            upstreams.clear()
        self.assert_response(response, "FDA_Drug_Database")
        self.assertEqual(response["status"], "FAILURE", response)
        self.assertIsNone(response["results"])
        self.assertIsInstance(response["metadata"].get("retry_after"), (int, float), response["metadata"])
        self.assertGreaterEqual(response["metadata"]["retry_after"], 1)

    # -- behaviour ------------------------------------------------------------------------------

    def test_5_identical_query_is_cached(self) -> None:
        request = {
            "tool_type": "SCIENTIFIC_DATABASE",
            "tool_name": "FDA_Drug_Database",
            "query": {"search_criteria": {"active_ingredient": "tirzepatide"}, "max_results": 3 + self.variant},
        }
        first = self.tools.execute(request)
        second = self.tools.execute(request)
        self.assert_response(first, "FDA_Drug_Database")
        self.assertEqual(first["status"], "SUCCESS", first.get("metadata"))
        self.assertIs(first["cached"], False)
        self.assertIs(second["cached"], True)
        self.assertEqual(second["results"], first["results"])

    def test_6_unknown_database_lists_the_known_names(self) -> None:
        response = self.tools.execute({
            "tool_type": "SCIENTIFIC_DATABASE",
            "tool_name": "ChEMBL",
            "query": {"search_criteria": {"target": "GLP-1 receptor"}},
        })
        self.assert_response(response, "ChEMBL")
        self.assertEqual(response["status"], "FAILURE")
        self.assertIn("FDA_Drug_Database", response["metadata"]["message"])

    def test_6_unknown_model_routes_or_lists_the_known_names(self) -> None:
        response = self.tools.execute({
            "tool_type": "SPECIALIZED_MODEL",
            "tool_name": "RoseTTAFold",
            "query": {"sequence": recorded_sequence(TP53)},
        })
        self.assert_response(response, "RoseTTAFold")
        if response["status"] == "FAILURE":
            for name in ("AlphaFold", "ESMFold"):
                self.assertIn(name, response["metadata"]["message"])
        else:
            self.assertIn(response["status"], ("SUCCESS", "PARTIAL_SUCCESS"))
            self.assertIn("confidence_scores", response["results"])

    def test_6_invalid_requests_get_correction_suggestions(self) -> None:
        bad_type = self.tools.execute({"tool_type": "model", "tool_name": "AlphaFold",
                                       "query": {"sequence": recorded_sequence(TP53)}})
        self.assert_response(bad_type, "AlphaFold")
        self.assertEqual(bad_type["status"], "FAILURE")
        for tool_type in TOOL_TYPES:
            self.assertIn(tool_type, bad_type["metadata"]["message"] + bad_type["metadata"].get("suggestion", ""))
        unknown = self.tools.execute({"tool_type": "PRIVATE_REPOSITORY", "tool_name": "notebooks",
                                      "query": {"search_terms": ["semaglutide"]}})
        self.assert_response(unknown, "notebooks")
        self.assertEqual(unknown["status"], "FAILURE")
        self.assertIn("papers", unknown["metadata"]["message"] + unknown["metadata"].get("suggestion", ""))

    def test_6_esmfold_by_name(self) -> None:
        sequence = recorded_sequence(TP53)[:120]
        response = self.tools.execute({"tool_type": "SPECIALIZED_MODEL", "tool_name": "ESMFold",
                                       "query": {"sequence": sequence}})
        self.assert_response(response, "ESMFold")
        self.assertEqual(response["status"], "SUCCESS", response.get("metadata"))
        self.assertEqual(len(response["results"]["confidence_scores"]["per_residue"]), len(sequence))
        self.assertIn("ATOM", response["results"]["structure_data"])

    def test_6_input_outside_the_models_domain_gets_a_correction(self) -> None:
        response = self.tools.execute({"tool_type": "SPECIALIZED_MODEL", "tool_name": "AlphaFold",
                                       "query": {"sequence": "MKT123"}})
        self.assert_response(response, "AlphaFold")
        self.assertEqual(response["status"], "FAILURE")
        self.assertIsInstance(response["metadata"].get("suggestion"), str, response["metadata"])

    def test_6_timeout_answers_within_the_time_given(self) -> None:
        upstreams = Upstreams.from_env()
        request = protein(EGFR)
        request["query"]["sequence"] = request["query"]["sequence"][: 340 + self.variant]
        request["timeout_seconds"] = 2
        started = time.monotonic()
        try:
            for name in ("afdb", "fold"):
                upstreams.fault(name, "*", fault={"kind": "hang"}, path_regex=".*")
            response = self.tools.execute(request)
        finally:
            upstreams.clear()
        self.assertLess(time.monotonic() - started, 10)
        self.assert_response(response, "AlphaFold")
        self.assertIn(response["status"], ("TIMEOUT", "PARTIAL_SUCCESS"))
        if response["status"] == "TIMEOUT":
            self.assertIsNone(response["results"])

    def test_7_another_scientists_collection_is_access_denied(self) -> None:
        other = self.other_scientist()
        try:
            response = other.execute({
                "tool_type": "PRIVATE_REPOSITORY",
                "tool_name": "alice/papers",
                "query": {"search_terms": ["semaglutide"]},
            })
        finally:
            other.close()
        self.assert_response(response, "alice/papers")
        self.assertEqual(response["status"], "ACCESS_DENIED", response)
        self.assertIsNone(response["results"])


    def other_scientist(self) -> Any:
        """The same server as another scientist, bob, who owns nothing."""
        return self.make_executor(require("QUIVER_OTHER_TOKEN", "a second scientist's token"))


class CoScientistOverHttp(CoScientistCases, unittest.TestCase):
    """`POST /external-tools/execute` and `GET /external-tools`."""

    make_executor = HttpExecutor
    variant = 0

    def test_catalogue(self) -> None:
        answer = self.tools.http.get("/external-tools")
        self.assertEqual(answer.status, 200, answer.text)
        tools = answer.json["tools"]
        for tool in tools:
            self.assertLessEqual({"tool_type", "tool_name", "description", "query_schema"}, set(tool), tool)
            self.assertIn(tool["tool_type"], TOOL_TYPES)
        names = {t["tool_name"]: t["tool_type"] for t in tools}
        self.assertEqual(names.get("AlphaFold"), "SPECIALIZED_MODEL")
        self.assertEqual(names.get("ESMFold"), "SPECIALIZED_MODEL")
        self.assertEqual(names.get("FDA_Drug_Database"), "SCIENTIFIC_DATABASE")
        self.assertIn("PRIVATE_REPOSITORY", set(names.values()))

    def test_a_body_that_is_not_json_is_400(self) -> None:
        answer = self.tools.http.send("POST", "/external-tools/execute", b"{not json",
                                      {"Content-Type": "application/json"})
        self.assertEqual(answer.status, 400, answer.text)


class CoScientistOverMcp(CoScientistCases, unittest.TestCase):
    """The MCP tool `execute_external_tool`."""

    make_executor = McpExecutor
    variant = 1

    def test_tools_list_has_execute_external_tool(self) -> None:
        tools = {t["name"]: t for t in self.tools.seed.list_tools()}
        schema = tools["execute_external_tool"]["inputSchema"]
        self.assertEqual(schema.get("type"), "object")
        for name in ("tool_type", "tool_name", "query"):
            self.assertIn(name, schema.get("properties", {}))


class CoScientistOverStdio(CoScientistCases, unittest.TestCase):
    """`execute_external_tool` over MCP stdio: `quiver serve --stdio --profile co-scientist`."""

    make_executor = StdioExecutor
    variant = 2

    def other_scientist(self) -> Any:
        return StdioExecutor({"QUIVER_PRINCIPAL": "bob"})


if __name__ == "__main__":
    unittest.main()
