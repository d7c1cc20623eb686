import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const HOST_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
export const REPO_DIR = join(HOST_DIR, "..", "..");
export const CLI = join(HOST_DIR, "dist", "cli.js");
export const FIXTURES = join(HOST_DIR, "test", "fixtures", "plugins");
/** Every first-party plugin package, for a project that installs the whole catalog. */
export const ALL_PLUGINS = [
  "@quiver/plugin-alphafold",
  "@quiver/plugin-context7",
  "@quiver/plugin-fda",
  "@quiver/plugin-guia",
  "@quiver/plugin-perplexity",
  "@quiver/plugin-private-repo",
  "@quiver/plugin-rag",
  "@quiver/plugin-testgen",
];

/** A minimal environment for child processes: no API keys from the machine leak into tests. */
export const cleanEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? tmpdir(),
  NO_COLOR: "1",
  QUIVER_CACHE_DIR: join(tmpdir(), "quiver-host-test-cache"),
  ...extra,
});

/** A temporary project whose node_modules links fixture plugins and workspace packages. */
export interface Project {
  readonly dir: string;
  readonly cleanup: () => void;
}

/**
 * Creates a project folder: package.json dependencies naming each linked package, node_modules
 * symlinks to the fixture folders (by fixture folder name) and workspace packages (by package name).
 */
export const makeProject = (
  opts: {
    readonly fixtures?: ReadonlyArray<string>;
    readonly workspace?: ReadonlyArray<string>;
    readonly config?: { readonly name: string; readonly text: string };
    readonly extraDeps?: Readonly<Record<string, string>>;
  } = {},
): Project => {
  const dir = mkdtempSync(join(tmpdir(), "quiver-host-"));
  const deps: Record<string, string> = { ...opts.extraDeps };
  const link = (name: string, target: string) => {
    const at = join(dir, "node_modules", name);
    mkdirSync(dirname(at), { recursive: true });
    symlinkSync(target, at, "dir");
    deps[name] = "*";
  };
  for (const f of opts.fixtures ?? []) {
    const target = join(FIXTURES, f);
    const name = (JSON.parse(readFileSync(join(target, "package.json"), "utf8")) as { name: string }).name;
    link(name, target);
  }
  for (const name of opts.workspace ?? []) link(name, join(HOST_DIR, "node_modules", name));
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "test-project", private: true, dependencies: deps }, null, 2),
  );
  if (opts.config) writeFileSync(join(dir, opts.config.name), opts.config.text);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
};

/** What a finished child process printed. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the built `quiver` in a child process.
 *
 * @example
 * const r = await runQuiver(["list", "--json"], { cwd: project.dir })
 */
export const runQuiver = (
  args: ReadonlyArray<string>,
  opts: { readonly cwd: string; readonly env?: Record<string, string>; readonly stdin?: string },
): Promise<CliRun> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd, env: cleanEnv(opts.env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.stdin ?? "");
  });

/**
 * Adds alice's collection `unpublished` to the private-repo repository `repo` of a project, with
 * `quiver private-repo add`: one Markdown note whose body is `body`.
 *
 * @example
 * await addAliceNotes(project.dir, "repo", { title: "Unpublished cohort", body: `Our ${SECRET} result.` })
 */
export const addAliceNotes = async (
  dir: string,
  repo: string,
  note: { readonly title: string; readonly body: string },
): Promise<void> => {
  const notes = join(dir, "alice-notes");
  mkdirSync(notes);
  writeFileSync(
    join(notes, "unpublished.md"),
    `---\ntitle: ${note.title}\nauthors: Alice Example\n---\n\n# Unpublished\n\n${note.body}\n`,
  );
  const args = [
    "private-repo",
    "add",
    "alice-notes",
    "--owner",
    "alice",
    "--collection",
    "unpublished",
    "--repo",
    repo,
  ];
  const added = await runQuiver(args, { cwd: dir });
  if (added.code !== 0) throw new Error(`private-repo add failed: ${added.stderr}`);
};

/** A `quiver serve` child process and its URL once it listens. */
export interface ServeProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Everything printed on stderr so far. */
  readonly stderr: () => string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
}

/** Starts `quiver serve` on a free port and waits until it prints its URL. */
export const startServe = async (
  args: ReadonlyArray<string>,
  opts: { readonly cwd: string; readonly env?: Record<string, string> },
): Promise<ServeProcess> => {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", ...args], {
    cwd: opts.cwd,
    env: cleanEnv(opts.env),
  });
  let stderr = "";
  const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`quiver serve did not start:\n${stderr}`)), 20_000);
    child.stderr!.on("data", (d) => {
      stderr += d;
      const m = /serving on (http:\/\/\S+?) /.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on("close", () => reject(new Error(`quiver serve exited:\n${stderr}`)));
  });
  return { child, url, stderr: () => stderr, exited };
};

/** Polls until `check` returns true (or throws after `ms`). */
export const eventually = async (check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
};
