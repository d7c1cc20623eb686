/**
 * The version of @quiver/plugin-context7 (kept equal to package.json).
 *
 * @example
 * console.log(`context7 plugin ${VERSION}`);
 */
export const VERSION = "0.1.0";
