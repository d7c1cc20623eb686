// What @quiver/host's examples take as given (see scripts/examples/check-examples.mjs): the
// settings, plugins and HTTP exchange a host's code has at hand.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AnyPlugin, Catalog, PluginCommand } from "@quiver/core";
import type { Host, HostFlags } from "@quiver/host";
import type { Output } from "../../src/cli/output.js";
import type { HostSettings } from "../../src/config/host-settings.js";
import type { LoadedPlugin, PluginCandidate, PluginProblem } from "../../src/discovery/types.js";
import type { HostProfile } from "../../src/profiles/host-profile.js";

export * as http from "node:http";
/** A catalog with plugins registered, and the host that owns one. */
export declare const catalog: Catalog;
export declare const host: Host;
/** The command line's flags, and the settings resolved from them, the config file and the environment. */
export declare const flags: HostFlags & { readonly json?: boolean };
export declare const settings: HostSettings;
/** Installed plugins: a loaded one, every one, a module that may be one, and two by name. */
export declare const plugin: AnyPlugin;
export declare const plugins: readonly LoadedPlugin[];
export declare const candidate: PluginCandidate;
export declare const mod: { readonly default?: unknown };
export declare const guia: AnyPlugin;
export declare const weather: AnyPlugin;
/** Options a user gave a plugin, and where a loading problem is reported. */
export declare const userOptions: Readonly<Record<string, unknown>>;
export declare const report: (problem: PluginProblem) => void;
/** The HTTP exchange a route handles, and the request path's segments. */
export declare const req: IncomingMessage;
export declare const res: ServerResponse;
export declare const parts: readonly string[];
/** A command's output (`createOutput()`), and a plugin command. */
export declare const out: Output;
export declare const addCommand: PluginCommand;
/** The co-scientist profile (`createHostProfile("co-scientist", catalog)`). */
export declare const profile: HostProfile;
