export type { PluginCommandRun, RunPluginCommandOptions } from "./commands/run-plugin-command.js";
export { runPluginCommand } from "./commands/run-plugin-command.js";
export type { SeedPluginDemoOptions } from "./commands/seed-plugin-demo.js";
export { seedPluginDemo } from "./commands/seed-plugin-demo.js";
export type {
  ConformanceOptions,
  PluginSettings,
  PluginUnderTest,
} from "./conformance/describe-plugin-conformance.js";
export {
  describePluginConformance,
  registerForConformance,
  unreadSettings,
} from "./conformance/describe-plugin-conformance.js";
export { describePluginPackage, type PluginPackageOptions } from "./conformance/describe-plugin-package.js";
export { assertEnvelope, envelopeSchema } from "./conformance/envelope-schema.js";
export { checkConfigModule } from "./conformance/package/check-config-module.js";
export { checkIndexExports } from "./conformance/package/check-index-exports.js";
export { checkManifest } from "./conformance/package/check-manifest.js";
export { checkPackageName } from "./conformance/package/check-package-name.js";
export { checkPluginPackage, PACKAGE_CHECKS } from "./conformance/package/check-plugin-package.js";
export { checkReadme } from "./conformance/package/check-readme.js";
export { checkReleaseFiles, README_SECTIONS } from "./conformance/package/check-release-files.js";
export { checkSrcLayout } from "./conformance/package/check-src-layout.js";
export { checkToolNames } from "./conformance/package/check-tool-names.js";
export {
  factoryName,
  MAX_TOOL_NAME_LENGTH,
  pascalCase,
  pluginIdOfPackage,
  TOOL_NAME,
  toolFile,
  toolPrefix,
} from "./conformance/package/naming.js";
export {
  listPackageFiles,
  packageDirOf,
  readPluginPackage,
} from "./conformance/package/read-plugin-package.js";
export type { PackageJson, PluginPackage } from "./conformance/package/types.js";
export type {
  Cassette,
  CassetteInteraction,
  CassetteOptions,
} from "./emulator/cassette.js";
export { loadCassette, parseCassette, routesFromCassette } from "./emulator/cassette.js";
export { closedUrl, freePort } from "./emulator/closed-url.js";
export { emulatorDispatcher } from "./emulator/emulator-dispatcher.js";
export type {
  BombFault,
  BomFault,
  DelayFault,
  EmptyBodyFault,
  EncodedFault,
  ErrorObjectFault,
  Fault,
  FaultHandle,
  FaultKind,
  FaultOptions,
  HangFault,
  HeadersNeverFault,
  HtmlErrorFault,
  InvalidJsonFault,
  MatrixFaultKind,
  OversizedFault,
  OversizedHeadersFault,
  RedirectFault,
  ResetFault,
  ResetWhen,
  SlowBodyFault,
  StallFault,
  StatusFault,
  WrongContentTypeFault,
} from "./emulator/faults.js";
export { ALL_FAULT_KINDS, FAULT_KINDS } from "./emulator/faults.js";
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
export type {
  FaultMatrixCall,
  FaultMatrixOptions,
  FaultMatrixTarget,
} from "./faults/describe-fault-matrix.js";
export { describeFaultMatrix, expectFaultOutcome } from "./faults/describe-fault-matrix.js";
export type { FaultExpectation } from "./faults/fault-matrix-defaults.js";
export { MATRIX_EXPECTATIONS, MATRIX_FAULTS, withAttempts } from "./faults/fault-matrix-defaults.js";
export {
  MORE_MATRIX_EXPECTATIONS,
  MORE_MATRIX_FAULTS,
  type MoreFaultKind,
} from "./faults/fault-matrix-more.js";
export { type CatalogMaker, useCatalog } from "./fixtures/use-catalog.js";
export {
  type PluginOnEmulator,
  type PluginOnEmulatorOptions,
  usePluginOnEmulator,
} from "./fixtures/use-plugin-on-emulator.js";
export { startTcpRelay, type TcpRelay } from "./outage/start-tcp-relay.js";
export {
  comparableEnvelope,
  type RecordThenReplayOptions,
  type RecordThenReplayResult,
  recordThenReplay,
  type SessionCall,
} from "./record/record-then-replay.js";
export { type SeededRandom, seededRandom } from "./seeded-random.js";
export { hasRedisServer, redisCli, startRedisServer } from "./services/redis-server.js";
export { type SqlClient, type TestPostgres, testPostgres } from "./services/test-postgres.js";
export {
  type CommittedCassettes,
  describeRecordReplay,
  type RecordReplayOptions,
} from "./suites/describe-record-replay.js";
export {
  describeStaleFallback,
  type NoStaleFallback,
  type StaleFallbackOptions,
  type StaleUpstream,
} from "./suites/describe-stale-fallback.js";
export { describeStoreDriver, type StoreDriverSuiteOptions } from "./suites/describe-store-driver.js";
// lone-clone: allow deprecated, kept for benchmarks until the last importers move to fixtures
export { type CatalogTestClock, makeTestClock } from "./test-clock.js";
