import pkg from "../../package.json" with { type: "json" };

/** The default `User-Agent` of the HTTP client: `quiver/<version of @quiver/core>`. */
export const DEFAULT_USER_AGENT = `quiver/${pkg.version}`;
