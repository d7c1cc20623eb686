/** The undici module. */
export type Undici = typeof import("undici");

let loading: Promise<Undici> | undefined;

/**
 * undici, imported at the first request: a host that lists, describes or serves tools without
 * reaching an upstream never loads it (its start-up time and memory: bench/README.md).
 */
export const loadUndici = (): Promise<Undici> => {
  loading ??= import("undici");
  return loading;
};
