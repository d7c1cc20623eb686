import type { CatalogOptions, ToolResult } from "@quiver/core";
import { type Emulator, useCatalog } from "@quiver/testing";
import { type AlphafoldPluginOptions, createAlphafoldPlugin } from "../../src/index.js";

const makeCatalog = useCatalog({ env: {} });

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
  const catalog = makeCatalog(catalogOptions);
  catalog.register(createAlphafoldPlugin(), options as Record<string, unknown>);
  return catalog;
};

/** The session every test call runs in. */
export const session = { session: { id: "t", principal: "alice" } } as const;

/** The data of an envelope, typed loosely for assertions. */
export const dataOf = (r: ToolResult) => r.data as Record<string, any>;
