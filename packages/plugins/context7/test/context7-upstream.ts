import { readFileSync } from "node:fs";
import { editDistance } from "@quiver/core";
import { type Emulator, loadJson } from "@quiver/testing";

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
export const NOT_FOUND_BODY = loadJson(fixture("error-library-not-found.json"));
export const REDIRECT_BODY = loadJson(fixture("error-library-redirected.json"));
export const RATE_LIMIT_BODY = loadJson(fixture("error-rate-limit.json"));

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
const names = (l: Library) => [l.title, ...l.id.split("/").filter(Boolean)].map(norm);

/**
 * Context7's search as far as tests need it: a library answers when one of its names is contained in
 * the requested name, contains it, or is within two edits of it — exact names first.
 */
export const searchCatalogue = (libraryName: string): Library[] => {
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

/**
 * Registers Context7's v2 routes on an emulator, under `/api` (so the plugin's `baseUrl` is
 * `${up.url}/api`): `GET /api/v2/libs/search` and `GET /api/v2/context`.
 *
 * @example
 * routeContext7(up); catalog.register(createContext7Plugin(), { baseUrl: `${up.url}/api` });
 */
export const routeContext7 = (up: Emulator): void => {
  up.route("GET", "/api/v2/libs/search", (req) => ({
    json: { results: searchCatalogue(req.query.get("libraryName") ?? ""), searchFilterApplied: false },
  }));
  up.route("GET", "/api/v2/context", (req) => {
    const id = req.query.get("libraryId") ?? "";
    const kind = DOCS[id];
    if (!kind)
      return {
        status: 404,
        json: {
          ...(NOT_FOUND_BODY as object),
          message: `Library "${id}" not found. Please check the library ID or your access permissions.`,
        },
      };
    if (req.query.get("type") === "json" && kind === "json") return { json: CONTEXT_JSON };
    return { text: CONTEXT_TXT };
  });
};
