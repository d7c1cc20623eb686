import { secret } from "@quiver/core";
import { z } from "zod";

const booleanish = z.union([
  z.boolean(),
  z
    .string()
    .regex(/^(true|false|1|0|yes|no)$/i, "expected true or false")
    .transform((v) => /^(true|1|yes)$/i.test(v)),
]);

/** The guia plugin's settings (from options, the host's config file and environment variables). */
export const guiaConfigSchema = z
  .object({
    store: z
      .enum(["folder", "mongodb"])
      .optional()
      .describe("Where guides live (default: mongodb when MONGODB_URI is set, else folder)."),
    guidesDir: z
      .string()
      .min(1)
      .optional()
      .describe("Folder of JSON/YAML guides; `quiver guia import` writes here."),
    seed: booleanish.default(true).describe("Also serve the two real UGR guides shipped with the package."),
    mongodbUri: secret().optional().describe("MongoDB connection string."),
    mongodbDatabase: z
      .string()
      .min(1)
      .optional()
      .describe("MongoDB database (default: the URI's, else quiver)."),
    mongodbCollection: z.string().min(1).default("guias").describe("MongoDB collection."),
  })
  .superRefine((c, ctx) => {
    if (c.store === "mongodb" && !c.mongodbUri) {
      ctx.addIssue({ code: "custom", path: ["mongodbUri"], message: "the mongodb store needs MONGODB_URI" });
    }
  });

/** The validated settings a tool receives as `ctx.config`. */
export type GuiaConfig = z.output<typeof guiaConfigSchema>;

/** Environment variable of each setting. */
export const GUIA_ENV = {
  store: "GUIA_STORE",
  guidesDir: "GUIA_DIR",
  seed: "GUIA_SEED",
  mongodbUri: "MONGODB_URI",
  mongodbDatabase: "MONGODB_DB",
  mongodbCollection: "GUIA_MONGODB_COLLECTION",
} as const;
