import type { RagOutput, RagResult } from "../tools/search.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const firstString = (...vs: unknown[]): string | undefined =>
  vs.find((v): v is string => typeof v === "string" && v.trim() !== "");
const numeric = (v: unknown) => typeof v === "number" || (typeof v === "string" && v.trim() !== "");
/** The first finite number, or numeric string read as one, among `vs`. */
const firstNumber = (...vs: unknown[]): number | undefined =>
  vs.filter(numeric).map(Number).find(Number.isFinite);

const CONTENT_KEYS = "content text snippet page_content pageContent chunk body passage document".split(" ");
const SOURCE_KEYS = "source file filename file_name path url title".split(" ");
const SCORE_KEYS = "score similarity relevance_score _score rerank_score".split(" ");
/** The text of an object under one of the content keys. */
const textOf = (o: Obj): string | undefined => firstString(...CONTENT_KEYS.map((k) => o[k]));

/** The list of hits in a response, whatever the service calls it. */
const hitsOf = (body: unknown): unknown[] | undefined => {
  if (Array.isArray(body)) return body;
  if (!isObj(body)) return undefined;
  // Chroma's columnar answer: {ids: [[...]], documents: [[...]], metadatas: [[...]], distances: [[...]]}.
  if (Array.isArray(body.documents) && Array.isArray(body.documents[0])) {
    const column = (v: unknown): unknown[] => (Array.isArray(v) && Array.isArray(v[0]) ? v[0] : []);
    const [metas, dists, ids] = [column(body.metadatas), column(body.distances), column(body.ids)];
    return column(body.documents).map((d, i) => ({
      content: d,
      metadata: metas[i],
      distance: dists[i],
      id: ids[i],
    }));
  }
  for (const key of "results result points hits matches documents data items chunks sources".split(" ")) {
    // An object inside is searched too: Qdrant {result: {points}}, Elasticsearch {hits: {hits}}.
    const inner = isObj(body[key]) ? hitsOf(body[key]) : body[key];
    if (Array.isArray(inner)) return inner;
  }
  return undefined;
};

const totalOf = (body: unknown): number | undefined =>
  isObj(body)
    ? (firstNumber(body.total_results, body.total, body.count) ??
      (isObj(body.total) ? firstNumber(body.total.value) : (totalOf(body.hits) ?? totalOf(body.result))))
    : undefined;

/** Merges metadata found at several depths: payload fields, payload.metadata, meta, metadata, metadata.metadata. */
const metadataOf = (item: Obj, payload: Obj | undefined): Obj => {
  const out: Obj = {};
  const merge = (m: unknown) => {
    if (!isObj(m)) return;
    for (const [k, v] of Object.entries(m)) {
      const longText = CONTENT_KEYS.includes(k) && typeof v === "string" && v.length > 200;
      if (k !== "metadata" && k !== "meta" && !longText) out[k] = v;
    }
    merge(m.metadata);
    merge(m.meta);
  };
  if (payload) merge(Object.fromEntries(Object.entries(payload).filter(([k]) => !CONTENT_KEYS.includes(k))));
  const nested = [item.document, item.node].map((o) => (isObj(o) ? o.metadata : undefined));
  for (const m of [item.payload_metadata, item.meta, item.metadata, ...nested]) merge(m);
  return out;
};

