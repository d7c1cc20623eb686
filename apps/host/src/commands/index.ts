import type { CommandSpec } from "../cli/command.js";
import { callCommand } from "./call.js";
import { describeCommand } from "./describe.js";
import { doctorCommand } from "./doctor.js";
import { findCommand } from "./find.js";
import { guiaImportCommand } from "./guia-import.js";
import { listCommand } from "./list.js";
import { ragIndexCommand } from "./rag-index.js";
import { repoAddCommand } from "./repo-add.js";
import { serveCommand } from "./serve.js";

/** Every command of the quiver CLI, in help order. */
export const COMMANDS: ReadonlyArray<CommandSpec> = [
  listCommand,
  describeCommand,
  callCommand,
  findCommand,
  doctorCommand,
  serveCommand,
  ragIndexCommand,
  guiaImportCommand,
  repoAddCommand,
];
