import type { Caller } from "./caller.js";
import { type DurationInput, toMillis } from "./duration.js";
import type { ContentPart } from "./envelope.js";
import type { HttpClient } from "./http/index.js";
import { templateProblem } from "./runtime/uri-template.js";

// Named places in the plugin contract for what later issues add (VERSIONING.md, "Reserved slots").
// Their shapes are settled; `definePlugin` checks their names, registration carries them to the
// catalog (`PluginInfo.slots`, `ToolInfo.task`/`view`). The catalog lists and serves resources,
// templates, prompts and completions (`catalog.readResource` ...); hosts serve the rest later.

/** What a slot's function (a resource read, a prompt, a completion) receives. */
export interface SlotContext<Config = unknown, Resources = unknown> {
  /** Who is asking, as a tool's `ctx.caller`. */
  readonly caller: Caller;
  readonly config: Config;
  /** What the plugin's `setup` opened (undefined without a setup). */
  readonly resources: Resources;
  readonly http: HttpClient;
  readonly signal: AbortSignal;
}

/**
 * Completes an argument (a prompt's, a resource template variable's) from real data: the values
 * starting with what the client has typed, best first. `given` holds the other arguments or variables
 * the client has already filled in (MCP's `context.arguments`, e.g. the subject chosen beside a
 * section), empty when it sent none.
 */
export type Completer<Config = unknown, Resources = unknown> = (
  value: string,
  ctx: SlotContext<Config, Resources>,
  given: Readonly<Record<string, string>>,
) => Promise<ReadonlyArray<string>> | ReadonlyArray<string>;

/**
 * Other names for one of the plugin's tools and its parameters, so prompts written for another
 * server keep working.
 *
 * @example
 * const alias: ToolAlias = { alias: "resolve-library-id", tool: "context7_resolve_library_id", parameters: { libraryName: "library_name" } }
 */
export interface ToolAlias {
  /** The other name (a valid tool name). */
  readonly alias: string;
  /** The plugin's tool it stands for. */
  readonly tool: string;
  /** The other parameter names: alias parameter → the tool's parameter. */
  readonly parameters?: Readonly<Record<string, string>>;
}

/**
 * A named set of aliases a host may turn on as one, e.g. the official Context7 server's names.
 *
 * @example
 * const official: AliasSet = {
 *   name: "context7-mcp", description: "@upstash/context7-mcp's names",
 *   tools: [{ alias: "resolve-library-id", tool: "context7_resolve_library_id", parameters: { libraryName: "library_name" } }],
 * }
 */
export interface AliasSet {
  /** `^[a-z0-9-]+$`, unique within the plugin. */
  readonly name: string;
  readonly description?: string;
  readonly tools: ReadonlyArray<ToolAlias>;
}

/** A resource's contents (MCP `resources/read`): text, or binary as base64. */
export type ResourceContents =
  | { readonly uri: string; readonly mimeType?: string; readonly text: string }
  | { readonly uri: string; readonly mimeType?: string; readonly blob: string };

/** What MCP lists of a resource. */
export interface ResourceDescriptor {
  /** Unique within the plugin. */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Size in bytes, when known. */
  readonly size?: number;
}

/** A resource at a fixed URI (MCP `resources/list`), read under the caller's identity. */
export interface PluginResource<Config = unknown, Resources = unknown> extends ResourceDescriptor {
  readonly uri: string;
  readonly read: (
    ctx: SlotContext<Config, Resources>,
  ) => Promise<ReadonlyArray<ResourceContents>> | ReadonlyArray<ResourceContents>;
}

/** Resources named by a URI template (RFC 6570, MCP `resources/templates/list`), e.g. a document by id. */
export interface PluginResourceTemplate<Config = unknown, Resources = unknown> extends ResourceDescriptor {
  /** `fda://label/{setId}` */
  readonly uriTemplate: string;
  /** Completions of the template's variables, by variable name. */
  readonly complete?: Readonly<Record<string, Completer<Config, Resources>>>;
  readonly read: (
    uri: string,
    variables: Readonly<Record<string, string>>,
    ctx: SlotContext<Config, Resources>,
  ) => Promise<ReadonlyArray<ResourceContents>> | ReadonlyArray<ResourceContents>;
}

