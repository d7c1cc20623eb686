import type * as Clock from "effect/Clock";
import type { AnyPlugin } from "../define-plugin.js";
import type { HttpClient } from "../http/index.js";

/**
 * The resources one registration of a plugin opened with its `setup`: opened once, at first need,
 * shared by every call, command and health check, and closed (finalizers last-first) on unregister
 * or when the catalog closes. A failed setup is not kept: the next need tries again.
 *
 * Why by hand: Effect's `Scope` + `Effect.cached` would do it inside the runtime, but commands and
 * health checks open resources outside any fiber, and a plain promise with a finalizer list is all
 * the lifecycle needs.
 */
export class PluginResources {
  private opening: Promise<unknown> | undefined;
  /** True when tools can run at once (no setup, or setup done); read-only outside this class. */
  isReady: boolean;
  /** The opened value (undefined before setup finished or without a setup); read-only outside this class. */
  current: unknown;
  /** Why the last setup failed (none before any attempt and once one succeeds); read-only outside. */
  lastFailure: string | undefined;
  private closed = false;
  private readonly finalizers: Array<() => Promise<void> | void> = [];
  private readonly abort = new AbortController();

  constructor(
    private readonly plugin: AnyPlugin,
    private readonly config: unknown,
    private readonly http: HttpClient,
    private readonly env: Readonly<Record<string, string | undefined>>,
    private readonly clock: () => Promise<Clock.Clock>,
  ) {
    this.isReady = plugin.setup === undefined;
  }

  /** Opens the resources (or joins the opening in flight); rejects with setup's error. */
  open(): Promise<unknown> {
    if (this.isReady) return Promise.resolve(this.current);
    if (this.closed) return Promise.reject(new Error(`The ${this.plugin.id} plugin was unregistered.`));
    this.opening ??= this.run().then(
      (value) => {
        this.current = value;
        this.isReady = true;
        this.lastFailure = undefined;
        this.opening = undefined;
        return value;
      },
      async (error: unknown) => {
        this.opening = undefined;
        this.lastFailure = error instanceof Error ? error.message : String(error);
        await this.runFinalizers();
        throw error;
      },
    );
    return this.opening;
  }

  private async run(): Promise<unknown> {
    const setup = this.plugin.setup!;
    const clock = await this.clock();
    return setup({
      clock,
      config: this.config,
      http: this.http,
      env: this.env,
      signal: this.abort.signal,
      onClose: (finalizer) => void this.finalizers.push(finalizer),
    });
  }

  /** Runs the finalizers (last registered first) and the plugin's `dispose`; never throws. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    await this.opening?.catch(() => undefined);
    await this.runFinalizers();
    try {
      await this.plugin.dispose?.();
    } catch {} // a plugin's clean-up must not stop the others'
  }

  private async runFinalizers(): Promise<void> {
    while (this.finalizers.length > 0) {
      const finalizer = this.finalizers.pop()!;
      try {
        await finalizer();
      } catch {} // keep closing the rest
    }
  }
}
