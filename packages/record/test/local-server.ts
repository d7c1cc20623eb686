// core's local HTTP server for tests (a real socket on 127.0.0.1), shared rather than copied: record
// cannot use @quiver/testing's emulator, which depends on @quiver/record.
export {
  closedPort,
  type LocalServer,
  sendJson,
  startServer,
} from "../../core/src/http/local-server.test-helpers.js";
