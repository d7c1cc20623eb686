export { settingsProblem } from "./check-settings.js";
export { parseServerArgs, type ServerArgs } from "./parse-server-args.js";
export { runServerCli } from "./run-server-cli.js";
export {
  type OnePluginServer,
  type OnePluginTransport,
  type ServeOnePluginOptions,
  serveOnePlugin,
} from "./serve-one-plugin.js";
export { serverHelp } from "./server-help.js";
export type { ServerIdentity } from "./server-identity.js";
