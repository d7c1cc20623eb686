import type { AnyTool } from "../define-tool.js";
import type { ResolvedPolicy } from "../policies/resolve-policy.js";
import { type InjectedField, injectedFields } from "./injected-fields.js";

/** What the runtime needs to know of a tool on every call, worked out once at registration. */
export interface ToolTraits {
  readonly destructive: boolean;
  /** Whether a call needs its cache id (cache or stale fallback). */
  readonly needsCacheId: boolean;
  /** Whether a call needs its canonical input (cache id or confirmation). */
  readonly needsCanonical: boolean;
  /** The tool's context-injected fields. */
  readonly inject: ReadonlyArray<InjectedField>;
}

/** Works out a tool's traits from its definition and resolved policy. */
export const toolTraits = (tool: AnyTool, policy: ResolvedPolicy): ToolTraits => {
  const needsCacheId = policy.cache !== undefined || Boolean(policy.fallback?.stale);
  const destructive = Boolean(tool.annotations?.destructive);
  return {
    destructive,
    needsCacheId,
    needsCanonical: needsCacheId || destructive,
    inject: injectedFields(tool),
  };
};