/** An argument of a prompt. */
export interface PromptArgument<Config = unknown, Resources = unknown> {
  readonly name: string;
  readonly description?: string;
  readonly required?: boolean;
  /** Completes the argument (MCP `completion/complete`). */
  readonly complete?: Completer<Config, Resources>;
}

/** One message of a prompt. */
export interface PromptMessage {
  readonly role: "user" | "assistant";
  readonly content: ContentPart;
}

/** A prompt the plugin ships (MCP `prompts/list`, `prompts/get`). */
export interface PluginPrompt<Config = unknown, Resources = unknown> {
  /** Unique within the plugin. */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: ReadonlyArray<PromptArgument<Config, Resources>>;
  readonly get: (
    args: Readonly<Record<string, string>>,
    ctx: SlotContext<Config, Resources>,
  ) => Promise<ReadonlyArray<PromptMessage>> | ReadonlyArray<PromptMessage>;
}

/** A view of tool results (MCP Apps): an HTML page served as a `ui://` resource. */
export interface PluginView {
  /** Unique within the plugin; a tool names it in `view`. */
  readonly name: string;
  /** `ui://<plugin>/<view>` */
  readonly uri: `ui://${string}`;
  readonly title?: string;
  readonly description?: string;
  /** The page's HTML, bundled with the package (no network). */
  readonly html: () => Promise<string> | string;
}

/**
 * A change of a plugin's resources: one resource's contents changed (`uri`), or, without a URI, the
 * list of its resources (a document added to a collection, say).
 */
export interface ResourceChange {
  readonly uri?: string;
}

/**
 * Watches a plugin's resources and calls `changed` when they change, including changes this process
 * did not make (another process writing the same index); returns how to stop. Started, once the
 * plugin's `setup` has opened, while someone listens (`catalog.onResourceChange`: an MCP client
 * subscribed to a resource or listening for list changes), stopped when nobody does.
 *
 * @example
 * // The index's list changes every minute, as another process writes it.
 * const watchResources: ResourceWatcher = (changed) => {
 *   const timer = setInterval(() => changed({ uri: "notes://index" }), 60_000)
 *   return () => clearInterval(timer)
 * }
 */
export type ResourceWatcher<Config = unknown, Resources = unknown> = (
  changed: (change?: ResourceChange) => void,
  ctx: { readonly config: Config; readonly resources: Resources },
) => (() => void) | Promise<() => void>;

/**
 * Whether a tool may run as a task (MCP tasks, `Prefer: respond-async`): `optional` only, so every
 * client can still call it plainly; the object form also declares the task's own deadline.
 *
 * @example
 * const task: ToolTaskSupport = { support: "optional", deadline: "10m" }
 */
export type ToolTaskSupport = "optional" | ToolTaskOptions;

/** A tool's task slot with its deadline: how long its task may run before it ends with what it found. */
export interface ToolTaskOptions {
  readonly support: "optional";
  /** The task's deadline (default the host's, 300 s); a host's per-tool setting and a request's `timeout_seconds` win. */
  readonly deadline?: DurationInput;
}

/**
 * A tool's task slot as the catalog lists it: `task: "optional"` and its deadline in milliseconds;
 * throws (a definition error) on a deadline that is not a positive duration.
 *
 * @example
 * taskSlotOf({ support: "optional", deadline: "10m" }) // { task: "optional", taskDeadlineMs: 600000 }
 */
export const taskSlotOf = (
  task: ToolTaskSupport | undefined,
): { readonly task?: "optional"; readonly taskDeadlineMs?: number } => {
  if (task === undefined) return {};
  if (task === "optional" || task.deadline === undefined) return { task: "optional" };
  const ms = toMillis(task.deadline);
  if (!Number.isFinite(ms) || ms <= 0)
    throw new TypeError(`A task deadline must be a positive duration, not ${JSON.stringify(task.deadline)}.`);
  return { task: "optional", taskDeadlineMs: ms };
};

/**
 * Who may see and call a tool (MCP Apps' `_meta.ui.visibility`): `"model"` the agent, `"app"` a view.
 * `["app"]` is a view-only tool: left out of the tool lists an agent reads (MCP `tools/list` for a
 * client without apps, the HTTP API's `GET /tools` and `/find`), listed with `_meta.ui.visibility`
 * for a client that renders views (whose host keeps it from its model), and callable by name.
 */
