import { randomBytes } from "node:crypto";
import type { ContentPart } from "../envelope.js";
import type { ResourceContents } from "../plugin-slots.js";
import type { SessionContext } from "../runtime/call-types.js";
import type { RegisteredTool } from "../runtime/registered-tool.js";
import { fromStoredJson, type StoreDriver } from "../store/store-driver.js";
import type { RunOutput } from "./run-tool.js";

/** Where a call's spilled artifacts are read: `quiver://result/<unguessable id>/<name>`. */
export const RESULT_URI_PREFIX = "quiver://result/";

/** How long a spilled artifact stays readable unless the catalog says otherwise (`resultTtl`). */
export const DEFAULT_RESULT_TTL_MS = 60 * 60_000;

/** An embedded resource part of a tool's answer: an artifact that may be spilled. */
type ResourcePart = Extract<ContentPart, { type: "resource" }>;

/** A spilled artifact as stored: its contents, and the principal whose call made it. */
interface StoredResult {
  readonly owner: string | null;
  readonly mimeType: string | undefined;
  readonly text?: string;
  readonly blob?: string;
}

/** Characters an artifact takes in an answer (its text, or its base64). */
const charsOf = (part: ResourcePart): number =>
  "text" in part.resource ? part.resource.text.length : part.resource.blob.length;

/** Bytes of the artifact itself, as the link's `size` tells them. */
const bytesOf = (part: ResourcePart): number =>
  "text" in part.resource
    ? Buffer.byteLength(part.resource.text, "utf8")
    : Buffer.byteLength(part.resource.blob, "base64");

/** The last path segment of the artifact's own URI, as the link's name (`AF-P04637-F1.pdb`). */
const nameOf = (uri: string): string => {
  const segment = uri.split(/[?#]/)[0]!.split("/").filter(Boolean).at(-1) ?? "artifact";
  return segment.replace(/[^\w.-]/g, "_").slice(0, 100) || "artifact";
};

/**
 * The spill step, for an answer with content parts: each embedded resource larger than the tool's
 * output budget (`maxOutputChars`) is kept in the catalog's store, readable by the caller's principal
 * for `ttlMs`, and replaced in the answer by a `resource_link` (name, MIME type, size) to it. Written
 * before the answer returns, so any replica on the store reads the link at once. An answer without a
 * part over budget is returned as it is.
 */
export const spillArtifacts = async (
  reg: RegisteredTool,
  output: RunOutput,
  session: SessionContext,
  store: StoreDriver,
  ttlMs: number,
): Promise<RunOutput> => {
  const parts = output.metadata?.content as ReadonlyArray<ContentPart> | undefined;
  const budget = reg.policy.maxOutputChars;
  if (!parts?.some((p) => p.type === "resource" && charsOf(p) > budget)) return output;
  const spilled = await Promise.all(
    parts.map(async (part): Promise<ContentPart> => {
      if (part.type !== "resource" || charsOf(part) <= budget) return part;
      const { resource } = part;
      const name = nameOf(resource.uri);
      const uri = `${RESULT_URI_PREFIX}${randomBytes(18).toString("base64url")}/${name}`;
      const stored: StoredResult = {
        owner: session.principal ?? null,
        mimeType: resource.mimeType,
        ...("text" in resource ? { text: resource.text } : { blob: resource.blob }),
      };
      // Redacted as a cached result is: a plugin's secret never reaches the store.
      await store.set(resultKey(store, uri), reg.redactData(JSON.stringify(stored)), ttlMs);
      return {
        type: "resource_link",
        uri,
        name,
        description: `The full artifact ${reg.name} returned (${resource.uri}), kept for ${Math.round(ttlMs / 60_000)} min.`,
        ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
        size: bytesOf(part),
      };
    }),
  );
  return { ...output, metadata: { ...output.metadata, content: spilled } };
};

const resultKey = (store: StoreDriver, uri: string) =>
  `result:${store.key(uri.slice(RESULT_URI_PREFIX.length))}`;

/**
 * A spilled artifact's contents, for `resources/read`: only for the principal whose call made it (a
 * call without a principal made one that its unguessable URI alone reads). Another principal, an
 * expired link and an unknown one are all "not found", so a reader learns nothing of the others.
 */
export const readResultResource = async (
  uri: string,
  session: SessionContext,
  store: StoreDriver,
): Promise<ResourceContents | undefined> => {
  const stored = fromStoredJson<StoredResult>(await store.get(resultKey(store, uri)));
  if (!stored || stored.owner !== (session.principal ?? null)) return undefined;
  const mime = stored.mimeType ? { mimeType: stored.mimeType } : {};
  return stored.text !== undefined
    ? { uri, ...mime, text: stored.text }
    : { uri, ...mime, blob: stored.blob ?? "" };
};
