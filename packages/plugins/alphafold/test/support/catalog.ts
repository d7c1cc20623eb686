import type { CatalogOptions, ToolResult } from "@quiver/core";
import { type Emulator, useCatalog, usePluginOnEmulator } from "@quiver/testing";
import { type AlphafoldPluginOptions, createAlphafoldPlugin } from "../../src/index.js";
import { startAfdbEmulator } from "./afdb-emulator.js";

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

/**
 * The AlphaFold DB / UniProt / ESMFold emulator for a test file (started before its tests, faults
 * cleared after each, closed after the last), and catalogs with the plugin pointed at it, closed
 * after each test.
 */
export const useAfdbEmulator = () =>
  usePluginOnEmulator({
    plugin: createAlphafoldPlugin,
    start: async () => (await startAfdbEmulator()).up,
    options: at,
    catalog: { env: {} },
  });
