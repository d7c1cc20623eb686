import { useCatalog } from "@quiver/testing";
import { describe, expect, it } from "vitest";
import { createGuiaPlugin, createMongoGuideStore, SEED_GUIDES_DIR } from "../src/index.js";
import { importGuides } from "../src/internal/import-guides.js";
import { describeStoreContract } from "./store-contract.js";

const uri = process.env.QUIVER_TEST_MONGODB_URI ?? process.env.MONGODB_URI;
const makeCatalog = useCatalog({ env: {} });
if (!uri)
  console.log("skipped: set MONGODB_URI (or QUIVER_TEST_MONGODB_URI) to run the MongoDB guide store tests");
const collection = `guias_test_${process.pid}`;

describeStoreContract(
  "mongodb store",
  async () => createMongoGuideStore({ uri: uri!, database: "quiver_test", collection }),
  !!uri,
);

describe.runIf(!!uri)("mongodb store with the real guides", () => {
  it("imports the shipped guides and guia_get_guide reads them from MongoDB", async () => {
    const store = createMongoGuideStore({ uri: uri!, database: "quiver_test", collection });
    try {
      const report = await importGuides(SEED_GUIDES_DIR, store);
      expect(report.imported.map((i) => i.subject).sort()).toEqual([
        "metaheuristicas",
        "modelos_avanzados_computacion",
      ]);
      const catalog = makeCatalog();
      catalog.register(createGuiaPlugin({ guideStore: store }));
      const r = await catalog.call("guia_get_guide", { asignatura: "metaheuristicas", key: "evaluación" });
      expect(r.status, r.message).toBe("success");
      const bad = await catalog.call("guia_get_guide", { asignatura: { $ne: null } });
      expect(bad.error?.kind).toBe("invalid_input");
    } finally {
      await store.close();
    }
  });
});

describe("mongodb store without a server", () => {
  it("a refused connection is `unavailable` with the URI redacted, not a crash", async () => {
    const store = createMongoGuideStore({
      uri: "mongodb://user:s3cretpw@127.0.0.1:1/db",
      serverSelectionTimeoutMs: 300,
    });
    const error = await store.list().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ kind: "unavailable" });
    expect(String((error as Error).message)).not.toContain("s3cretpw");
    await store.close();
  });

  it("through the catalog, a down MongoDB gives an unavailable envelope", async () => {
    const catalog = makeCatalog();
    catalog.register(
      createGuiaPlugin({
        guideStore: createMongoGuideStore({ uri: "mongodb://127.0.0.1:1", serverSelectionTimeoutMs: 300 }),
      }),
    );
    const r = await catalog.call("guia_get_guide", { asignatura: "metaheuristicas" });
    expect(r.status).toBe("unavailable");
  });
});
