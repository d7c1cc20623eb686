import { hash, randomBytes } from "node:crypto";
import { fromStoredJson, type MaybePromise, type StoreDriver, whenReady } from "../store/store-driver.js";

/** What the store keeps for a token: what it was issued for, and until when. */
type Pending = { readonly fingerprint: string; readonly expiresAt: number };

/** A token as issued: the token and when it expires (ISO time). */
export type IssuedToken = { readonly token: string; readonly expiresAt: string };

/**
 * Single-use confirmation tokens for destructive tools, bound to the tool, the exact input and the
 * caller, so a token can neither be replayed nor used for a different action or by someone else.
 *
 * Tokens live in the catalog's store under `confirm:<key of the token>`, holding only a fingerprint
 * (SHA-256 of tool, caller and input) and the expiry: a token issued by one process confirms on any
 * other on the same store, and the store's `take` makes it single-use across all of them. The
 * methods answer at once on the memory driver and with a promise on one that answers later.
 */
export class ConfirmationStore {
  constructor(
    private readonly store: StoreDriver,
    private readonly ttlMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Issues a token for this exact call (stored before it is handed out). */
  issue(tool: string, canonicalInput: string, principal: string | undefined): MaybePromise<IssuedToken> {
    const token = randomBytes(18).toString("base64url");
    const expiresAt = this.now() + this.ttlMs;
    const pending: Pending = { fingerprint: fingerprint(tool, canonicalInput, principal), expiresAt };
    const issued = { token, expiresAt: new Date(expiresAt).toISOString() };
    return whenReady(this.store.set(this.#key(token), JSON.stringify(pending), this.ttlMs), () => issued);
  }

  /**
   * Consumes a token; true only if it was issued for this very call and has not expired. A
   * presentation that does not match (another principal, tool or input) is refused and leaves the
   * token to its owner: the entry is read first, and taken only by a matching presentation, so of two
   * matching presentations on any processes only one succeeds.
   */
  consume(
    token: string,
    tool: string,
    canonicalInput: string,
    principal: string | undefined,
  ): MaybePromise<boolean> {
    const key = this.#key(token);
    const print = fingerprint(tool, canonicalInput, principal);
    return whenReady(this.store.get(key), (text) => {
      const pending = fromStoredJson<Pending>(text);
      if (pending === undefined || pending.expiresAt < this.now() || pending.fingerprint !== print)
        return false;
      return whenReady(this.store.take(key), (taken) => taken !== undefined);
    });
  }

  #key(token: string): string {
    return `confirm:${this.store.key(token)}`;
  }
}

const fingerprint = (tool: string, input: string, principal: string | undefined) =>
  hash("sha256", `${tool}\u0000${principal ?? ""}\u0000${input}`, "base64url");
