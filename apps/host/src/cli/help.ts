import { type CommandSpec, GLOBAL_OPTIONS, type OptionSpec } from "./command.js";
import { columns, type Output } from "./output.js";

const optionRows = (options: Readonly<Record<string, OptionSpec>>) =>
  Object.entries(options).map(([name, o]) => [
    `  ${o.short ? `-${o.short}, ` : ""}--${name}${o.value ? ` ${o.value}` : ""}`,
    o.description,
  ]);

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
  out.print();
  out.print(s.bold("Global options"));
  for (const l of columns(optionRows(GLOBAL_OPTIONS))) out.print(l);
  if (cmd.examples?.length) {
    out.print();
    out.print(s.bold("Examples"));
    for (const e of cmd.examples) out.print(`  ${e}`);
  }
};

/** Prints the list of commands (all, or those under a group such as "rag"). */
export const printRootHelp = (
  out: Output,
  commands: ReadonlyArray<CommandSpec>,
  version: string,
  group?: string,
): void => {
  const s = out.style;
  const shown = group ? commands.filter((c) => c.name.startsWith(`${group} `)) : commands;
  if (!group) {
    out.print(`${s.bold("quiver")} ${version} — serve and call the Quiver tools installed in this project`);
    out.print();
  }
  out.print(s.bold("Usage"));
  out.print(group ? `  quiver ${group} <command> [options]` : "  quiver <command> [options]");
  out.print();
  out.print(s.bold("Commands"));
  for (const l of columns(shown.map((c) => [`  ${c.name}`, c.summary]))) out.print(l);
  out.print();
  out.print(`Run ${s.cyan("quiver <command> --help")} for a command's options and examples.`);
  if (!group) {
    out.print();
    out.print(s.bold("Exit codes"));
    out.print(
      "  0 done (a call answered success or partial)   1 failed (error status, broken plugin)   2 usage or config error",
    );
  }
};
