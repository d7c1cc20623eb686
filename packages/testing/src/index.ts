export type { PluginCommandRun, RunPluginCommandOptions } from "./commands/run-plugin-command.js";
export { runPluginCommand } from "./commands/run-plugin-command.js";
export type { SeedPluginDemoOptions } from "./commands/seed-plugin-demo.js";
export { seedPluginDemo } from "./commands/seed-plugin-demo.js";
export type { ConformanceOptions } from "./conformance/describe-plugin-conformance.js";
export { describePluginConformance } from "./conformance/describe-plugin-conformance.js";
export { describePluginPackage } from "./conformance/describe-plugin-package.js";
export { assertEnvelope, envelopeSchema } from "./conformance/envelope-schema.js";
export type {
  Cassette,
  CassetteInteraction,
  CassetteOptions,
} from "./emulator/cassette.js";
export { loadCassette, parseCassette, routesFromCassette } from "./emulator/cassette.js";
export { closedUrl } from "./emulator/closed-url.js";
export type {
  DelayFault,
  Fault,
  FaultHandle,
  FaultKind,
  FaultOptions,
  HangFault,
  HtmlErrorFault,
  InvalidJsonFault,
  OversizedFault,
  ResetFault,
  SlowBodyFault,
  StatusFault,
  WrongContentTypeFault,
} from "./emulator/faults.js";
export { FAULT_KINDS } from "./emulator/faults.js";
export { loadJson } from "./emulator/load-json.js";
export type {
  EmulatorRequest,
  EmulatorResponse,
  PathPattern,
  RecordedRequest,
  ResponseHeaders,
  Route,
  RouteHandler,
  RouteOptions,
} from "./emulator/route.js";
export type { Emulator, EmulatorOptions } from "./emulator/start-emulator.js";
export { startEmulator } from "./emulator/start-emulator.js";
export { type SeededRandom, seededRandom } from "./seeded-random.js";
export { sharedDataDir, sharedDataPath } from "./shared-data.js";
