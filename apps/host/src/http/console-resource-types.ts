// What GET /resources and GET /resources?uri=… answer, as types: the route and the browser console share them
// (type-only, from @quiver/core, because the console's compiler reads this file with the browser's libraries).
import type { ResourceContents, ResourceInfo, ResourceTemplateInfo } from "@quiver/core";

export type { ResourceContents, ResourceInfo, ResourceTemplateInfo };

/** GET /resources: the resources and resource templates the caller's scopes allow. */
export interface ResourceList {
  readonly resources: ReadonlyArray<ResourceInfo>;
  readonly resourceTemplates: ReadonlyArray<ResourceTemplateInfo>;
}

/** GET /resources?uri=…: the resource read, as MCP's `resources/read` answers it (binary as base64 `blob`). */
export interface ResourceRead {
  readonly uri: string;
  readonly contents: ReadonlyArray<ResourceContents>;
}
