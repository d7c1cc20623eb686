// The vitest reporter of `pnpm test:live` (scripts/test-live.mjs): writes, per live test file, its
// tests (name, status, ms, first error line) and the "skipped: …" lines the file printed, as JSON to
// the path in QUIVER_LIVE_REPORT. The runner prints them as a table.
import { writeFileSync } from "node:fs";

/** Collects the live tests' outcomes and skip reasons; see the file comment. */
export default class LiveReporter {
  logs = [];

  onUserConsoleLog(log) {
    this.logs.push(log);
  }

  onTestRunEnd(testModules, unhandledErrors) {
    const owner = new Map();
    const modules = testModules.map((m) => {
      owner.set(m.id, m.moduleId);
      const tests = [...m.children.allTests()].map((t) => {
        owner.set(t.id, m.moduleId);
        const result = t.result();
        return {
          name: t.name,
          state: result.state,
          ms: Math.round(t.diagnostic()?.duration ?? 0),
          error: result.errors?.[0]?.message?.split("\n")[0],
        };
      });
      const moduleErrors = m.errors().map((e) => e.message.split("\n")[0]);
      return { file: m.moduleId, tests, errors: moduleErrors, said: [] };
    });
    for (const log of this.logs) {
      const file = owner.get(log.taskId);
      const module = modules.find((m) => m.file === file);
      if (module) module.said.push(...log.content.split("\n").filter((l) => l.startsWith("skipped:")));
    }
    const out = {
      modules,
      unhandled: unhandledErrors.map((e) => e.message.split("\n")[0]),
    };
    writeFileSync(process.env.QUIVER_LIVE_REPORT ?? ".reports/live.json", JSON.stringify(out, null, 2));
  }
}
