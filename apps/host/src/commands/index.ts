import type { CommandSpec } from "../cli/command.js";
import { callCommand } from "./call.js";
import { describeCommand } from "./describe.js";
import { doctorCommand } from "./doctor.js";
import { findCommand } from "./find.js";
import { listCommand } from "./list.js";
import { serveCommand } from "./serve.js";

/** The host's own commands, in help order (plugin commands are mounted from discovery). */
export const COMMANDS: ReadonlyArray<CommandSpec> = [
  listCommand,
  describeCommand,
  callCommand,
  findCommand,
  doctorCommand,
  serveCommand,
];
