import type * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import type { Catalog, CatalogOptions } from "../catalog/catalog-types.js";
import type { PluginEntry } from "../catalog/registry.js";
import type {
  CompletionTarget,
  SlotAnswer,
  SlotCallOptions,
  SlotFailureKind,
} from "../catalog/slot-types.js";
import { fail } from "../errors.js";
import type { HttpClient } from "../http/index.js";
import type { SlotContext } from "../plugin-slots.js";
import type { PolicyKit } from "../policies/policy-kit.js";
import type { RateLimitStep } from "../policies/rate-limit-policy.js";
import { type ResolvedRateLimit, resolvePolicy } from "../policies/resolve-policy.js";
import { retryAfter, retryPlan } from "../policies/retry-policy.js";
import { timedOut } from "../policies/timeout-policy.js";
import { matchTemplate } from "../runtime/uri-template.js";
import { RESULT_URI_PREFIX, readResultResource } from "./result-resources.js";
import { type CallRunnerOptions, missingScopes } from "./run-call.js";
import { callerOf, toFailure } from "./run-tool.js";
import { breakerOf } from "./tool-steps.js";

/** What the plugins' resources, prompts and completions are served with: the calls' runtime. */
export type SlotRunnerOptions = Pick<
  CallRunnerOptions,
  "registry" | "runtime" | "sources" | "requiredScopes"
> & { readonly http: HttpClient; readonly policies: CatalogOptions["policies"] };

/** Reads resources, gets prompts and completes their arguments; every answer a {@link SlotAnswer}. */
export type SlotRunner = Pick<Catalog, "readResource" | "getPrompt" | "complete">;

type Body<T> = (ctx: SlotContext) => Promise<T> | T;

const refused = (kind: SlotFailureKind, message: string): SlotAnswer<never> => ({ ok: false, kind, message });

/** A slot's policies are those of a read-only tool that reaches its plugin's upstream. */
const SLOT_ANNOTATIONS = { readOnly: true, openWorld: true } as const;

/** Most completions one answer carries (MCP's limit). */
const MAX_COMPLETIONS = 100;

/**
 * The plugins' slots served as tools are: under the caller's identity (a read sees `ctx.caller`, and
 * the scopes the host requires for `{ plugin, name }`), once the plugin's `setup` has opened its
 * resources, with the plugin's HTTP client, and through the policies a read-only, open-world tool of
 * the plugin gets (its circuit breaker, shared with its tools by key; the timeout; retries of
 * transient failures); a resource read also takes the rate limits the plugin's tools share. A failure is an answer with a kind and a redacted message, never thrown.
 */
