import { CASSETTE_OPTIONS, type CommandSpec } from "../cli/command.js";

/** `quiver call <tool>`: runs one call through the runtime and prints the envelope. */
export const callCommand: CommandSpec = {
  name: "call",
  summary: "Call a tool and print its result envelope",
  usage: "call <tool> [--input '<json>' | --input-file <file|->] [--session <id>] [--json]",
  description:
    "Exit code 0 when the call answers success or partial, 1 for error, timeout, access_denied or\nunavailable, 2 when the command itself is wrong (unknown tool, input that is not JSON).",
  positionals: { min: 1, max: 1, names: "<tool>" },
  options: {
    input: {
      type: "string",
      short: "i",
      value: "<json>",
      description: "The tool's input as a JSON object (default {})",
    },
    "input-file": {
      type: "string",
      value: "<file|->",
      description: "Read the input JSON from a file, or - for stdin",
    },
    session: { type: "string", value: "<id>", description: "Session id (failures escalate per session)" },
    "session-values": {
      type: "string",
      value: "<json>",
      description: 'Session values for injected parameters, e.g. \'{"asignatura":"metaheuristicas"}\'',
    },
    ...CASSETTE_OPTIONS,
  },
  examples: [
    `quiver call fda_search_drugs --input '{"search_criteria":{"active_ingredient":"imatinib"}}'`,
    'quiver call guia_get_guide --input \'{"asignatura":"metaheuristicas","key":"evaluación"}\' --json',
    'echo \'{"query":"react hooks"}\' | quiver call context7_search_documentation --input-file -',
    `quiver call fda_search_drugs --input '{"search_criteria":{"brand_name":"advil"}}' --replay cassettes`,
  ],
  // The implementation (and what it imports) loads only when the command runs, not for help or other commands.
  run: async (ctx) => (await import("./call-run.js")).runCall(ctx),
};
