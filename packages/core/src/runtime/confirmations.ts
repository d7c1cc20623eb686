import { createHash, randomBytes } from "node:crypto";
import { type SharedStore, sharedKey } from "./shared-store.js";

interface Pending {
  readonly fingerprint: string;
  readonly expiresAt: number;
}

/** A token as issued: the token and when it expires (ISO time). */
export interface IssuedToken {
  readonly token: string;
  readonly expiresAt: string;
}

/**
 * Single-use confirmation tokens for destructive tools, bound to the tool, the exact input and the
 * caller, so a token can neither be replayed nor used for a different action or by someone else.
 *
 * With a shared store a token is also written there (under its hash, holding only the fingerprint),
 * so a token issued by one replica confirms on another; the store's `take` makes it single-use across
 * replicas. Without one (or while the store is down) tokens live in this process, and the methods
 * answer synchronously.
 */
export class ConfirmationStore {
  readonly #pending = new Map<string, Pending>();
  constructor(
    private readonly ttlMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
    private readonly shared?: SharedStore,
  ) {}

  /** Issues a token for this exact call (a promise when tokens are shared: it is stored first). */
  issue(
    tool: string,
    canonicalInput: string,
    principal: string | undefined,
  ): IssuedToken | Promise<IssuedToken> {
    this.#sweep();
    const token = randomBytes(18).toString("base64url");
    const expiresAt = this.now() + this.ttlMs;
    const print = fingerprint(tool, canonicalInput, principal);
    this.#pending.set(token, { fingerprint: print, expiresAt });
    const issued = { token, expiresAt: new Date(expiresAt).toISOString() };
    if (!this.shared) return issued;
    const value = JSON.stringify({ fingerprint: print, expiresAt });
    return this.shared.set("confirm", sharedKey(token), value, this.ttlMs).then(
      () => issued,
      // The store is down: the token confirms on this replica only.
      () => issued,
    );
  }

  /**
   * Consumes a token; true only if it was issued for this very call and has not expired (a promise
   * when tokens are shared and this replica did not issue it).
   */
  consume(
    token: string,
    tool: string,
    canonicalInput: string,
    principal: string | undefined,
  ): boolean | Promise<boolean> {
    const local = this.#pending.get(token);
    this.#pending.delete(token);
    const valid = (p: Pending | undefined) =>
      p !== undefined &&
      p.expiresAt >= this.now() &&
      p.fingerprint === fingerprint(tool, canonicalInput, principal);
    if (!this.shared) return valid(local);
    // The shared entry decides (taking it makes the token single-use on every replica); this
    // process's copy only while the store cannot answer.
    return this.shared.take("confirm", sharedKey(token)).then(
      (text) => (text === undefined ? false : valid(JSON.parse(text) as Pending)),
      () => valid(local),
    );
  }

  #sweep(): void {
    const now = this.now();
    for (const [token, p] of this.#pending) if (p.expiresAt < now) this.#pending.delete(token);
  }
}

const fingerprint = (tool: string, input: string, principal: string | undefined) =>
  createHash("sha256")
    .update(`${tool}\u0000${principal ?? ""}\u0000${input}`)
    .digest("base64url");
