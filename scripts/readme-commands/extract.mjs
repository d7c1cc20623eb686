// The commands of a README: its fenced bash/sh/shell blocks, one command a line (a trailing `\` joins
// the next line), each classified for scripts/readme-commands.mjs. No dependencies.
//
// Markers, as HTML comments a reader of the rendered README does not see, anywhere between the previous
// block and the block they apply to:
//   <!-- readme-commands: skip <reason> -->                 the whole block is not run; the reason is printed
//   <!-- readme-commands: skip-line "<text>" <reason> -->   the block's lines containing <text> are not run
// and once anywhere in a file:
//   <!-- readme-commands: quiver=./dev quiver -->           the file's `quiver` is the clone's `./dev quiver`
//                                                            (the CLI put on PATH, as a project that installed it has it)

const MARKER = /<!--\s*readme-commands:\s*(.*?)\s*-->/g;
const FENCE = /^```(\w*)\s*$/;
const SHELL = new Set(["bash", "sh", "shell"]);
/** A command that serves until stopped: `./dev start`, or `quiver serve` in any spelling, not over stdio. */
const SERVES = /(?:^|[\s;&|])(?:\.\/dev start\b|(?:\.\/dev |npx |pnpm exec )?quiver serve\b)/;

/**
 * Parses one marker's text: `skip reason`, `skip-line "text" reason` or `quiver=<command>`.
 * @param {string} text
 */
const parseMarker = (text) => {
  const skipLine = /^skip-line\s+"([^"]+)"\s*(.*)$/.exec(text);
  if (skipLine) return { kind: "skip-line", text: skipLine[1], reason: skipLine[2] || "marked skip-line" };
  const skip = /^skip\b\s*(.*)$/.exec(text);
  if (skip) return { kind: "skip", reason: skip[1] || "marked skip" };
  const quiver = /^quiver=(.+)$/.exec(text);
  if (quiver) return { kind: "quiver", command: quiver[1].trim() };
  throw new Error(`unknown readme-commands marker: ${text}`);
};

/**
 * How one command line is run: a server (started, waited for on its port, stopped later) or a command
 * (run to its end); `json` when its stdout must be one JSON document (`--json` after the last pipe, or
 * a `curl` of the HTTP API whose output is not piped); `producer` when a `--json` stage is piped on (to jq):
 * the pipeline up to that stage, whose stdout must be JSON too (jq given nothing prints nothing, exit 0).
 * @param {string} line
 */
export const classify = (line) => {
  const background = /&\s*$/.test(line);
  const command = line.replace(/&\s*$/, "").trim();
  if (background || (SERVES.test(command) && !/--stdio\b/.test(command))) {
    const port = /--port[ =](\d+)/.exec(command)?.[1];
    return { kind: "server", command, port: port ? Number(port) : 7333 };
  }
  const stages = command.split("|");
  const json = /--json\b/.test(stages.at(-1) ?? "") || (/^\s*curl\b/.test(command) && stages.length === 1);
  const piped = stages.slice(0, -1).findIndex((stage) => /--json\b/.test(stage));
  const producer =
    piped >= 0
      ? stages
          .slice(0, piped + 1)
          .join("|")
          .trim()
      : undefined;
  return { kind: "command", command, json, ...(producer ? { producer } : {}) };
};

/**
 * The blocks of a README with their commands and markers.
 * @param {string} text the README
 * @returns {{ quiver?: string, blocks: { line: number, skip?: string, commands: { line: number, text: string, skip?: string }[] }[] }}
 */
export const extractBlocks = (text) => {
  const lines = text.split("\n");
  const blocks = [];
  let quiver;
  let pending = [];
  for (let i = 0; i < lines.length; i++) {
    for (const match of lines[i].matchAll(MARKER)) {
      const marker = parseMarker(match[1]);
      if (marker.kind === "quiver") quiver = marker.command;
      else pending.push(marker);
    }
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push({ line: i + 1, text: lines[i] });
    if (!SHELL.has(open[1])) {
      pending = [];
      continue;
    }
    const skipBlock = pending.find((m) => m.kind === "skip");
    const skipLines = pending.filter((m) => m.kind === "skip-line");
    pending = [];
    const commands = [];
    for (let j = 0; j < body.length; j++) {
      let { line, text: command } = body[j];
      while (/\\\s*$/.test(command) && j + 1 < body.length)
        command = `${command.replace(/\\\s*$/, "")} ${body[++j].text.trim()}`;
      if (!command.trim() || /^\s*#/.test(command)) continue;
      const skip = skipLines.find((m) => command.includes(m.text))?.reason;
      commands.push({ line, text: command.trim(), ...(skip ? { skip } : {}) });
    }
    blocks.push({ line: start + 1, ...(skipBlock ? { skip: skipBlock.reason } : {}), commands });
  }
  return { ...(quiver ? { quiver } : {}), blocks };
};
