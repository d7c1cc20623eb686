import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@quiver/testing";

/** The directory holding `initdb` and `pg_ctl` (the newest installed version), or undefined. */
export const postgresBinDir = (): string | undefined => {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")) && existsSync(join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin");
};

/** runuser's path: sbin may not be on PATH (CI runs with PATH=/usr/local/bin:/usr/bin:/bin). */
const runuser = (): string | undefined => ["/usr/sbin/runuser", "/sbin/runuser"].find((p) => existsSync(p));

/** Why a private PostgreSQL cluster cannot be started here, or undefined when it can. */
export const privatePostgresUnavailable = (): string | undefined => {
  if (!postgresBinDir()) return "no /usr/lib/postgresql/*/bin/initdb and pg_ctl";
  if (process.getuid?.() === 0 && !runuser()) {
    return "running as root without runuser (initdb refuses root)";
  }
  return undefined;
};

/** Uid and gid of the `postgres` OS user (from /etc/passwd), for running the server when we are root. */
const postgresUser = async (): Promise<{ uid: number; gid: number }> => {
  const id = (flag: string) =>
    new Promise<number>((resolve, reject) =>
      execFile("id", [flag, "postgres"], (error, stdout) =>
        error
          ? reject(new Error("no `postgres` OS user to run PostgreSQL as"))
          : resolve(Number(stdout.trim())),
      ),
    );
  return { uid: await id("-u"), gid: await id("-g") };
};

/**
 * A PostgreSQL cluster of the test's own (trust auth, user `postgres`, database `postgres`) in a
 * temporary folder on a free port, so stopping it for an outage disturbs no other test or person.
 * `stop` is a real server stop (`pg_ctl stop -m immediate`), `start` brings it back on the same port,
 * `close` stops it and removes the folder; `timings` holds the milliseconds each step took. When run as root, the server runs as the `postgres` OS user.
 */
export const startPostgresServer = async () => {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL binaries not found");
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "quiver-pg-"));
  const data = join(dir, "data");
  const log = join(dir, "server.log");
  if (asRoot) {
    const { uid, gid } = await postgresUser();
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: ReadonlyArray<string>) =>
    new Promise<void>((resolve, reject) => {
      const [file, argv] = asRoot
        ? [runuser() ?? "runuser", ["-u", "postgres", "--", join(bin, tool), ...args]]
        : [join(bin, tool), [...args]];
      execFile(file, argv, { timeout: 60_000 }, (error, _stdout, stderr) =>
        error ? reject(new Error(`${tool} failed: ${stderr || error.message}`)) : resolve(),
      );
    });
  const port = await freePort();
  const timings: Record<string, number> = {};
  const timed = async (name: string, step: () => Promise<void>) => {
    const t0 = performance.now();
    await step();
    timings[name] = Math.round(performance.now() - t0);
  };
  await timed("initdb", () => run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]));
  let running = false;
  let started = false;
  const start = () =>
    timed(started ? "restart" : "start", async () => {
      await run("pg_ctl", [
        "-D",
        data,
        "-o",
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
        "-l",
        log,
        "-w",
        "start",
      ]);
      running = true;
      started = true;
    });
  const stop = () =>
    timed("stop", async () => {
      if (!running) return;
      running = false;
      await run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    });
  const close = async () => {
    await stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dir, start, stop, close, timings };
};
