import { type Catalog, type CatalogOptions, createCatalog, type ToolResult } from "@quiver/core";
import type { Emulator } from "@quiver/testing";
import { afterEach } from "vitest";
import { type AlphafoldPluginOptions, createAlphafoldPlugin } from "../../src/index.js";

const open: Catalog[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

/** Settings pointing every upstream at the emulator. */
export const at = (up: Emulator): Record<string, unknown> => ({
  alphafoldUrl: up.url,
  esmfoldUrl: up.url,
  uniprotUrl: up.url,
});

/** A catalog with a fresh AlphaFold plugin, closed after the test. */
export const afCatalog = (
  options: AlphafoldPluginOptions | Record<string, unknown>,
  catalogOptions: CatalogOptions = {},
) => {
  const catalog = createCatalog({ env: {}, ...catalogOptions });
  catalog.register(createAlphafoldPlugin(), options as Record<string, unknown>);
  open.push(catalog);
  return catalog;
};

/** The session every test call runs in. */
export const session = { session: { id: "t", principal: "alice" } } as const;

/** The data of an envelope, typed loosely for assertions. */
export const dataOf = (r: ToolResult) => r.data as Record<string, any>;
