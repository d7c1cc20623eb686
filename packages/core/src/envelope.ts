import { z } from "zod";
import { type ErrorKind, errorKindSchema } from "./error-kinds.js";

/** The statuses of a tool call, as the model sees them. */
export const toolStatusSchema = z.enum([
  "success",
  "partial",
  "error",
  "timeout",
  "access_denied",
  "unavailable",
]);

/** The status of a tool call, as the model sees it. */
export type ToolStatus = z.infer<typeof toolStatusSchema>;

/** The error part of an envelope. */
export const envelopeErrorSchema = z.object({
  kind: errorKindSchema,
  message: z.string().min(1).describe("What went wrong, in one line."),
  retryable: z.boolean().describe("Whether calling again may succeed."),
  retryAfterMs: z.number().nonnegative().optional().describe("How long to wait before calling again."),
});

/**
 * One typed part of a tool's answer besides its data, for clients that show media: text, an image
 * or audio clip (base64), an embedded resource (text or base64 blob at a URI), or a link to a
 * resource (an artifact too large for the answer, spilled by the runtime: MCP's `resource_link`).
 * The MCP adapter maps each part to the MCP content block of the same shape.
 */
export const contentPartSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("image"), data: z.string().describe("Base64"), mimeType: z.string() }),
  z.object({ type: z.literal("audio"), data: z.string().describe("Base64"), mimeType: z.string() }),
  z.object({
    type: z.literal("resource"),
    resource: z.union([
      z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string() }),
      z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string().describe("Base64") }),
    ]),
  }),
  z
    .object({
      type: z.literal("resource_link"),
      uri: z.string(),
      name: z.string(),
      title: z.string().optional(),
      description: z.string().optional(),
      mimeType: z.string().optional(),
      size: z.number().int().nonnegative().optional().describe("Bytes"),
    })
    .describe("Where the rest of the answer is: read it with MCP resources/read (or GET /resources?uri=)."),
]);

/** One typed part of a tool's answer (text, image, audio, embedded resource); see {@link contentPartSchema}. */
export type ContentPart = z.infer<typeof contentPartSchema>;

/** Facts about how a call ran; never holds a secret. Plugins may add fields. */
export const envelopeMetadataSchema = z.looseObject({
  tool: z.string(),
  plugin: z.string(),
  callId: z.string(),
  durationMs: z.number().nonnegative(),
  attempts: z.number().int().nonnegative(),
  cached: z.boolean(),
  /**
   * What the runtime changed to make the input valid, one line each (`limit: converted string "5"
   * to number 5`, `extra: unknown field, ignored`); absent when the input was used as sent.
   */
  repairs: z.array(z.string()).optional(),
  /** True when the data is a last-known value served because the tool failed. */
  stale: z.boolean().optional(),
  /** How old a stale value is, in milliseconds. */
  staleAgeMs: z.number().nonnegative().optional(),
  truncated: z.boolean(),
  /**
   * True when a `partial` holds what the tool found before the call ran out of time (its `error` is
   * the timeout): the answer is incomplete.
   */
  incomplete: z.boolean().optional(),
  /** Where the data came from (an upstream name or URL without secrets). */
  source: z.string().optional(),
  /** The tool that answered, when a fallback tool did. */
  fallbackTool: z.string().optional(),
  /**
   * Media the tool returned besides its data (`outcome(data, { content })`): images, audio, resources;
   * an embedded resource over the output budget is replaced by a `resource_link` to where it is kept.
   */
  content: z.array(contentPartSchema).optional(),
});

/** A pending confirmation of a destructive tool: call again with the token to run it. */
export const confirmationRequestSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  preview: z.unknown(),
});

/**
 * The result envelope as a zod schema: the one definition of what every call resolves with. The
 * TypeScript types below, @quiver/testing's checks and @quiver/mcp's `outputSchema` derive from it.
 */
export const envelopeSchema = z.object({
  status: toolStatusSchema,
  message: z.string().min(1).describe("One line: what happened."),
  data: z.unknown().optional().describe("The tool's output (on partial: what there is)."),
  instruction: z.string().optional().describe("How to use the data."),
  error: envelopeErrorSchema.optional(),
  suggestion: z.string().optional().describe("How to recover: the corrected call, a narrower query."),
  guidance: z.string().optional().describe("What to do instead when the tool is unavailable."),
  escalate: z
    .boolean()
    .optional()
    .describe("True after repeated failures in one session: tell the user, stop retrying."),
  confirmation: confirmationRequestSchema.optional(),
  metadata: envelopeMetadataSchema,
});

/** The error part of an envelope. */
export type EnvelopeError = Readonly<z.infer<typeof envelopeErrorSchema>> & { readonly kind: ErrorKind };

/** Facts about how a call ran; never holds a secret. */
export type EnvelopeMetadata = Readonly<z.infer<typeof envelopeMetadataSchema>>;

/** A pending confirmation of a destructive tool: call again with the token to run it. */
export type ConfirmationRequest = Readonly<z.infer<typeof confirmationRequestSchema>>;

/**
 * The one result shape of every tool call. A call never throws: invalid input, upstream failures,
 * timeouts, defects and interruptions all come back as an envelope.
 */
export type ToolResult<T = unknown> = Readonly<
  Omit<z.infer<typeof envelopeSchema>, "data" | "error" | "metadata" | "confirmation">
> & {
  /** The validated output (on partial: what there is). */
  readonly data?: T;
  readonly error?: EnvelopeError;
  readonly confirmation?: ConfirmationRequest;
  readonly metadata: EnvelopeMetadata;
};

/** The envelope status for an error kind. */
export const statusForKind = (kind: ErrorKind): ToolStatus =>
  kind === "timeout" || kind === "access_denied" || kind === "unavailable" ? kind : "error";
