import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type IndexChange, openSearchIndex } from "@quiver/search";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAliceNotes, makeProject, type Project, runQuiver } from "./helpers.js";

// What a serving host needs to notice a document it did not add: a watched handle on a private-repo
// collection's index hears `quiver private-repo add` (a separate process, the real CLI) adding to it.
let project: Project;

beforeAll(async () => {
  project = makeProject({
    workspace: ["@quiver/plugin-private-repo"],
    config: {
      name: "quiver.config.json",
      text: JSON.stringify({ plugins: { "private-repo": { options: { indexPath: "repo" } } } }),
    },
  });
  await addAliceNotes(project.dir, "repo", { title: "First note", body: "The first result." });
}, 60_000);
afterAll(() => project?.cleanup());

describe("a watched index and the CLI", () => {
  it("hears `quiver private-repo add` adding a document, and reads it whole", async () => {
    const folder = join(project.dir, "repo", "collections");
    const [file] = readdirSync(folder).filter((f) => f.endsWith(".sqlite"));
    const index = await openSearchIndex({ path: join(folder, file!), watchIntervalMs: 50 });
    const changed = new Promise<IndexChange>((resolve) => index.watch(resolve));

    const more = join(project.dir, "more-notes");
    mkdirSync(more);
    const text = "---\ntitle: Second note\n---\n\nThe replication failed at passage 12.\n";
    writeFileSync(join(more, "second.md"), text);
    const args = ["private-repo", "add", "more-notes", "--owner", "alice", "--collection", "unpublished"];
    const added = await runQuiver([...args, "--repo", "repo"], { cwd: project.dir });
    expect(added.code, added.stderr).toBe(0);

    expect(await changed).toEqual({});
    // The collection's index holds one collection of the search index; the new note is in it.
    const [collection] = (await index.collections()).map((c) => c.name);
    const page = await index.documents({ collection: collection! });
    const second = page.documents.find((d) => d.title === "Second note");
    expect(page.documents.map((d) => d.title).sort()).toEqual(["First note", "Second note"]);
    const read = await index.document(second!.id, { collection: collection! });
    expect(read?.text).toContain("The replication failed at passage 12.");
    await index.close();
  });
});