export const createSlotRunner = (options: SlotRunnerOptions): SlotRunner => {
  const { registry, runtime, http, sources } = options;

  /**
   * Each plugin's shared rate limits, as its reads take them (built at the first read): those its
   * tools share, each distinct key once (a per-caller limit per caller), so reads and calls count in
   * the same buckets.
   */
  const readLimits = new Map<string, RateLimitStep | undefined>();
  const limitsOf = (kit: PolicyKit, pluginId: string) => {
    if (!readLimits.has(pluginId)) {
      const byKey = new Map<string, ResolvedRateLimit>();
      for (const reg of registry.tools())
        if (reg.pluginId === pluginId)
          for (const limit of reg.policy.rateLimit ?? []) byKey.set(limit.key, limit);
      readLimits.set(pluginId, kit.rateLimitStep(kit.context, [...byKey.values()], `the ${pluginId} plugin`));
    }
    return readLimits.get(pluginId);
  };

  const run = async <T>(
    entry: PluginEntry,
    name: string,
    callOptions: SlotCallOptions,
    body: Body<T>,
    /** A resource read reaches the plugin's upstream as its tools do: it takes their rate limits too. */
    limited = false,
  ): Promise<SlotAnswer<T>> => {
    const { plugin, info, resources } = entry;
    if (info.status !== "ready")
      return refused("unavailable", `${plugin.id} is not configured here: ${info.message ?? ""}`.trim());
    const session = callOptions.session ?? {};
    const missing = missingScopes(options.requiredScopes, { name, plugin: plugin.id }, session);
    if (missing.length > 0)
      return refused(
        "access_denied",
        `${name} needs the scope(s) ${missing.join(", ")}, which this token lacks.`,
      );
    const policy = resolvePolicy(plugin.id, SLOT_ANNOTATIONS, undefined, options.policies?.["*"]);
    const context = (runtime.cachedContext ?? (await runtime.context())) as Context.Context<never>;
    const attempt = Effect.tryPromise({
      try: async (signal) => {
        await resources.open();
        return body({
          caller: callerOf(session),
          config: entry.config,
          resources: resources.current,
          http,
          signal,
        });
      },
      catch: (error) => toFailure(error, name),
    });
    const retry = retryPlan(policy.retry);
    const retried = retry ? Effect.catch(attempt, (first) => retryAfter(retry, first, attempt)) : attempt;
    const timed = Effect.timeoutOrElse(retried, {
      duration: policy.timeoutMs,
      orElse: () => Effect.fail(timedOut(name, policy.timeoutMs, undefined)),
    });
    const kit = policy.breaker || limited ? await sources.policyKit() : undefined;
    const breaker = kit && breakerOf(policy.breaker, kit, sources);
    const breakerGuarded = breaker ? breaker.guard(timed, name) : timed;
    const limits = limited && kit ? limitsOf(kit, plugin.id) : undefined;
    const tokens = limits && (limits.shared ?? limits.forCaller?.(session.principal));
    const guarded = tokens ? Effect.andThen(tokens, breakerGuarded) : breakerGuarded;
    const exit = await Effect.runPromiseExitWith(context)(
      guarded,
      callOptions.signal ? { signal: callOptions.signal } : undefined,
    );
    if (Exit.isSuccess(exit)) return { ok: true, value: exit.value };
    const error = Exit.findErrorOption(exit);
    const failure =
      error._tag === "Some" ? error.value : fail.unavailable(`${name} was cancelled before it finished.`);
    return {
      ok: false,
      kind: failure.kind,
      message: entry.redact(failure.message),
      ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
    };
  };

  /** The plugin and slot a URI names: a fixed resource by its URI, else the first template it matches. */
  const resourceAt = (uri: string) => {
    for (const entry of registry.plugins()) {
      const fixed = entry.plugin.resources?.find((r) => r.uri === uri);
      if (fixed) return { entry, name: fixed.name, body: (ctx: SlotContext) => fixed.read(ctx) };
    }
    for (const entry of registry.plugins())
      for (const t of entry.plugin.resourceTemplates ?? []) {
        const variables = matchTemplate(t.uriTemplate, uri);
        if (variables)
          return { entry, name: t.name, body: (ctx: SlotContext) => t.read(uri, variables, ctx) };
      }
    return undefined;
  };

  const promptNamed = (name: string) => {
    for (const entry of registry.plugins()) {
      const prompt = entry.plugin.prompts?.find((p) => p.name === name);
      if (prompt) return { entry, prompt };
    }
    return undefined;
  };

  /** The completer of a prompt's argument or a template's variable, with its plugin. */
  const completerOf = (target: CompletionTarget) => {
    if ("prompt" in target) {
      const p = promptNamed(target.prompt);
      const complete = p?.prompt.arguments?.find((a) => a.name === target.argument)?.complete;
      return p && complete ? { entry: p.entry, name: p.prompt.name, complete } : undefined;
    }
    for (const entry of registry.plugins())
      for (const t of entry.plugin.resourceTemplates ?? []) {
        const complete = t.uriTemplate === target.uriTemplate ? t.complete?.[target.argument] : undefined;
        if (complete) return { entry, name: t.name, complete };
      }
    return undefined;
  };

  return {
    readResource: async (uri, callOptions = {}) => {
      if (uri.startsWith(RESULT_URI_PREFIX)) {
        const kept = await readResultResource(uri, callOptions.session ?? {}, sources.store);
        return kept ? { ok: true, value: [kept] } : refused("not_found", `No resource at ${uri}.`);
      }
      const found = resourceAt(uri);
      if (!found) return refused("not_found", `No resource at ${uri}.`);
      const answer = await run(found.entry, found.name, callOptions, found.body, true);
      if (answer.ok && answer.value.length === 0) return refused("not_found", `No resource at ${uri}.`);
      return answer;
    },
    getPrompt: async (name, args, callOptions = {}) => {
      const found = promptNamed(name);
      if (!found) return refused("not_found", `No prompt named "${name}".`);
      const absent = (found.prompt.arguments ?? []).filter((a) => a.required && !args[a.name]);
      if (absent.length > 0)
        return refused("invalid_input", `${name} needs ${absent.map((a) => a.name).join(", ")}.`);
      return run(found.entry, name, callOptions, async (ctx) => ({
        ...(found.prompt.description ? { description: found.prompt.description } : {}),
        messages: await found.prompt.get(args, ctx),
      }));
    },
    complete: async (target, value, callOptions = {}) => {
      const found = completerOf(target);
      // Nothing to complete is an empty list, as MCP answers it, not an error.
      if (!found) return { ok: true, value: [] };
      // The others already filled in, not the one being completed.
      const { [target.argument]: _, ...given } = target.arguments ?? {};
      const answer = await run(found.entry, found.name, callOptions, (ctx) =>
        found.complete(value, ctx, given),
      );
      return answer.ok ? { ok: true, value: answer.value.slice(0, MAX_COMPLETIONS) } : answer;
    },
  };
};
