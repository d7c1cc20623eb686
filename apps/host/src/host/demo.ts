import { existsSync, readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { HostSettings } from "../config/host-settings.js";
import type { LoadedPlugin } from "../discovery/types.js";
import { cachePath, fingerprint, isFresh, markFresh } from "./demo-cache.js";

/** What demo mode built: options per plugin id, lines to print, and problems. */
export interface DemoReport {
  readonly options: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly lines: ReadonlyArray<string>;
  readonly dispose?: () => Promise<void>;
}

interface DemoStep {
  /** Plugin id. */
  readonly id: string;
  /** Environment variables that, when set, mean the user chose their own store: no demo then. */
  readonly ownStore: ReadonlyArray<string>;
  readonly build: (ctx: DemoContext) => Promise<{ options: Record<string, unknown>; line: string }>;
}

interface DemoContext {
  readonly plugin: LoadedPlugin;
  readonly dataDir: string;
  readonly cacheDir: string;
  readonly settings: HostSettings;
}

const fn = <F>(plugin: LoadedPlugin, ...names: string[]): F | undefined => {
  for (const n of names) if (typeof plugin.module[n] === "function") return plugin.module[n] as F;
  return undefined;
};

const ms = (started: number) => `${Math.round(performance.now() - started)} ms`;

const listFiles = (dir: string): string[] => {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p));
    else out.push(p);
  }
  return out;
};

type BuildDemoIndex = (o: { indexPath: string; dataDir?: string }) => Promise<{
  indexPath: string;
  documents: number;
  chunks: number;
  subjects: ReadonlyArray<string>;
}>;

const ragStep: DemoStep = {
  id: "rag",
  ownStore: ["RAG_SERVICE_URL", "RAG_INDEX_PATH", "RAG_BACKEND"],
  build: async ({ plugin, dataDir, cacheDir }) => {
    const build = fn<BuildDemoIndex>(plugin, "buildDemoIndex");
    if (!build) throw new Error(`${plugin.candidate.package} exports no buildDemoIndex`);
    const started = performance.now();
    const indexPath = cachePath(cacheDir, "rag-demo.db");
    const key = fingerprint(`rag@${plugin.plugin.version}`, [
      ...listFiles(join(dataDir, "ugr-guia-docente")),
      join(dataDir, "beir-scifact", "corpus.jsonl"),
    ]);
    if (isFresh(indexPath, key)) {
      return {
        options: { backend: "embedded", indexPath },
        line: `rag: demo index reused from ${indexPath} (${ms(started)})`,
      };
    }
    const r = await build({ indexPath, dataDir });
    await markFresh(indexPath, key, cacheDir);
    return {
      options: { backend: "embedded", indexPath },
      line: `rag: built a demo index of ${r.documents} documents (${r.chunks} chunks; subjects ${r.subjects.join(", ")}) at ${r.indexPath} in ${ms(started)}`,
    };
  },
};

interface GuideStoreLike {
  list(): Promise<ReadonlyArray<{ subject?: string; id?: string }>>;
  close(): Promise<void>;
}

interface GuideImportReport {
  readonly imported: ReadonlyArray<unknown>;
  readonly skipped: ReadonlyArray<{ readonly source: string; readonly reason: string }>;
}

const guiaStep: DemoStep = {
  id: "guia",
  ownStore: ["GUIA_DIR", "GUIA_STORE", "MONGODB_URI"],
  build: async ({ plugin, dataDir, cacheDir }) => {
    const open = fn<(s: Record<string, unknown>) => GuideStoreLike>(plugin, "openGuideStore");
    const importGuides = fn<(path: string, store: GuideStoreLike) => Promise<GuideImportReport>>(
      plugin,
      "importGuides",
    );
    const source = join(dataDir, "ugr-guia-docente");
    if (!open) return { options: {}, line: "guia: serving the guides shipped with the plugin" };
    const started = performance.now();
    // The real guides from the shared data, imported through the plugin's own validating importer
    // into a demo folder store (no seed), so what is served is what `quiver guia import` would load.
    const useShared = importGuides !== undefined && existsSync(source);
    const guidesDir = cachePath(cacheDir, "guia-demo");
    const settings = useShared ? { guidesDir, seed: false } : { seed: true };
    const store = open(settings);
    try {
      let note = "the guides shipped with the plugin";
      if (useShared) {
        const report = await importGuides(source, store);
        note = `imported ${report.imported.length} from ${source}${report.skipped.length > 0 ? `, skipped ${report.skipped.length}` : ""}`;
      }
      const guides = await store.list();
      const names = guides.map((g) => g.subject ?? g.id).filter(Boolean);
      return {
        options: settings,
        line: `guia: ${guides.length} teaching guides in the embedded folder store (${names.join(", ")}; ${note}) in ${ms(started)}`,
      };
    } finally {
      await store.close();
    }
  },
};

