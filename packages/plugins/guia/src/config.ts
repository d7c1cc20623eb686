import { secret, setting } from "@quiver/core";
import { z } from "zod";

/** The guia plugin's settings (from options, the host's config file and environment variables). */
export const guiaConfigSchema = z
  .object({
    store: setting(z.enum(["folder", "mongodb"]).optional(), { env: "GUIA_STORE" }).describe(
      "Where guides live (default: mongodb when MONGODB_URI is set, else folder).",
    ),
    guidesDir: setting(z.string().min(1).optional(), { env: "GUIA_DIR" }).describe(
      "Folder of JSON/YAML guides; `quiver guia import` writes here.",
    ),
    // A boolean, or a string such as true/false, 1/0, yes/no (an environment variable).
    seed: setting(z.union([z.boolean(), z.stringbool()]).default(true), { env: "GUIA_SEED" }).describe(
      "Also serve the two real UGR guides shipped with the package.",
    ),
    mongodbUri: secret({ env: "MONGODB_URI" }).optional().describe("MongoDB connection string."),
    mongodbDatabase: setting(z.string().min(1).optional(), { env: "MONGODB_DB" }).describe(
      "MongoDB database (default: the URI's, else quiver).",
    ),
    mongodbCollection: setting(z.string().min(1).default("guias"), {
      env: "GUIA_MONGODB_COLLECTION",
    }).describe("MongoDB collection."),
  })
  .refine((c) => c.store !== "mongodb" || c.mongodbUri, {
    path: ["mongodbUri"],
    message: "the mongodb store needs MONGODB_URI",
  });

/** The validated settings a tool receives as `ctx.config`. */
export type GuiaConfig = z.output<typeof guiaConfigSchema>;
