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
   * when tokens are shared and this replica did not issue it). A presentation that does not match
   * (another principal, tool or input) is refused and leaves the token to its owner: only a matching
   * presentation uses it up.
   */
  consume(
    token: string,
    tool: string,
    canonicalInput: string,
    principal: string | undefined,
  ): boolean | Promise<boolean> {
    const print = fingerprint(tool, canonicalInput, principal);
    const valid = (p: Pending | undefined) =>
      p !== undefined && p.expiresAt >= this.now() && p.fingerprint === print;
    const local = this.#pending.get(token);
    const useLocal = () => {
      if (!valid(local)) return false;
      this.#pending.delete(token);
      return true;
    };
    if (!this.shared) return useLocal();
    const shared = this.shared;
    const key = sharedKey(token);
    // The shared entry decides: it is read first, so a wrong presentation leaves it, then taken, so
    // of two matching presentations on any replicas only one succeeds. This process's copy decides
    // only while the store cannot answer.
    return shared.get("confirm", key).then(
      async (text) => {
        if (text === undefined || !valid(JSON.parse(text) as Pending)) return false;
        const taken = await shared.take("confirm", key).then(
          (t) => t !== undefined,
          () => valid(local),
        );
        if (taken) this.#pending.delete(token);
        return taken;
      },
      () => useLocal(),
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
