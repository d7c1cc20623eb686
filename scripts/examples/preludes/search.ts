// What @quiver/search's examples take as given (see scripts/examples/check-examples.mjs).
import type { SearchIndex } from "@quiver/search";

/** An open index (`await openSearchIndex(...)`), a query, and a PostgreSQL URL. */
export declare const index: SearchIndex;
export declare const q: string;
export declare const databaseUrl: string;
