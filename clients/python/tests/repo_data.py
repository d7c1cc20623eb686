"""Data the repository ships for its demo and tests, read the way the seed systems know it.

The suites compare Quiver's answers with the source documents: the two real UGR teaching guides
(packages/plugins/guia/demo) and the recorded AlphaFold DB entries (packages/plugins/alphafold/test).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]
GUIDES = REPO / "packages" / "plugins" / "guia" / "demo"
AFDB_CASSETTES = REPO / "packages" / "plugins" / "alphafold" / "test" / "fixtures" / "api"


@lru_cache(maxsize=None)
def guide(subject: str) -> dict[str, Any]:
    """A shipped teaching guide, as the chatbot's MongoDB holds it (`subject` is its id)."""
    return {"subject": subject, **json.loads((GUIDES / f"{subject}.json").read_text(encoding="utf-8"))}


@lru_cache(maxsize=None)
def recorded_sequence(accession: str) -> str:
    """The sequence of a protein whose AlphaFold DB entry the repository recorded (P04637, P00533)."""
    for cassette in sorted(AFDB_CASSETTES.glob("*/cassette.json")):
        for interaction in json.loads(cassette.read_text(encoding="utf-8"))["interactions"]:
            if interaction["url"].endswith(f"/api/prediction/{accession}"):
                for entry in interaction["response_json"]:
                    if entry.get("uniprotAccession") == accession:
                        return entry["sequence"]
    raise LookupError(f"no recorded AlphaFold DB entry for {accession}")


def squash(value: Any) -> Any:
    """The value with every run of whitespace in its strings made one space, trimmed.

    guia's importer tidies the scraper's layout whitespace (newlines and tabs inside list items) when
    it stores a guide, as a chatbot's import into MongoDB may; the words and structure stay the same.
    """
    if isinstance(value, str):
        return re.sub(r"\s+", " ", value).strip()
    if isinstance(value, list):
        return [squash(v) for v in value]
    if isinstance(value, dict):
        return {k: squash(v) for k, v in value.items()}
    return value
