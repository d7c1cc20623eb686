import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Emulator, startEmulator } from "@quiver/testing";
import { startAfdbEmulator } from "../../../packages/plugins/alphafold/test/support/afdb-emulator.js";
import { routeContext7 } from "../../../packages/plugins/context7/test/context7-upstream.js";
import { startOpenFdaEmulator } from "../../../packages/plugins/fda/test/support/openfda-emulator.js";
import {
  addAliceNotes,
  makeProject,
  type Project,
  runQuiver,
  type ServeProcess,
  startServe,
} from "./helpers.js";

/** The bearer tokens of the host: alice and bob. */
export const TOKENS = { "tok-alice-7c1f": "alice", "tok-bob-2e84": "bob" } as const;
/** Alice's private-repo document, and its text as added (the note without its front matter). */
export const ALICE_DOC = "private-repo://documents/alice/unpublished/unpublished.md";
export const ALICE_TEXT = "\n# Unpublished\n\nThe cohort-12 follow-up, unpublished.\n";
/** The rag document `quiver rag index` indexed, and its text. */
export const RAG_DOC = "rag://documents/default/tema1.txt";
export const RAG_TEXT = "El enfriamiento simulado acepta peores soluciones.";
/** RYBELSUS's label in the openFDA emulator (its Drugs@FDA record's SPL set id). */
export const FDA_LABEL = "fda://label/27f15fac-7d98-4114-a2ec-92494a91da98";
/** The AlphaFold DB model file the emulator serves whole (the recorded AF-Q7Z6M3-F1 PDB). */
export const AFDB_STRUCTURE = "alphafold://structures/Q7Z6M3/pdb";

/** `quiver serve` with the real plugins, each against its local emulator, and what to stop after. */
export interface RealPluginsHost {
  readonly serve: ServeProcess;
  readonly project: Project;
  readonly close: () => Promise<void>;
}

/**
 * Starts `quiver serve` with seven real plugins (fda, alphafold, context7 on their emulators; guia's
 * shipped guides; a rag index and alice's private-repo collection built by the CLI; testgen), alice's
 * and bob's tokens, rate limits off.
 */
export const startRealPluginsHost = async (): Promise<RealPluginsHost> => {
  const emulators: Emulator[] = [];
  const { up: fda } = await startOpenFdaEmulator();
  const { up: afdb } = await startAfdbEmulator();
  const context7 = await startEmulator();
  routeContext7(context7);
  emulators.push(fda, afdb, context7);
  const plugins = {
    fda: { options: { baseUrl: fda.url } },
    alphafold: { options: { alphafoldUrl: afdb.url, uniprotUrl: afdb.url, esmfoldUrl: afdb.url } },
    context7: { options: { baseUrl: `${context7.url}/api` } },
    "private-repo": { options: { indexPath: "repo" } },
    rag: { options: { indexPath: "rag.db" } },
  };
  const project = makeProject({
    workspace: [
      "@quiver/plugin-fda",
      "@quiver/plugin-alphafold",
      "@quiver/plugin-context7",
      "@quiver/plugin-guia",
      "@quiver/plugin-rag",
      "@quiver/plugin-private-repo",
      "@quiver/plugin-testgen",
    ],
    config: {
      name: "quiver.config.json",
      text: JSON.stringify({ tokens: TOKENS, plugins, policies: { "*": { rateLimit: false } }, find: false }),
    },
  });
  await addAliceNotes(project.dir, "repo", {
    title: "Unpublished cohort",
    body: "The cohort-12 follow-up, unpublished.",
  });
  mkdirSync(join(project.dir, "material"));
  writeFileSync(join(project.dir, "material", "tema1.txt"), RAG_TEXT);
  const indexed = await runQuiver(["rag", "index", "material", "--index", "rag.db"], { cwd: project.dir });
  if (indexed.code !== 0) throw new Error(`quiver rag index failed: ${indexed.stderr}`);
  const serve = await startServe([], { cwd: project.dir });
  return {
    serve,
    project,
    close: async () => {
      serve.child.kill("SIGTERM");
      await serve.exited;
      project.cleanup();
      for (const e of emulators) await e.close();
    },
  };
};
