// What every package's examples take as given (scripts/examples/check-examples.mjs): plain values
// and Node built-ins, so that a snippet need not restate them. No package import: @quiver/search
// depends on no other workspace package.
export { readFileSync, writeFileSync } from "node:fs";
export { join } from "node:path";
/** A temporary folder of the example's own. */
export declare const tmp: string;
/** The caller's abort signal. */
export declare const signal: AbortSignal;
/** Some text the example works on. */
export declare const text: string;
