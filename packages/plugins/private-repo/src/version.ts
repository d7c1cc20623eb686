/** The version of @quiver/plugin-private-repo (kept in step with package.json). */
export const VERSION = "0.1.0";
