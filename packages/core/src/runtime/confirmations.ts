import { createHash, randomBytes } from "node:crypto";

interface Pending {
  readonly fingerprint: string;
  readonly expiresAt: number;
}

/**
 * Single-use confirmation tokens for destructive tools, bound to the tool, the exact input and the
 * caller, so a token can neither be replayed nor used for a different action or by someone else.
 */
export class ConfirmationStore {
  readonly #pending = new Map<string, Pending>();
  constructor(
    private readonly ttlMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Issues a token for this exact call. */
  issue(
    tool: string,
    canonicalInput: string,
    principal: string | undefined,
  ): { token: string; expiresAt: string } {
    this.#sweep();
    const token = randomBytes(18).toString("base64url");
    const expiresAt = this.now() + this.ttlMs;
    this.#pending.set(token, { fingerprint: fingerprint(tool, canonicalInput, principal), expiresAt });
    return { token, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** Consumes a token; true only if it was issued for this very call and has not expired. */
  consume(token: string, tool: string, canonicalInput: string, principal: string | undefined): boolean {
    const pending = this.#pending.get(token);
    if (!pending) return false;
    this.#pending.delete(token);
    return (
      pending.expiresAt >= this.now() && pending.fingerprint === fingerprint(tool, canonicalInput, principal)
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
