import type { PolicyClock } from "./policy-clock.js";

/** A circuit's state, named as effect/persistence's CircuitBreaker names it. */
export type CircuitState = "Closed" | "Open" | "HalfOpen";

/** Why a call was not admitted. */
export type Refusal =
  | { readonly _tag: "CircuitOpen"; readonly retryAfterMs: number }
  | { readonly _tag: "CircuitHalfOpen" };

/**
 * A circuit kept in this process, with effect/persistence's consecutive-failures semantics: Closed
 * counts consecutive failures and opens at `failures`; Open refuses calls for `openForMs`; then the
 * first call is a probe (HalfOpen: the others are refused while it runs), which closes the circuit on
 * success and opens it again on failure.
 *
 * Why by hand: `CircuitBreaker.execute` opens a Scope and runs an admit and a record through the
 * store on every call (6–8 µs per call measured in `./dev bench core`), where a closed circuit in one
 * process needs one field read. A shared store (Redis, through `CatalogOptions.stores`) keeps using
 * effect's CircuitBreaker, so replicas see one circuit.
 */
export class LocalBreaker {
  #state: CircuitState = "Closed";
  #failures = 0;
  #openUntil = 0;
  #probing = false;

  constructor(
    private readonly failures: number,
    private readonly openForMs: number,
    private readonly clock: PolicyClock,
  ) {}

  /** The state now (an Open circuit whose time is up reads HalfOpen). */
  get state(): CircuitState {
    if (this.#state === "Open" && this.clock.now() >= this.#openUntil) return "HalfOpen";
    return this.#state;
  }

  /** Admits a call (undefined) or says why not. A call admitted while HalfOpen is the probe. */
  admit(): Refusal | undefined {
    if (this.#state === "Closed") return undefined;
    if (this.#state === "Open") {
      const now = this.clock.now();
      if (now < this.#openUntil) return { _tag: "CircuitOpen", retryAfterMs: this.#openUntil - now };
      this.#state = "HalfOpen";
      this.#probing = false;
    }
    if (this.#probing) return { _tag: "CircuitHalfOpen" };
    this.#probing = true;
    return undefined;
  }

  /** Records how an admitted call ended: `true` success, `false` failure, `undefined` neither. */
  record(healthy: boolean | undefined): void {
    if (this.#state === "HalfOpen") {
      this.#probing = false;
      if (healthy === true) this.#close();
      else if (healthy === false) this.#open();
      return;
    }
    if (healthy === true) this.#failures = 0;
    else if (healthy === false && ++this.#failures >= this.failures && this.#state === "Closed") this.#open();
  }

  #close(): void {
    this.#state = "Closed";
    this.#failures = 0;
  }

  #open(): void {
    this.#state = "Open";
    this.#failures = 0;
    this.#openUntil = this.clock.now() + this.openForMs;
  }
}
