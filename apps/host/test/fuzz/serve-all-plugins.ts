import { makeProject, type Project, type ServeProcess, startServe } from "../helpers.js";
import { closedUpstreamOptions, FUZZ_POLICIES, PLUGIN_IDS, PLUGIN_PACKAGES } from "./fuzz-setup.js";

/** A running `quiver serve` with all eight plugins, and how to stop it. */
export interface AllPluginsServer extends ServeProcess {
  readonly project: Project;
  readonly stop: () => Promise<void>;
}

/**
 * Starts a real `quiver serve` process in a project linking the eight workspace plugins, every
 * upstream on a closed port and the fuzz policies (no retries, rate limits or breakers).
 * `extra` is merged into quiver.config.json (`tokens` for the access tests); `prepare` runs before the
 * server starts (to fill a plugin's store with the plugin options it will serve with).
 *
 * @example
 * const server = await serveAllPlugins({ tokens: { "tok-alice": "alice" } })
 */
export const serveAllPlugins = async (
  extra: Record<string, unknown> = {},
  prepare?: (project: Project, options: Record<string, Record<string, unknown>>) => Promise<void>,
): Promise<AllPluginsServer> => {
  const options = await closedUpstreamOptions();
  const config = {
    plugins: Object.fromEntries(PLUGIN_IDS.map((id) => [id, { options: options[id] }])),
    policies: FUZZ_POLICIES,
    ...extra,
  };
  const project = makeProject({
    workspace: PLUGIN_PACKAGES,
    config: { name: "quiver.config.json", text: JSON.stringify(config, null, 2) },
  });
  await prepare?.(project, options);
  const served = await startServe([], { cwd: project.dir });
  return {
    ...served,
    project,
    stop: async () => {
      served.child.kill("SIGTERM");
      await served.exited;
      project.cleanup();
    },
  };
};
