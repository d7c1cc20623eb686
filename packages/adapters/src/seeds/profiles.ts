import type { SessionContext } from "@quiver/core";
import { createChatbotTools } from "./chatbot.js";
import { createExternalToolExecutor, type ExternalToolRequest, TOOL_TYPES } from "./co-scientist.js";
import { createCodeAgentTools } from "./code-agent.js";
import type { ToolCaller } from "./tool-caller.js";

type Json = Record<string, unknown>;

/** How a seed tool is called: who, in which session (with its injected values), cancellable, how long. */
export interface SeedCallContext {
  readonly session?: SessionContext;
  readonly signal?: AbortSignal;
  /** The call's time limit in milliseconds (the co-scientist's `timeout_seconds` wins over it). */
  readonly timeoutMs?: number;
}

/**
 * One of a seed system's tools as a host serves it: its own name, a JSON Schema of its own arguments
 * (injected ones left out), and a `run` answering exactly what the seed's function returned (a dict,
 * a str, a list).
 */
export interface SeedTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Json & { readonly type: "object" };
  /** Arguments taken from the session's values, overriding the model's (hidden from the schema). */
  readonly injected?: ReadonlyArray<string>;
  /** The Quiver tools it calls. */
  readonly uses: ReadonlyArray<string>;
  readonly run: (caller: ToolCaller, args: Json, ctx: SeedCallContext) => Promise<unknown>;
}

