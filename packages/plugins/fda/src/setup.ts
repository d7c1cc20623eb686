import type { SetupContext } from "@quiver/core";
import type { FdaConfig } from "./config.js";
import { createOpenFdaClient, type OpenFdaClient } from "./internal/openfda-client.js";

/** Opens the openFDA client both tools share (`ctx.resources`) for one registration. */
export const setupFda = ({ config, http }: SetupContext<FdaConfig>): OpenFdaClient =>
  createOpenFdaClient(config, http);
