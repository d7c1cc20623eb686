import type { CommandSpec } from "../cli/command.js";

/** `quiver doctor`: is each plugin loaded, configured and reachable, and what to do. */
export const doctorCommand: CommandSpec = {
  name: "doctor",
  summary: "Check each plugin: loaded? configured? upstream reachable? what to do",
  usage: "doctor [--timeout <duration>] [--offline] [--json]",
  description:
    "Runs every configured plugin's health check (in parallel) against its upstream.\nExit code 1 when a plugin failed to load or a configured plugin's upstream check failed;\nunconfigured plugins are reported with the variable to set but do not fail the check.",
  options: {
    timeout: {
      type: "string",
      value: "<duration>",
      description: 'Per-plugin health timeout (default "10s")',
    },
    offline: { type: "boolean", description: "Skip the upstream checks" },
  },
  examples: ["quiver doctor", "quiver doctor --offline --json"],
  // The implementation (and what it imports) loads only when the command runs, not for help or other commands.
  run: async (ctx) => (await import("./doctor-run.js")).runDoctor(ctx),
};