/** A seed system's tools and the plugin option defaults it needs (under the user's own settings). */
export interface SeedProfile {
  readonly name: SeedProfileName;
  readonly description: string;
  readonly tools: ReadonlyArray<SeedTool>;
  /** Plugin id → options the profile sets unless the config, a flag or a variable sets them. */
  readonly pluginDefaults?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Tool name → policy fields the profile sets unless the config's `policies` set them. */
  readonly policyDefaults?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** The profiles' names. */
export type SeedProfileName = "code-agent" | "chatbot" | "co-scientist";

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const opt = <T>(v: unknown): T | undefined => (v === null || v === undefined ? undefined : (v as T));

/** The session's value for an injected argument wins over the model's. */
const inject = (args: Json, ctx: SeedCallContext, names: ReadonlyArray<string>): Json => {
  const values = ctx.session?.values ?? {};
  const out = { ...args };
  for (const n of names) if (values[n] !== undefined && values[n] !== null) out[n] = values[n];
  return out;
};

const stringProp = (description: string) => ({ type: "string", description });
const nullable = (schema: Json) => ({ anyOf: [schema, { type: "null" }], default: null });

const codeAgent: SeedProfile = {
  name: "code-agent",
  description:
    "The code agent's ExternalToolsMixin: search_documentation (Context7) and search_web (Perplexity, a written answer).",
  // A written answer by default: Perplexity's chat API (Sonar); the config file or --set wins.
  pluginDefaults: { perplexity: { api: "chat" } },
  tools: [
    {
      name: "search_documentation",
      description:
        "Search up-to-date library documentation with code examples (Context7). Optional: when it is unavailable, use your embedded knowledge.",
      inputSchema: {
        type: "object",
        properties: {
          query: stringProp("What to look up, e.g. 'useState hook'"),
          library: nullable(stringProp("The library, e.g. 'react' (optional)")),
        },
        required: ["query"],
      },
      uses: ["context7_search_documentation"],
      run: (caller, args, ctx) =>
        createCodeAgentTools(caller, ctx).searchDocumentation(
          String(args.query ?? ""),
          opt<string>(args.library),
        ),
    },
    {
      name: "search_web",
      description: "Search the web and get a concise written answer with its sources (Perplexity).",
      inputSchema: {
        type: "object",
        properties: { query: stringProp("The question, in natural language") },
        required: ["query"],
      },
      uses: ["perplexity_search_web"],
      run: (caller, args, ctx) => createCodeAgentTools(caller, ctx).searchWeb(String(args.query ?? "")),
    },
  ],
};

const chatbot: SeedProfile = {
  name: "chatbot",
  description:
    "The course chatbot's LangGraph tools: rag_search, get_guia and generate_test, asignatura from the session.",
  tools: [
    {
      name: "rag_search",
      description:
        "Search the course material (notes, guides, exercises) and return the most relevant passages with their source and score.",
      inputSchema: {
        type: "object",
        properties: {
          query: stringProp("What to look for in the course material"),
          tipo_documento: nullable(stringProp("Only this kind of document (apuntes, examen, ...)")),
          top_k: nullable({ type: "integer", minimum: 1, maximum: 50 }),
        },
        required: ["query"],
      },
      injected: ["asignatura"],
      uses: ["rag_search"],
      run: (caller, args, ctx) => {
        const a = inject(args, ctx, ["asignatura"]);
        return createChatbotTools(caller, ctx).rag_search({
          query: String(a.query ?? ""),
          asignatura: opt<string>(a.asignatura) ?? null,
          tipo_documento: opt<string>(a.tipo_documento) ?? null,
          top_k: opt<number>(a.top_k) ?? null,
        });
      },
    },
    {
      name: "get_guia",
      description:
        "The subject's teaching guide (guía docente) as JSON: the summary, or one section with key (competencias, objetivos, metodología_docente, sistema_de_evaluación, bibliografía_fundamental, profesorado, or a dot path).",
      inputSchema: {
        type: "object",
        properties: { key: nullable(stringProp("The section, e.g. competencias or competencias.generales")) },
      },
      injected: ["asignatura"],
      uses: ["guia_get_guide"],
      run: (caller, args, ctx) => {
        const a = inject(args, ctx, ["asignatura"]);
        return createChatbotTools(caller, ctx).get_guia({
          asignatura: str(a.asignatura) ?? null,
          key: str(a.key) ?? null,
        });
      },
    },
    {
      name: "generate_test",
      description:
        "Generate a review test on a topic; count and difficulty default to the professor's preferences for the subject.",
      inputSchema: {
        type: "object",
        properties: {
          topic: stringProp("What the questions are about"),
          num_questions: nullable({ type: "integer", minimum: 1, maximum: 10 }),
          difficulty: nullable({ type: "string", enum: ["easy", "medium", "hard"] }),
          context: nullable(stringProp("Course material to base the questions on")),
        },
        required: ["topic"],
      },
      injected: ["asignatura"],
      uses: ["testgen_generate_test"],
      run: (caller, args, ctx) => {
        const a = inject(args, ctx, ["asignatura"]);
        return createChatbotTools(caller, ctx).generate_test({
          topic: String(a.topic ?? ""),
          num_questions: opt<number>(a.num_questions) ?? null,
          difficulty: opt<"easy" | "medium" | "hard">(a.difficulty) ?? null,
          context: opt<string>(a.context) ?? null,
          asignatura: opt<string>(a.asignatura) ?? null,
          // MultipleChoiceTest: options with one correct answer unless asked for open questions.
          question_type: opt<"open" | "multiple_choice">(a.question_type) ?? "multiple_choice",
        });
      },
    },
  ],
};

/** The JSON Schema of an `ExternalToolRequest`. */
export const EXTERNAL_TOOL_REQUEST_SCHEMA = {
  type: "object",
  properties: {
    tool_type: { type: "string", enum: [...TOOL_TYPES] },
    tool_name: stringProp(
      'The tool: "AlphaFold", "ESMFold", "FDA_Drug_Database", or a repository or collection name',
    ),
    query: {
      type: "object",
      description:
        "ProteinQuery {sequence, structure_type?} | DatabaseQuery {search_criteria, max_results?} | RepositoryQuery {search_terms, filters?}",
    },
    constraints: { type: "object", description: 'e.g. {"approval_year": {"after": 2010}}' },
    timeout_seconds: { type: "integer", minimum: 1, default: 300 },
  },
  required: ["tool_type", "tool_name", "query"],
} as const;

const coScientist: SeedProfile = {
  name: "co-scientist",
  // ProteinStructureResult.structure_data is the PDB text itself, never a link: a structure over the
  // answer's budget comes as a resource link, which the executor reads back (`withLinksRead`).
  description:
    "The AI co-scientist's External Tools Interface: POST /external-tools/execute (ExternalToolRequest → ExternalToolResponse).",
  tools: [
    {
      name: "execute_external_tool",
      description:
        "Run an external tool of the co-scientist's interface (AlphaFold/ESMFold, FDA_Drug_Database, your private repositories) with an ExternalToolRequest; answers an ExternalToolResponse.",
      inputSchema: EXTERNAL_TOOL_REQUEST_SCHEMA,
      uses: ["alphafold_predict_structure", "fda_search_drugs", "private_repo_search"],
      run: (caller, args, ctx) =>
        createExternalToolExecutor(caller, ctx).execute(args as unknown as ExternalToolRequest),
    },
  ],
};

/**
 * The three seed systems as profiles a host serves (`quiver serve --profile <name>`): each tool under
 * the seed's own name with its exact arguments and return value.
 *
 * @example
 * const profile = SEED_PROFILES["code-agent"];
 * const result = await profile.tools[0]!.run(catalog, { query: "useState hook", library: "react" }, {});
 */
export const SEED_PROFILES: Readonly<Record<SeedProfileName, SeedProfile>> = {
  "code-agent": codeAgent,
  chatbot,
  "co-scientist": coScientist,
};

/** The profiles' names, for usage errors. */
export const SEED_PROFILE_NAMES = Object.keys(SEED_PROFILES) as SeedProfileName[];
