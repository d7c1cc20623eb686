import type { AnyPlugin, PluginCommand } from "@quiver/core";
import { printGlobalOptions } from "./help.js";
import { columns, type Output } from "./output.js";

/**
 * The usage line of a plugin command (after `quiver `): its required options, `[options]` when it
 * has others, and its positionals.
 *
 * @example
 * pluginCommandUsage("notes", addCommand) // "notes add --tag <tag> [options] <files…>"
 */
export const pluginCommandUsage = (pluginId: string, cmd: PluginCommand): string => {
  const options = Object.entries(cmd.options ?? {});
  const required = options
    .filter(([, o]) => o.required)
    .map(([name, o]) => `--${name}${o.type === "string" ? ` ${o.value ?? "<value>"}` : ""}`);
  const optional = options.some(([, o]) => !o.required);
  return [
    `${pluginId} ${cmd.name}`,
    ...required,
    ...(optional ? ["[options]"] : []),
    ...(cmd.positionals?.names ? [cmd.positionals.names] : []),
  ].join(" ");
};

/** Prints a plugin command's help: summary, description, usage, options and examples. */
export const printPluginCommandHelp = (out: Output, pluginId: string, cmd: PluginCommand): void => {
  const s = out.style;
  out.print(`${s.bold(`quiver ${pluginId} ${cmd.name}`)} — ${cmd.summary}`);
  out.print();
  out.print(s.bold("Usage"));
  out.print(`  quiver ${pluginCommandUsage(pluginId, cmd)}`);
  if (cmd.description) {
    out.print();
    for (const line of cmd.description.split("\n")) out.print(`  ${line}`);
  }
  const options = Object.entries(cmd.options ?? {});
  if (options.length > 0) {
    out.print();
    out.print(s.bold("Options"));
    const rows = options.map(([name, o]) => [
      `  --${name}${o.type === "string" ? ` ${o.value ?? "<value>"}` : ""}`,
      `${o.description}${o.required ? " (required)" : ""}`,
    ]);
    for (const l of columns(rows)) out.print(l);
  }
  printGlobalOptions(out);
  if (cmd.examples?.length) {
    out.print();
    out.print(s.bold("Examples"));
    for (const e of cmd.examples) out.print(`  ${e}`);
  }
};

/** Prints the commands of one plugin (`quiver <plugin> --help`). */
export const printPluginHelp = (out: Output, plugin: AnyPlugin): void => {
  const s = out.style;
  out.print(
    `${s.bold(`quiver ${plugin.id}`)} — commands of the ${plugin.id} plugin ${s.dim(`v${plugin.version}`)}`,
  );
  out.print();
  out.print(s.bold("Usage"));
  out.print(`  quiver ${plugin.id} <command> [options]`);
  out.print();
  out.print(s.bold("Commands"));
  const rows = (plugin.commands ?? []).map((c: PluginCommand) => [`  ${c.name}`, c.summary]);
  for (const l of columns(rows)) out.print(l);
  out.print();
  out.print(`Run ${s.cyan(`quiver ${plugin.id} <command> --help`)} for a command's options and examples.`);
};
