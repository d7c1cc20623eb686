import { startTcpRelay, type TcpRelay } from "@quiver/testing";
import { afterAll, beforeAll } from "vitest";
import { pluginSettings, startUpstreams, type Upstreams } from "../fault-matrix/upstreams.js";
import { makeProject, type Project, type ServeProcess, startServe } from "../helpers.js";
import {
  describePythonSuite,
  PYTHON_MISSING,
  SEED_KEYS,
  SEED_POLICIES,
  startControl,
  stdioSettings,
} from "./harness.js";

/** An emulated upstream's name. */
type UpstreamName = Exclude<keyof Upstreams, "all" | "close">;

/** What a profile's set-up gets: the running emulators and project, and how to start its servers. */
export interface SeedWorld {
  readonly up: Upstreams;
  /** A TCP relay in front of each `relayed` upstream (the suite stops it for an outage). */
  readonly relays: Readonly<Partial<Record<UpstreamName, TcpRelay>>>;
  /** The plugins' settings pointing at the emulators (`env` and per-plugin `options`). */
  readonly settings: ReturnType<typeof pluginSettings>;
  readonly project: Project;
  /** Starts `quiver serve --profile <profile> …args` (the built CLI) in the project; stopped after the suite. */
  readonly serve: (env: Record<string, string>, args?: ReadonlyArray<string>) => Promise<ServeProcess>;
  /** The settings the Python suite starts the profile with over MCP stdio (the built CLI, `--stdio`). */
  readonly stdio: (env: Record<string, string>, args?: ReadonlyArray<string>) => Record<string, string>;
  /** Runs `close` after the suite, before the emulators close (last deferred, first run). */
  readonly defer: (close: () => unknown) => void;
}

/** One profile's Python seed suite and what it runs against. */
export interface SeedSuiteOptions {
  readonly title: string;
  /** The module under clients/python/tests, e.g. "test_chatbot". */
  readonly module: string;
  readonly profile: string;
  /** The plugin packages the project links. */
  readonly plugins: ReadonlyArray<string>;
  /** The upstreams the suite may fault through the control server. */
  readonly control: ReadonlyArray<UpstreamName>;
  /** Upstreams reached through a TCP relay, so the suite can take them down (relays named as the upstream). */
  readonly relayed?: ReadonlyArray<UpstreamName>;
  /** More of quiver.config.json than the shared policies (tokens, plugin options). */
  readonly config?: (settings: ReturnType<typeof pluginSettings>) => Record<string, unknown>;
  /** Routes the emulators answer beyond the fault matrix's. */
  readonly route?: (up: Upstreams) => void;
  /** Starts the profile's servers; answers the suite's environment (QUIVER_URL, …). */
  readonly start: (world: SeedWorld) => Promise<Record<string, string>>;
}

/**
 * The set-up the seed suites share, in one place: the emulated upstreams with the seed keys, TCP relays
 * for outages, the control server the Python suite drives, a project linking the profile's plugins with
 * the seed policies, the servers `start` runs (stopped after), then the Python suite itself with
 * `QUIVER_SEED_CONTROL_URL` added. Without python3 nothing starts and the suite skips (or fails on CI).
 *
 * @example
 * describeSeedSuite({ title: "…", module: "test_chatbot", profile: "chatbot", plugins: [...], control: ["rag"],
 *   start: async (w) => ({ QUIVER_URL: (await w.serve(w.settings.env)).url }) })
 */
export const describeSeedSuite = (options: SeedSuiteOptions): void => {
  const closers: Array<() => unknown> = [];
  let env: Record<string, string> = {};

  beforeAll(async () => {
    if (PYTHON_MISSING) return;
    const up = await startUpstreams(SEED_KEYS);
    closers.push(() => up.close());
    options.route?.(up);
    const relays: Partial<Record<UpstreamName, TcpRelay>> = {};
    for (const name of options.relayed ?? []) {
      const relay = await startTcpRelay("127.0.0.1", up[name].port);
      closers.push(() => relay.close());
      relays[name] = relay;
    }
    const control = await startControl(
      Object.fromEntries(options.control.map((name) => [name, up[name]])),
      relays as Record<string, TcpRelay>,
    );
    closers.push(() => control.close());
    const settings = pluginSettings(up, SEED_KEYS);
    const project = makeProject({
      workspace: options.plugins,
      config: {
        name: "quiver.config.json",
        text: JSON.stringify({ policies: SEED_POLICIES, ...options.config?.(settings) }),
      },
    });
    closers.push(() => project.cleanup());
    const world: SeedWorld = {
      up,
      relays,
      settings,
      project,
      serve: async (serveEnv, args = []) => {
        const server = await startServe(["--profile", options.profile, ...args], {
          cwd: project.dir,
          env: serveEnv,
        });
        closers.push(async () => {
          server.child.kill("SIGTERM");
          await server.exited;
        });
        return server;
      },
      stdio: (stdioEnv, args = []) => stdioSettings(options.profile, project.dir, stdioEnv, args),
      defer: (close) => closers.push(close),
    };
    env = { ...(await options.start(world)), QUIVER_SEED_CONTROL_URL: control.url };
  });

  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  describePythonSuite(options.title, options.module, () => env);
};
