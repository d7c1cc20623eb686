import { type Catalog, type CatalogOptions, createCatalog, type ToolResult } from "@quiver/core";
import { afterEach } from "vitest";
import { createFdaPlugin, type FdaPluginOptions } from "../../src/index.js";

const open: Catalog[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

/** A catalog with a fresh FDA plugin (fresh daily budget), closed after the test. */
export const fdaCatalog = (
  options: FdaPluginOptions & Record<string, unknown>,
  catalogOptions: CatalogOptions = {},
) => {
  const catalog = createCatalog({ env: {}, ...catalogOptions });
  catalog.register(createFdaPlugin(), options);
  open.push(catalog);
  return catalog;
};

/** The session every test call runs in. */
export const session = { session: { id: "t", principal: "alice" } } as const;

/** The data of a successful envelope, typed loosely for assertions. */
export const dataOf = (r: ToolResult) => r.data as Record<string, any>;
