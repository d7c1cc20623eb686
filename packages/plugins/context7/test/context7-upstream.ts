import { readFileSync } from "node:fs";
import { editDistance } from "@quiver/core";
import { type Emulator, type EmulatorRequest, type EmulatorResponse, loadJson } from "@quiver/testing";

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);

type Library = Record<string, unknown> & { id: string; title: string };

const react = loadJson<{ results: Library[] }>(fixture("search-react.json")).results[0]!;
const nextjs = loadJson<{ results: Library[] }>(fixture("search-nextjs-v1.json")).results[0]!;
const like = (id: string, title: string, description: string): Library => ({
  ...react,
  id,
  title,
  description,
  versions: [],
});

/** The libraries the emulated Context7 knows: the recorded React and Next.js entries and a few look-alikes. */
export const CATALOGUE: Library[] = [
  react,
  nextjs,
  like("/facebook/react-native", "React Native", "A framework for building native applications using React"),
  like("/preactjs/preact", "Preact", "Fast 3kB React alternative with the same modern API"),
  like("/pallets/flask", "Flask", "The Python micro framework for building web applications"),
  like("/pallets-eco/flask-sqlalchemy", "Flask-SQLAlchemy", "Adds SQLAlchemy support to Flask"),
];

/** The recorded `type=json` context answer and its `text/plain` counterpart. */
export const CONTEXT_JSON = loadJson(fixture("context-nextjs.json"));
export const CONTEXT_TXT = readFileSync(fixture("context-nextjs.txt"), "utf8");
export const REDIRECT_BODY = loadJson(fixture("error-library-redirected.json"));
export const RATE_LIMIT_BODY = loadJson(fixture("error-rate-limit.json"));

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
const names = (l: Library) => [l.title, ...l.id.split("/").filter(Boolean)].map(norm);

/**
 * Context7's search as far as tests need it: a library answers when one of its names is contained in
 * the requested name, contains it, or is within two edits of it — exact names first.
 */
const searchCatalogue = (libraryName: string): Library[] => {
  const want = norm(libraryName);
  if (want === "") return [];
  const score = (l: Library) => {
    const ns = names(l);
    if (ns.includes(want)) return 0;
    if (ns.some((n) => n.length >= 3 && (want.includes(n) || n.includes(want)))) return 1;
    if (ns.some((n) => editDistance(n, want) <= 2)) return 2;
    return 3;
  };
  return CATALOGUE.map((l) => ({ l, s: score(l) }))
    .filter((x) => x.s < 3)
    .sort((a, b) => a.s - b.s)
    .map((x) => x.l);
};

/** Docs the emulated Context7 holds, by library id; everything else is `library_not_found`. */
export const DOCS: Record<string, "json" | "txt"> = { "/vercel/next.js": "json", "/facebook/react": "json" };

/** The facts kept from upstash/context7 `docs/openapi.json` (see fixtures/SOURCE.md). */
interface OpenApiFacts {
  readonly paths: Record<
    string,
    {
      readonly parameters: ReadonlyArray<{
        readonly name: string;
        readonly required?: boolean;
        readonly schema: {
          readonly minLength?: number;
          readonly maxLength?: number;
          readonly pattern?: string;
          readonly enum?: ReadonlyArray<string>;
        };
      }>;
      readonly responses: Record<
        string,
        {
          readonly headers?: ReadonlyArray<string>;
          readonly content: Record<string, { example?: unknown; examples?: Record<string, unknown> }>;
        }
      >;
    }
  >;
}

/** Context7's OpenAPI facts for `/v2/libs/search` and `/v2/context`. */
export const OPENAPI = loadJson<OpenApiFacts>(fixture("context7-openapi-v2.json"));

/** The documented paths, as the API names them (under `/api` on the emulator). */
export type Context7Path = "/v2/libs/search" | "/v2/context";

/** Every documented status of a path, with the names of its examples (one entry per example). */
export const documentedStatuses = (path: Context7Path): Array<{ status: number; example?: string }> =>
  Object.entries(OPENAPI.paths[path]!.responses).flatMap(([status, r]) => {
    const json = r.content["application/json"];
    const names = Object.keys(json?.examples ?? {});
    return names.length > 0
      ? names.map((example) => ({ status: Number(status), example }))
      : [{ status: Number(status) }];
  });

