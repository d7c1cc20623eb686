// What Linux's /proc says about a child process the benchmarks started (undefined elsewhere).
import { readFileSync } from "node:fs";

/** Resident set size of a process in bytes (/proc/<pid>/status VmRSS), or undefined. */
export const rssOf = (pid) => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
};

/** CPU time (user + system) a process has used, in milliseconds (/proc/<pid>/stat), or undefined. */
export const cpuMsOf = (pid) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
};
