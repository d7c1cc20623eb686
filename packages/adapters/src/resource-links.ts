import type { Catalog, ResourceContents, SlotAnswer, SlotCallOptions, ToolResult } from "@quiver/core";

/**
 * An MCP `resource_link` content item (MCP 2025-06-18 on): where the rest of a result is, to read with
 * `resources/read` (here {@link readResourceLink}) instead of inlining it.
 */
export interface ResourceLink {
  readonly type: "resource_link";
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Size in bytes, when known. */
  readonly size?: number;
}

const isLink = (part: unknown): part is ResourceLink => {
  const p = part as Partial<ResourceLink> | null;
  return p?.type === "resource_link" && typeof p.uri === "string" && typeof p.name === "string";
};

/**
 * The resource links of an envelope: the `resource_link` items among the content parts the tool returned
 * (`metadata.content`, which MCP clients receive as content blocks), in order.
 *
 * @example
 * const result = await catalog.call("alphafold_predict", { sequence: "MKTAYIAKQR" });
 * for (const link of resourceLinks(result)) console.log(link.name, link.mimeType, link.size);
 */
export const resourceLinks = (result: ToolResult): ResourceLink[] =>
  ((result.metadata.content ?? []) as ReadonlyArray<unknown>).filter(isLink);

/**
 * Reads a linked resource (or any resource URI) from the catalog the tools run on, under the same session
 * (a result resource is readable only by the principal whose call made it). Never throws: the answer is the
 * contents (`text`, or `blob` in base64) or `{ ok: false, kind, message }` (`not_found` among the kinds).
 *
 * @example
 * const session = { principal: "alice" };
 * const [link] = resourceLinks(await catalog.call("alphafold_predict", { sequence: "MKTAYIAKQR" }, { session }));
 * const read = link && (await readResourceLink(catalog, link, { session }));
 * if (read?.ok) console.log(read.value[0]);
 */
export const readResourceLink = (
  catalog: Pick<Catalog, "readResource">,
  link: ResourceLink | string,
  options: SlotCallOptions = {},
): Promise<SlotAnswer<ReadonlyArray<ResourceContents>>> =>
  catalog.readResource(typeof link === "string" ? link : link.uri, options);

/** What the read-resource tools answer the model: the contents, or why not. */
export const readAnswer = (answer: SlotAnswer<ReadonlyArray<ResourceContents>>) =>
  answer.ok ? { contents: answer.value } : { error: { kind: answer.kind, message: answer.message } };

/** The read-resource tools' name, description and input schema (JSON Schema), shared by the adapters. */
export const READ_RESOURCE_TOOL = {
  name: "read_resource",
  description:
    "Reads the resource at a URI, such as a resource_link a tool result gave (the full artifact a result " +
    "could not inline). Answers its contents: text, or binary as base64.",
  parameters: {
    type: "object" as const,
    properties: {
      uri: { type: "string" as const, description: "The resource's URI, as the link gives it." },
    },
    required: ["uri"],
    additionalProperties: false as const,
  },
};
