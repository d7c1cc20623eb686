/**
 * The version of @quiver/plugin-perplexity (kept equal to package.json).
 *
 * @example
 * console.log(`perplexity plugin ${VERSION}`);
 */
export const VERSION = "0.1.0";
