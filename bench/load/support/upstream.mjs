// The emulated upstreams both servers call during the load run: openFDA, Context7 (under /api) and
// Perplexity on one @quiver/testing emulator, answering with the fixtures the plugins' own tests use.
import { join } from "node:path";
import { loadJson, startEmulator } from "@quiver/testing";
import { PERPLEXITY_KEY } from "./workload.mjs";

const fixtures = (repo, plugin) => join(repo, "packages", "plugins", plugin, "test", "fixtures");

/**
 * Starts the emulator and registers the routes; `delayMs` delays every answer (a real upstream is
 * never instant). `forget()` drops the emulator's record of requests (it keeps every request it has
 * seen, which over a long run would grow the bench's own memory) and returns how many there were.
 */
export const startUpstream = async ({ repo, delayMs = 0 }) => {
  const fda = loadJson(
    join(repo, "apps", "host", "test", "fixtures", "openfda", "drugsfda_tirzepatide_limit1.json"),
  );
  const c7 = fixtures(repo, "context7");
  const libraries = [
    ...loadJson(join(c7, "search-nextjs-v1.json")).results,
    ...loadJson(join(c7, "search-react.json")).results,
  ];
  const context = loadJson(join(c7, "context-nextjs.json"));
  const chat = loadJson(join(fixtures(repo, "perplexity"), "chat-sonar-citations.json"));
  const search = loadJson(join(fixtures(repo, "perplexity"), "search-san-francisco.json"));
  const unauthorised = { status: 401, text: "Authorization Required" };

  const up = await startEmulator();
  const later = (answer) =>
    delayMs > 0 ? (req) => new Promise((r) => setTimeout(() => r(answer(req)), delayMs)) : answer;
  const authorised = (answer) => (req) =>
    req.headers.authorization === `Bearer ${PERPLEXITY_KEY}` ? answer(req) : unauthorised;
  const routes = () => {
    up.route(
      "GET",
      /^\/drug\/(drugsfda|label)\.json$/,
      later(() => ({ json: fda })),
    );
    up.route(
      "GET",
      "/api/v2/libs/search",
      later(() => ({ json: { results: libraries, searchFilterApplied: false } })),
    );
    up.route(
      "GET",
      "/api/v2/context",
      later(() => ({ json: context })),
    );
    up.route(
      "POST",
      "/chat/completions",
      later(authorised((req) => ({ json: { ...chat, model: req.json?.model ?? "sonar" } }))),
    );
    up.route("POST", "/search", later(authorised(() => ({ json: search }))));
  };
  routes();
  return {
    url: up.url,
    forget: () => {
      const n = up.requests.length;
      // reset() also drops the routes; both happen in one turn, so no request sees the gap.
      up.reset();
      routes();
      return n;
    },
    close: () => up.close(),
  };
};