/** One hit as `{content, metadata: {source, asignatura, ...}, score}`; undefined when it has no text at all. */
export const normalizeHit = (given: unknown): RagResult | undefined => {
  // A bare string is a hit with only its text.
  const hit = typeof given === "string" ? { content: given } : given;
  if (!isObj(hit)) return undefined;
  const payload = [hit.payload, hit._source, hit.document, hit.node, hit.fields].find(isObj);
  const content =
    firstString(textOf(hit), hit.payload) ??
    (payload ? textOf(payload) : undefined) ??
    (payload && Object.keys(payload).length > 0 ? JSON.stringify(payload) : undefined);
  if (content === undefined) return undefined;
  const metadata = metadataOf(hit, payload);
  const source =
    firstString(...SOURCE_KEYS.map((k) => metadata[k]), hit.source, hit.title, hit.url) ??
    (typeof hit.id === "string" || typeof hit.id === "number" ? String(hit.id) : null);
  const asignatura =
    firstString(metadata.asignatura, metadata.subject, metadata.course, hit.asignatura) ?? null;
  const similarity = firstNumber(...SCORE_KEYS.map((k) => hit[k]));
  const distance = firstNumber(hit.distance, hit._distance, metadata.distance);
  // A distance is smaller-is-better and unbounded: 1 / (1 + d) turns it into a similarity in (0, 1].
  const score = similarity ?? (distance !== undefined ? 1 / (1 + Math.max(0, distance)) : null);
  return { content, metadata: { ...metadata, source, asignatura }, score };
};

/**
 * Why an answer in which {@link normalizeResults} found no result is not a search answer, or undefined
 * for a real (empty) list of hits under one of the names it reads. Anything else — `null`, `{}`, `"ok"`,
 * `{"results": null}`, `{"status": "ok"}`, a list whose hits all lack text — says nothing about the
 * material, so it must never read as "no results".
 *
 * @example
 * unusableAnswer({ results: [] }) // undefined: a real empty result list
 * unusableAnswer({ status: "ok" }) // 'no list of results (got {"status":"ok"})'
 */
export const unusableAnswer = (body: unknown): string | undefined => {
  const hits = hitsOf(body);
  // A short excerpt of the body for the message, never the whole of it.
  if (hits === undefined)
    return `no list of results (got ${JSON.stringify(body)?.slice(0, 120) ?? typeof body})`;
  // Hits there were, and none of them gave a result: none has any text.
  if (hits.length > 0)
    return `${hits.length} results without any text (the service may not return the payload)`;
  return undefined;
};

/**
 * The message of an error object a service sent instead of results (`{"error": ...}`, FastAPI's
 * `{"detail": ...}`, `{"success": false}`), for an answer in which {@link normalizeResults} found no result.
 */
export const errorInBody = (body: unknown): string | undefined => {
  if (!isObj(body)) return undefined;
  const said = [body.error, body.errors, body.detail].find((v) => v != null && v !== false && v !== "");
  const failed = said !== undefined || body.success === false || body.status === "error";
  if (!failed) return undefined;
  const text = [said, (said as { message?: unknown } | undefined)?.message, body.message].find(
    (t): t is string => typeof t === "string" && t !== "",
  );
  return (text ?? JSON.stringify(said ?? body)).slice(0, 300);
};

/**
 * Normalises a RAG service's answer into `{query, total_results, results}`: the hit list may be called
 * results, result (Qdrant legacy), result.points (Qdrant query), points, hits (also Elasticsearch's
 * hits.hits), matches, documents (also Chroma's columns), data or items, or be the body itself; each hit's
 * text may be content, text, snippet, page_content or payload (or inside the payload); the score may be
 * score, similarity, relevance_score or a distance (converted so higher is better); metadata is merged from
 * the payload, payload.metadata, meta and metadata at any depth. Results with scores are sorted best first.
 *
 * @example
 * normalizeResults({ result: { points: [{ id: 4, score: 1.36, payload: { text: "...", source: "t1.pdf" } }] } }, "q", 5)
 */
export const normalizeResults = (body: unknown, query: string, topK: number): RagOutput => {
  const hits = hitsOf(body);
  const given = hits ?? (isObj(body) && textOf(body) ? [body] : []);
  let results = given.map(normalizeHit).filter((r): r is RagResult => r !== undefined);
  // A stable sort: hits with the same score keep the service's order.
  if (results.every((r) => r.score !== null)) results = results.toSorted((a, b) => b.score! - a.score!);
  const total = Math.max(totalOf(body) ?? 0, results.length);
  return {
    query: (isObj(body) && typeof body.query === "string" && body.query) || query,
    total_results: total,
    results: results.slice(0, topK),
  };
};
