import pkg from "../package.json" with { type: "json" };

export { createTaskRunner, type TaskRunner, type TaskRunnerOptions } from "./create-task-runner.js";
export { ORPHAN_MESSAGE } from "./internal/orphans.js";
export {
  type StartTaskOptions,
  type TaskAnswer,
  type TaskError,
  type TaskInfo,
  type TaskPage,
  type TaskRecord,
  type TaskResult,
  type TaskStatus,
  TERMINAL_STATUSES,
} from "./task-types.js";
/** The package's version, read from its package.json at build time (a JSON import). */
export const VERSION: string = pkg.version;
