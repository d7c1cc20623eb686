// The one real tool call the release test makes through each unpacked .mcpb (scripts/release-test.mjs,
// "each .mcpb"): the tool and its arguments, the settings the user gives the bundle (by environment
// variable; the bundle's mcp_config maps its user_config to them), what the success envelope's data
// must show, and any data to write first. Every upstream is an emulator on 127.0.0.1 answering with
// the plugins' recorded fixtures (never the internet); one emulator serves them all, each plugin on
// its own paths.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "@quiver/testing";

/** A plugin's recorded test fixture (packages/plugins/<path>, see each folder's SOURCE.md). */
const fixture = (path) => readFileSync(new URL(`../../packages/plugins/${path}`, import.meta.url), "utf8");
const fixtureJson = (path) => JSON.parse(fixture(path));

/** The key given to the bundles that need one; their emulated upstream refuses any other. */
const KEY = "test-key";
/** Who private-repo's server runs as (QUIVER_PRINCIPAL), and so the owner of the added document. */
const PRINCIPAL = "alice";
const COURSE_NOTE =
  "# Algoritmos genéticos\n\nLos algoritmos genéticos mantienen una población de soluciones que evoluciona mediante selección, cruce y mutación.\n";
const PAPER =
  "---\ntitle: Off-target effects of CRISPR\nauthors: [Ada Lovelace]\ndate: 2021-03-01\n---\n\nGuide RNA mismatches cause off-target cleavage.\n";

/** The upstream's 401 unless the request carries `Authorization: Bearer <KEY>` (the bundle passed the key on). */
const withKey = (answer) => (req) =>
  req.headers.authorization === `Bearer ${KEY}`
    ? answer(req)
    : { status: 401, json: { error: { message: "Invalid API key", type: "invalid_request_error" } } };

/** An OpenAI chat completion (the shape of testgen's recorded one) whose content is `content`. */
const completion = (content) => ({
  id: "chatcmpl-release-test",
  object: "chat.completion",
  created: 1727346143,
  model: "gpt-4o-mini",
  choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, finish_reason: "stop" }],
  usage: { prompt_tokens: 79, completion_tokens: 14, total_tokens: 93 },
});
const QUESTIONS = JSON.stringify({
  questions: [1, 2].map((n) => ({
    question: `¿Pregunta ${n} sobre algoritmos genéticos?`,
    difficulty: "medium",
    options: [],
    correct_index: null,
    answer: `Respuesta modelo ${n}`,
    explanation: "Según el material [1].",
  })),
});

/**
 * AlphaFold DB's entry for Q7Z6M3 with the recorded model files behind it, as the plugin's own
 * emulator serves it (test/support/afdb-emulator.ts, TypeScript the script cannot import): the
 * recorded P04637 entry's shape with Q7Z6M3's facts, the sequence read from the recorded mmCIF's
 * one-letter code and the file links pointing at the emulator.
 */
const routeAlphafold = (up) => {
  const cassette = fixtureJson("alphafold/test/fixtures/api/02-tp53-r175h/cassette.json");
  const tp53 = cassette.interactions
    .find((i) => i.url.endsWith("/api/prediction/P04637"))
    .response_json.find((e) => e.uniprotAccession === "P04637");
  const cif = fixture("alphafold/test/fixtures/structure/Q7Z6M3.cif");
  // mmCIF's text field: the lines between a line opening with ";" and a line that is ";".
  const sequence = /_entity_poly\.pdbx_seq_one_letter_code_can\s*\n;([^;]+)\n;/
    .exec(cif)[1]
    .replace(/\s/g, "");
  const files = `${up.url}/files/AF-Q7Z6M3-F1`;
  const { fractionPlddtVeryHigh, fractionPlddtConfident, fractionPlddtLow, fractionPlddtVeryLow, ...shape } =
    tp53;
  const entry = {
    ...shape,
    modelEntityId: "AF-Q7Z6M3-F1",
    entryId: "AF-Q7Z6M3-F1",
    uniprotAccession: "Q7Z6M3",
    uniprotId: "MILR1_HUMAN",
    uniprotDescription: "Allergin-1",
    gene: "MILR1",
    sequence,
    uniprotSequence: sequence,
    sequenceEnd: sequence.length,
    uniprotEnd: sequence.length,
    globalMetricValue: 74.57,
    latestVersion: 1,
    allVersions: [1],
    pdbUrl: `${files}-model_v1.pdb`,
    cifUrl: `${files}-model_v1.cif`,
    plddtDocUrl: `${files}-confidence_v1.json`,
    paeDocUrl: `${files}-predicted_aligned_error_v1.json`,
  };
  up.route("GET", "/api/prediction/Q7Z6M3", { json: [entry] });
  up.route("GET", "/files/AF-Q7Z6M3-F1-model_v1.pdb", {
    text: fixture("alphafold/test/fixtures/structure/Q7Z6M3.pdb"),
  });
};