export type ToolVisibility = "model" | "app";

/**
 * True for a view-only tool: its visibility is given and leaves out `"model"`.
 *
 * @example
 * catalog.list().filter((t) => !viewOnly(t)) // the tools a model may be shown
 */
export const viewOnly = (tool: { readonly visibility?: ReadonlyArray<ToolVisibility> }): boolean =>
  tool.visibility !== undefined && !tool.visibility.includes("model");

/** The plugin's places for what later issues serve; every one optional and empty for now. */
export interface PluginSlots<Config = unknown, Resources = unknown> {
  /** The plugin's paragraph of the MCP server's instructions: when to use its tools, and when not. */
  readonly instructions?: string;
  /** Other names for its tools and their parameters, in named sets. */
  readonly aliasSets?: ReadonlyArray<AliasSet>;
  /** MCP resources at fixed URIs (not `setup`'s `ctx.resources`). */
  readonly resources?: ReadonlyArray<PluginResource<Config, Resources>>;
  readonly resourceTemplates?: ReadonlyArray<PluginResourceTemplate<Config, Resources>>;
  /** Tells the catalog when its resources change (MCP `resources/updated` and `list_changed`). */
  readonly watchResources?: ResourceWatcher<Config, Resources>;
  /** Prompts, with completion of their arguments. */
  readonly prompts?: ReadonlyArray<PluginPrompt<Config, Resources>>;
  /** MCP Apps views (`ui://` resources) its tools show results in. */
  readonly views?: ReadonlyArray<PluginView>;
}

const SLOT_KEYS = [
  "instructions",
  "aliasSets",
  "resources",
  "resourceTemplates",
  "watchResources",
  "prompts",
  "views",
] as const satisfies ReadonlyArray<keyof PluginSlots>;

/** The slots a definition fills, or undefined when it fills none. */
export const slotsOf = (definition: PluginSlots<any, any>): PluginSlots | undefined => {
  const filled = SLOT_KEYS.filter((k) => definition[k] !== undefined);
  return filled.length === 0 ? undefined : Object.fromEntries(filled.map((k) => [k, definition[k]]));
};

const namesOf = (items: ReadonlyArray<{ readonly name: string }> = []) => items.map((i) => i.name);

const duplicates = (names: ReadonlyArray<string>): string[] =>
  [...new Set(names.filter((n, i) => names.indexOf(n) !== i))].map((n) => `"${n}"`);

/**
 * The problems of a plugin's slots, tools and commands: names repeated within one of them (tools,
 * commands, aliases, sets, resources, prompts, views), aliases for tools it does not have, tools
 * naming a view it does not declare.
 */
export const slotProblems = (
  slots: PluginSlots<any, any>,
  tools: ReadonlyArray<{ readonly name: string; readonly view?: string | undefined }>,
  commands: ReadonlyArray<{ readonly name: string }> = [],
): string[] => {
  const problems: string[] = [];
  const unique = (what: string, names: ReadonlyArray<string>) => {
    const twice = duplicates(names);
    if (twice.length > 0) problems.push(`${what} ${twice.join(", ")} declared twice`);
  };
  const toolNames = new Set(tools.map((t) => t.name));
  unique("tool", namesOf(tools));
  unique("command", namesOf(commands));
  unique("alias set", namesOf(slots.aliasSets));
  for (const set of slots.aliasSets ?? []) {
    const aliases = set.tools.map((a) => a.alias);
    unique(`alias (set "${set.name}")`, aliases);
    for (const a of set.tools)
      if (!toolNames.has(a.tool))
        problems.push(`alias "${a.alias}" stands for "${a.tool}", not one of its tools`);
  }
  unique("resource", [...namesOf(slots.resources), ...namesOf(slots.resourceTemplates)]);
  unique("prompt", namesOf(slots.prompts));
  unique("view", namesOf(slots.views));
  for (const t of slots.resourceTemplates ?? []) {
    const problem = templateProblem(t.uriTemplate);
    if (problem) problems.push(problem);
  }
  const views = new Set(namesOf(slots.views));
  for (const t of tools)
    if (t.view !== undefined && !views.has(t.view))
      problems.push(
        `tool "${t.name}" shows its result in view "${t.view}", which the plugin does not declare`,
      );
  return problems;
};
