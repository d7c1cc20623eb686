import { VERSION } from "../version.js";

/** The default `User-Agent` of the HTTP client: `quiver/<version of @quiver/core>`. */
export const DEFAULT_USER_AGENT = `quiver/${VERSION}`;
