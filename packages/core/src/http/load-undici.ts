/** The undici module. */
export type Undici = typeof import("undici");

let loading: Promise<Undici> | undefined;

/**
 * undici, imported at the first request: a host that lists, describes or serves tools without
 * reaching an upstream never loads it (50 ms and 11 MB at start-up, measured in `./dev bench host`).
 */
export const loadUndici = (): Promise<Undici> => {
  loading ??= import("undici");
  return loading;
};
