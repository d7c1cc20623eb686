/** A progress reporter: a bar on a terminal, plain lines otherwise. */
export interface Progress {
  readonly update: (done: number, total: number | undefined, detail?: string) => void;
  readonly finish: (line?: string) => void;
}

/**
 * Creates a progress reporter on stderr: on a terminal a redrawn bar (`[#####-----] 50% 5/10 file`),
 * elsewhere one plain line per step, at most every 10% for long runs, so logs stay readable.
 *
 * @example
 * const p = createProgress("indexing", { tty: process.stderr.isTTY })
 * p.update(3, 10, "notes.md"); p.finish("indexed 10 files")
 */
export const createProgress = (
  label: string,
  opts: { readonly tty: boolean; readonly write?: (s: string) => void; readonly width?: number } = {
    tty: false,
  },
): Progress => {
  const write = opts.write ?? ((s: string) => process.stderr.write(s));
  const width = opts.width ?? 24;
  let lastPct = -1;
  let drawn = false;
  const trim = (s: string, n: number) => (s.length > n ? `…${s.slice(s.length - n + 1)}` : s);
  return {
    update: (done, total, detail = "") => {
      if (opts.tty) {
        const pct = total ? Math.min(1, done / total) : 0;
        const filled = Math.round(pct * width);
        const bar = total
          ? `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.round(pct * 100)).padStart(3)}% `
          : "";
        const cols = process.stderr.columns ?? 100;
        const head = `${label} ${bar}${done}${total ? `/${total}` : ""} `;
        write(`\r\u001b[2K${head}${trim(detail, Math.max(10, cols - head.length - 1))}`);
        drawn = true;
        return;
      }
      const pct = total ? Math.floor((done / total) * 10) : done;
      if (total && total > 20 && pct === lastPct && done !== total) return;
      lastPct = pct;
      write(`${label}: ${done}${total ? `/${total}` : ""}${detail ? ` ${detail}` : ""}\n`);
    },
    finish: (line) => {
      if (opts.tty && drawn) write("\r\u001b[2K");
      if (line) write(`${line}\n`);
    },
  };
};