type BuildDemoRepository = (o: { indexPath: string; dataDir: string; owner?: string }) => Promise<{
  owner: string;
  collection: string;
  documents: number;
  chunks: number;
}>;

const privateRepoStep: DemoStep = {
  id: "private-repo",
  ownStore: ["QUIVER_PRIVATE_REPO"],
  build: async ({ plugin, dataDir, cacheDir, settings }) => {
    const build = fn<BuildDemoRepository>(plugin, "buildDemoRepository");
    if (!build) throw new Error(`${plugin.candidate.package} exports no buildDemoRepository`);
    const started = performance.now();
    const owner = settings.principal ?? "demo";
    const indexPath = cachePath(cacheDir, "private-repo-demo");
    const key = fingerprint(`private-repo@${plugin.plugin.version}|${owner}`, [
      join(dataDir, "beir-scifact", "corpus.jsonl"),
    ]);
    if (isFresh(indexPath, key)) {
      return {
        options: { indexPath },
        line: `private-repo: demo repository reused from ${indexPath} (owner "${owner}", ${ms(started)})`,
      };
    }
    await rm(indexPath, { recursive: true, force: true });
    const r = await build({ indexPath, dataDir, owner });
    await markFresh(indexPath, key, cacheDir);
    return {
      options: { indexPath },
      line: `private-repo: built a demo repository of ${r.documents} SciFact abstracts (${r.chunks} chunks) as ${r.owner}/${r.collection} at ${indexPath} in ${ms(started)}; call it as principal "${r.owner}"`,
    };
  },
};

const STEPS: ReadonlyArray<DemoStep> = [ragStep, guiaStep, privateRepoStep];

/**
 * Demo mode: fills the embedded stores of rag, guia and private-repo from the shared real data
 * (../shared/data) so a new user can ask real questions at once. Builds go to the cache folder and
 * are reused while the data and plugin version are unchanged. A plugin whose store the user chose
 * (its variables set) is left alone. Never throws: a failed build is logged and the plugin keeps its
 * own settings.
 *
 * @example
 * const demo = await prepareDemo(plugins, settings, console.error)
 * catalog.register(rag, demo.options.rag)
 */
export const prepareDemo = async (
  plugins: ReadonlyArray<LoadedPlugin>,
  settings: HostSettings,
  log: (line: string) => void,
): Promise<DemoReport> => {
  const options: Record<string, Record<string, unknown>> = {};
  const lines: string[] = [];
  const dataDir = settings.demo.dataDir;
  const say = (line: string) => {
    lines.push(line);
    log(line);
  };
  if (!dataDir) {
    say("demo: the shared data folder was not found (set QUIVER_DATA_DIR); plugins keep their own stores.");
    return { options, lines };
  }
  say(`demo mode: filling embedded stores from ${dataDir}`);
  await Promise.all(
    STEPS.map(async (step) => {
      const plugin = plugins.find((p) => p.plugin.id === step.id);
      if (!plugin) return;
      const own = step.ownStore.filter((v) => settings.env[v]);
      if (own.length > 0) {
        say(`${step.id}: ${own.join(", ")} set, so the demo leaves its store alone`);
        return;
      }
      try {
        const built = await step.build({ plugin, dataDir, cacheDir: settings.demo.cacheDir, settings });
        options[step.id] = built.options;
        say(built.line);
      } catch (error) {
        say(
          `${step.id}: the demo store was not built (${(error as Error).message}); it serves its own settings`,
        );
      }
    }),
  );
  return { options, lines };
};
