import { hash } from "node:crypto";

/**
 * A store key for a text that holds an input, a principal or a token: its SHA-256 (base64url), so
 * the text never enters the store. Put a readable namespace in front: `cache:${storeKey(id)}`.
 *
 * @example
 * const key = `confirm:${storeKey("a confirmation token")}`
 */
export const storeKey = (text: string): string => hash("sha256", text, "base64url");
