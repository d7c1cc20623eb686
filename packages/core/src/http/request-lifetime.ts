import type { Undici } from "./load-undici.js";

/** The abort reason when the whole-request deadline (`timeoutMs`) passes. */
export class DeadlineExceeded extends Error {
  override readonly name = "DeadlineExceeded";
}

/** Why a request's signal fired, when it did. */
export type AbortCause =
  | { readonly by: "caller"; readonly reason: unknown }
  | { readonly by: "deadline" }
  | { readonly by: "timer"; readonly error: Error };

/**
 * The abort signal of one request, fed by the caller's signal, the whole-request deadline, and
 * precise headers / body-idle timers. undici has its own headers and body timeouts, but they run
 * on a coarse timer wheel (a 200 ms timeout fires after 0.5–1 s); these native timers fire on time
 * and abort with undici's own `HeadersTimeoutError` / `BodyTimeoutError`, which stay as a backstop.
 * Call `dispose()` when the request is over.
 */
export class RequestLifetime {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | undefined;
  readonly #deadline: NodeJS.Timeout | undefined;
  #phase: NodeJS.Timeout | undefined;
  readonly #onCallerAbort = () => this.#controller.abort(this.#caller?.reason);

  constructor(
    caller: AbortSignal | undefined,
    deadlineMs: number | undefined,
    private readonly errors: Undici["errors"],
  ) {
    this.#caller = caller;
    if (caller?.aborted) this.#controller.abort(caller.reason);
    else caller?.addEventListener("abort", this.#onCallerAbort, { once: true });
    this.#deadline =
      deadlineMs === undefined
        ? undefined
        : setTimeout(() => this.#controller.abort(new DeadlineExceeded()), deadlineMs);
  }

  /** The signal to hand to undici. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Aborts with `HeadersTimeoutError` unless {@link awaitBody} or {@link idle} is called within `ms`. */
  awaitHeaders(ms: number): void {
    this.#arm(ms, () => new this.errors.HeadersTimeoutError());
  }

  /** Aborts with `BodyTimeoutError` if no chunk arrives ({@link touch}) for `ms`. */
  awaitBody(ms: number): void {
    this.#arm(ms, () => new this.errors.BodyTimeoutError());
  }

  /** A body chunk arrived: restart the body-idle timer. */
  touch(): void {
    this.#phase?.refresh();
  }

  /** Nothing is awaited from the network: stop the headers / body timer. */
  idle(): void {
    if (this.#phase !== undefined) clearTimeout(this.#phase);
    this.#phase = undefined;
  }

  /** Why the signal fired (the caller first), or `undefined` when it has not. */
  cause(): AbortCause | undefined {
    if (this.#caller?.aborted) return { by: "caller", reason: this.#caller.reason };
    if (!this.#controller.signal.aborted) return undefined;
    const reason: unknown = this.#controller.signal.reason;
    if (reason instanceof DeadlineExceeded) return { by: "deadline" };
    return { by: "timer", error: reason as Error };
  }

  /** Clears every timer and listener. */
  dispose(): void {
    this.idle();
    if (this.#deadline !== undefined) clearTimeout(this.#deadline);
    this.#caller?.removeEventListener("abort", this.#onCallerAbort);
  }

  #arm(ms: number, error: () => Error): void {
    this.idle();
    this.#phase = setTimeout(() => this.#controller.abort(error()), ms);
  }
}