/**
 * The documented answer of `path` for `status` (`example` picks one of several), with the
 * documented headers (a 429 carries `Retry-After` and the `RateLimit-*` trio).
 *
 * @example
 * up.route("GET", "/api/v2/context", documented("/v2/context", 422, "noCode"));
 */
export const documented = (path: Context7Path, status: number, example?: string): EmulatorResponse => {
  const response = OPENAPI.paths[path]?.responses[String(status)];
  const json = response?.content["application/json"];
  if (!json) throw new Error(`Context7 documents no JSON answer ${status} for ${path}`);
  const body =
    example === undefined
      ? (json.example ?? Object.values(json.examples ?? {})[0])
      : json.examples?.[example];
  if (body === undefined) throw new Error(`no example ${example} for ${status} ${path}`);
  const headers: Record<string, string> = {};
  for (const name of response.headers ?? []) {
    headers[name.toLowerCase()] =
      name === "RateLimit-Reset"
        ? String(Math.ceil(Date.now() / 1000) + 60)
        : name === "RateLimit-Remaining"
          ? "0"
          : "60";
  }
  return { status, json: body, headers };
};

/**
 * The 400 Context7 gives a request its OpenAPI document refuses (a required parameter missing or
 * empty, too long, outside its enum, a library id not matching the pattern), or undefined. The
 * bodies are the documented `validation_error` and `invalid_library_id` examples.
 */
export const refusal = (path: Context7Path, req: EmulatorRequest): EmulatorResponse | undefined => {
  const bad = (error: "validationError" | "invalidLibraryId", message?: string): EmulatorResponse => {
    const answer = documented(path, 400, error);
    return message === undefined ? answer : { ...answer, json: { ...(answer.json as object), message } };
  };
  for (const { name, required, schema } of OPENAPI.paths[path]!.parameters) {
    const value = req.query.get(name);
    if (value === null || value === "") {
      if (required) return bad("validationError", name === "libraryName" ? undefined : `${name} is required`);
      continue;
    }
    if (schema.maxLength !== undefined && value.length > schema.maxLength)
      return bad("validationError", `${name} must be at most ${schema.maxLength} characters`);
    if (schema.enum && !schema.enum.includes(value))
      return bad("validationError", `${name} must be one of ${schema.enum.join(", ")}`);
    if (schema.pattern && !new RegExp(schema.pattern).test(value)) return bad("invalidLibraryId");
  }
  return undefined;
};

/**
 * Registers Context7's v2 routes on an emulator, under `/api` (so the plugin's `baseUrl` is
 * `${up.url}/api`): `GET /api/v2/libs/search` and `GET /api/v2/context`. Requests the OpenAPI
 * document refuses get its documented 400; `type` decides between the JSON and the `text/plain`
 * answer (default `txt`, as documented).
 *
 * @example
 * routeContext7(up); catalog.register(createContext7Plugin(), { baseUrl: `${up.url}/api` });
 */
export const routeContext7 = (up: Emulator): void => {
  up.route("GET", "/api/v2/libs/search", (req) => {
    const refused = refusal("/v2/libs/search", req);
    if (refused) return refused;
    const results = searchCatalogue(req.query.get("libraryName") ?? "");
    if (results.length === 0) return documented("/v2/libs/search", 404, "noLibrariesFound");
    return { json: { results, searchFilterApplied: false } };
  });
  up.route("GET", "/api/v2/context", (req) => {
    const refused = refusal("/v2/context", req);
    if (refused) return refused;
    const id = req.query.get("libraryId") ?? "";
    const kind = DOCS[id];
    if (!kind) {
      const answer = documented("/v2/context", 404, "libraryNotFound");
      return {
        ...answer,
        json: {
          ...(answer.json as object),
          message: `Library "${id}" not found. Please check the library ID or your access permissions.`,
        },
      };
    }
    if (req.query.get("type") === "json" && kind === "json") return { json: CONTEXT_JSON };
    return { text: CONTEXT_TXT };
  });
};
