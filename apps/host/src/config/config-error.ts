/**
 * A configuration problem: a file that does not parse, a key with a wrong value, a flag or environment
 * variable that makes no sense. Each line names the file (or variable) and the key.
 *
 * @example
 * throw new ConfigError(["quiver.config.json: server.port: expected a number, received string"])
 */
export class ConfigError extends Error {
  readonly problems: ReadonlyArray<string>;
  constructor(problems: ReadonlyArray<string>) {
    super(
      problems.length === 1
        ? problems[0]!
        : `Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
    this.name = "ConfigError";
    this.problems = problems;
  }
}
