import { type CommandSpec, GLOBAL_OPTIONS, type OptionSpec } from "./command.js";
import { columns, type Output } from "./output.js";

/** Help rows (`--name <value>`, description) for a set of options. */
export const optionRows = (options: Readonly<Record<string, OptionSpec>>): string[][] =>
  Object.entries(options).map(([name, o]) => [
    `  ${o.short ? `-${o.short}, ` : ""}--${name}${o.value ? ` ${o.value}` : ""}`,
    o.description,
  ]);

/** Prints the options every command accepts. */
export const printGlobalOptions = (out: Output): void => {
  out.print();
  out.print(out.style.bold("Global options"));
  for (const l of columns(optionRows(GLOBAL_OPTIONS))) out.print(l);
};

/** Prints one command's help. */
export const printCommandHelp = (out: Output, cmd: CommandSpec): void => {
  const s = out.style;
  out.print(`${s.bold(`quiver ${cmd.name}`)} — ${cmd.summary}`);
  out.print();
  out.print(s.bold("Usage"));
  out.print(`  quiver ${cmd.usage}`);
  if (cmd.description) {
    out.print();
    for (const line of cmd.description.split("\n")) out.print(`  ${line}`);
  }
  if (cmd.options && Object.keys(cmd.options).length > 0) {
    out.print();
    out.print(s.bold("Options"));
    for (const l of columns(optionRows(cmd.options))) out.print(l);
  }
  printGlobalOptions(out);
  if (cmd.examples?.length) {
    out.print();
    out.print(s.bold("Examples"));
    for (const e of cmd.examples) out.print(`  ${e}`);
  }
};

/** One plugin command in the root help's list. */
export interface PluginCommandRow {
  readonly plugin: string;
  readonly name: string;
  readonly summary: string;
}

/** Prints the list of the host's commands, and the commands of the installed plugins when given. */
export const printRootHelp = (
  out: Output,
  commands: ReadonlyArray<CommandSpec>,
  version: string,
  pluginCommands: ReadonlyArray<PluginCommandRow> = [],
): void => {
  const s = out.style;
  out.print(`${s.bold("quiver")} ${version} — serve and call the Quiver tools installed in this project`);
  out.print();
  out.print(s.bold("Usage"));
  out.print("  quiver <command> [options]");
  out.print("  quiver <plugin> <command> [options]");
  out.print();
  out.print(s.bold("Commands"));
  for (const l of columns(commands.map((c) => [`  ${c.name}`, c.summary]))) out.print(l);
  if (pluginCommands.length > 0) {
    out.print();
    out.print(s.bold("Plugin commands"));
    for (const l of columns(pluginCommands.map((c) => [`  ${c.plugin} ${c.name}`, c.summary]))) out.print(l);
  }
  out.print();
  out.print(
    `Run ${s.cyan("quiver <command> --help")} or ${s.cyan("quiver <plugin> <command> --help")} for options and examples.`,
  );
  out.print();
  out.print(s.bold("Exit codes"));
  out.print(
    "  0 done (a call answered success or partial)   1 failed (error status, broken plugin)   2 usage or config error",
  );
};