/** Starts the emulator every bundle's call goes to, with each plugin's upstream routes. */
export const startBundleUpstreams = async () => {
  const up = await startEmulator();
  up.route("GET", "/api/v2/libs/search", { json: fixtureJson("context7/test/fixtures/search-react.json") });
  up.route("GET", "/drug/drugsfda.json", {
    json: fixtureJson("fda/test/fixtures/drugsfda/drugsfda_tirzepatide_limit1.json"),
  });
  up.route(
    "POST",
    "/search",
    withKey(() => ({ json: fixtureJson("perplexity/test/fixtures/search-san-francisco.json") })),
  );
  up.route(
    "POST",
    "/v1/chat/completions",
    withKey(() => ({ json: completion(QUESTIONS) })),
  );
  routeAlphafold(up);
  return up;
};

/**
 * Each bundle's call, by plugin id, and what it answers `from`. `settings(up, dir)` gives the environment variables the user
 * sets (a required one it leaves out gets a dummy); `prepare({ dir, quiver })` writes the data first
 * with the host's command, as the server's README says (`quiver(plugin, args, env)` runs
 * `npx -y -p @quiver/host -p <plugin> quiver …` through the test registry); `expect(data)` is true
 * for the answer the fixtures give.
 */
export const BUNDLE_CALLS = {
  alphafold: {
    from: "the emulator",
    tool: "alphafold_predict_structure",
    arguments: { uniprot_accession: "Q7Z6M3" },
    settings: (up) => ({ ALPHAFOLD_BASE_URL: up.url }),
    expect: (d) => d.model_id === "AF-Q7Z6M3-F1" && d.sequence_length === 343,
  },
  context7: {
    from: "the emulator",
    tool: "context7_resolve_library_id",
    arguments: { library_name: "react", query: "hooks" },
    settings: (up) => ({ CONTEXT7_API_URL: `${up.url}/api` }),
    expect: (d) => JSON.stringify(d).includes("/facebook/react"),
  },
  fda: {
    from: "the emulator",
    tool: "fda_search_drugs",
    arguments: { search_criteria: { generic_name: "tirzepatide" }, max_results: 1 },
    settings: (up) => ({ OPENFDA_BASE_URL: up.url }),
    expect: (d) => d.matches[0]?.application_number === "NDA215866",
  },
  guia: {
    from: "its shipped guides",
    tool: "guia_get_guide",
    arguments: { asignatura: "metaheuristicas" },
    settings: () => ({}),
    // One of the two real UGR guides the bundle ships (its demo/ folder).
    expect: (d) => d.asignatura === "Metaheurísticas" && d.codigo === "296113E",
  },
  perplexity: {
    from: "the emulator",
    tool: "perplexity_search_web",
    arguments: { query: "population of San Francisco" },
    settings: (up) => ({ PERPLEXITY_BASE_URL: up.url, PERPLEXITY_API_KEY: KEY }),
    expect: (d) => JSON.stringify(d).includes("https://en.wikipedia.org/wiki/San_Francisco"),
  },
  "private-repo": {
    from: "a document added with `quiver private-repo add`",
    tool: "private_repo_search",
    arguments: { search_terms: "off-target cleavage" },
    settings: (_, dir) => ({ QUIVER_PRIVATE_REPO: join(dir, "repo"), QUIVER_PRINCIPAL: PRINCIPAL }),
    prepare: async ({ dir, quiver }) => {
      writeFileSync(join(dir, "paper.md"), PAPER);
      await quiver("@quiver/plugin-private-repo", [
        "private-repo",
        "add",
        join(dir, "paper.md"),
        "--owner",
        PRINCIPAL,
        "--collection",
        "papers",
        "--repo",
        join(dir, "repo"),
      ]);
    },
    expect: (d) => d.results[0]?.title === "Off-target effects of CRISPR",
  },
  rag: {
    from: "an index built with `quiver rag index`",
    tool: "rag_search",
    arguments: { query: "población cruce mutación", asignatura: "metaheuristicas" },
    settings: (_, dir) => ({ RAG_INDEX_PATH: join(dir, "rag-index.db") }),
    prepare: async ({ dir, quiver }) => {
      const folder = join(dir, "material", "metaheuristicas", "apuntes");
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, "geneticos.md"), COURSE_NOTE);
      await quiver("@quiver/plugin-rag", ["rag", "index", join(dir, "material")], {
        RAG_INDEX_PATH: join(dir, "rag-index.db"),
      });
    },
    expect: (d) => d.results[0]?.content.includes("selección, cruce y mutación"),
  },
  testgen: {
    from: "the emulator",
    tool: "testgen_generate_test",
    arguments: { topic: "algoritmos genéticos", num_questions: 2, context: COURSE_NOTE },
    settings: (up) => ({ LLM_BASE_URL: `${up.url}/v1`, LLM_MODEL: "gpt-4o-mini", LLM_API_KEY: KEY }),
    expect: (d) => d.generated_by === "llm" && d.questions.length === 2,
  },
};
