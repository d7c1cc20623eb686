import type { CatalogOptions, ToolResult } from "@quiver/core";
import { useCatalog } from "@quiver/testing";
import { createFdaPlugin, type FdaPluginOptions } from "../../src/index.js";

const makeCatalog = useCatalog({ env: {} });

/** A catalog with a fresh FDA plugin (fresh daily budget), closed after the test. */
export const fdaCatalog = (
  options: FdaPluginOptions & Record<string, unknown>,
  catalogOptions: CatalogOptions = {},
) => {
  const catalog = makeCatalog(catalogOptions);
  catalog.register(createFdaPlugin(), options);
  return catalog;
};

/** The session every test call runs in. */
export const session = { session: { id: "t", principal: "alice" } } as const;

/** The data of a successful envelope, typed loosely for assertions. */
export const dataOf = (r: ToolResult) => r.data as Record<string, any>;
