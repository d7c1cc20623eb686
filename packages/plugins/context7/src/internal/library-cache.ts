import type { Context7Config } from "../config.js";
import type { LibraryMatch } from "../docs-client.js";
import { TtlCache } from "./ttl-cache.js";

/** One cache per registration: the catalog keeps one config object per registered plugin. */
const caches = new WeakMap<Context7Config, TtlCache<LibraryMatch>>();

/** The resolved-library cache of this registration (ttl from `libraryCacheTtl`, default 7 days). */
export const libraryCacheFor = (config: Context7Config): TtlCache<LibraryMatch> => {
  let cache = caches.get(config);
  if (!cache) {
    cache = new TtlCache<LibraryMatch>(config.libraryCacheTtl);
    caches.set(config, cache);
  }
  return cache;
};
