import type { ErrorKind } from "../error-kinds.js";
import type {
  PluginPrompt,
  PromptArgument,
  PromptMessage,
  ResourceChange,
  ResourceDescriptor,
} from "../plugin-slots.js";
import type { SessionContext } from "../runtime/call-types.js";

/** A resource at a fixed URI, as the catalog lists it. */
export interface ResourceInfo extends ResourceDescriptor {
  readonly uri: string;
  /** The plugin serving it. */
  readonly plugin: string;
}

/** A resource template (RFC 6570, `{name}` and `{+name}`), as the catalog lists it. */
export interface ResourceTemplateInfo extends ResourceDescriptor {
  readonly uriTemplate: string;
  readonly plugin: string;
  /** The variables it completes (MCP `completion/complete`). */
  readonly completes: ReadonlyArray<string>;
}

/** A prompt, as the catalog lists it. */
export interface PromptInfo extends Omit<PluginPrompt, "get" | "arguments"> {
  /** Its arguments, each with whether it completes from real data. */
  readonly arguments: ReadonlyArray<Omit<PromptArgument, "complete"> & { readonly completes: boolean }>;
  readonly plugin: string;
}

/** A prompt's messages for the arguments given. */
export interface PromptAnswer {
  readonly description?: string;
  readonly messages: ReadonlyArray<PromptMessage>;
}

/** Why a resource read, a prompt or a completion gave nothing: a call's kinds, and `not_found`. */
export type SlotFailureKind = ErrorKind | "not_found";

/**
 * How a read, a prompt or a completion ended: its value, or why not (never thrown; the message is
 * for the model, the plugin's secrets redacted).
 */
export type SlotAnswer<T> =
  | { readonly ok: true; readonly value: T }
  | Readonly<{ ok: false; kind: SlotFailureKind; message: string; retryAfterMs?: number }>;

/** Who asks (as for a call: the principal reads only what it may) and when to give up. */
export interface SlotCallOptions {
  readonly session?: SessionContext;
  readonly signal?: AbortSignal;
}

/**
 * What a completion completes: a prompt's argument or a resource template's variable, with the other
 * arguments or variables the client has already filled in (`arguments`, MCP's `context.arguments`).
 */
export type CompletionTarget = (
  | { readonly prompt: string; readonly argument: string }
  | { readonly uriTemplate: string; readonly argument: string }
) & { readonly arguments?: Readonly<Record<string, string>> };

/** A change of a plugin's resources, as the catalog tells it: whose, and which (no `uri`: the list). */
export interface CatalogResourceChange extends ResourceChange {
  readonly plugin: string;
}

/** A listener of `catalog.onResourceChange`. */
export type ResourceChangeListener = (change: CatalogResourceChange) => void;
