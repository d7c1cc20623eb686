// What the release workflow hands the servers' release step: changesets/action's publishedPackages.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { publishedServers } from "./release-servers.mjs";
import { root } from "./served-plugins.mjs";

describe("publishedServers", () => {
  it("keeps the bundled servers of a release, with their folders, and nothing else", () => {
    const published = [
      { name: "@quiver/core", version: "0.3.0" },
      { name: "@quiver/guia-mcp", version: "0.1.0" },
      { name: "@quiver/plugin-fda", version: "0.2.0" },
      { name: "@quiver/fda-mcp", version: "0.2.0" },
    ];
    expect(publishedServers(published)).toEqual([
      { name: "@quiver/guia-mcp", version: "0.1.0", dir: join(root, "packages/servers/guia") },
      { name: "@quiver/fda-mcp", version: "0.2.0", dir: join(root, "packages/servers/fda") },
    ]);
  });
});
