import { createHash } from "node:crypto";

/** The `_meta` key of each listed tool's digest (prefix `quiver/`: short, as every listed tool carries it). */
export const TOOL_DIGEST_META_KEY = "quiver/digest";

/** What of a listed tool the digest pins: what tools/list sends of it. */
export interface DigestedDefinition {
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema: { readonly [k: string]: unknown };
  readonly annotations?: { readonly title?: string | undefined } | undefined;
}

// The AI SDK's canonical JSON (ai 7, src/util/canonical-hash.ts), copied as it is, quirks included
// (an `undefined` member prints as `undefined`): a digest equal to its own must hash the same
// bytes. Written here because the AI SDK does not export it and `ai` is far too large to bundle
// into the servers for two small functions; the test compares with the AI SDK's fingerprintTools.
const canonicalJson = (value: unknown): string => {
  if (value === null || value === undefined) return JSON.stringify(value);
  if (typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((e) => (e === undefined ? "null" : canonicalJson(e))).join(",")}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`)
    .join(",")}}`;
};

/**
 * A listed tool's digest, equal to what the AI SDK's `fingerprintTools` gives for the tool its MCP
 * client (`@ai-sdk/mcp`) makes of this definition: SHA-256 (base64url) of the canonical JSON of
 * the description, the input schema as that client passes it on (`properties` always present,
 * `additionalProperties: false`) and the title (the annotations' when the tool has none). A
 * client keeps a release's digests and runs `detectToolDrift` on what it is served later.
 *
 * @example
 * toolDigest({ description: "Echoes.", inputSchema: { type: "object", properties: {} } }) // "Xq3…" (43 characters)
 */
export const toolDigest = (definition: DigestedDefinition): string => {
  const { description, inputSchema } = definition;
  const pinned = {
    description: typeof description === "string" ? { type: "string", value: description } : { type: "none" },
    inputSchema: { ...inputSchema, properties: inputSchema.properties ?? {}, additionalProperties: false },
    title: definition.title ?? definition.annotations?.title,
  };
  return createHash("sha256").update(canonicalJson(pinned)).digest("base64url");
};
