import { fail, reveal, type Secret } from "@quiver/core";
import type { Collection, Document, MongoClient } from "mongodb";
import { describeGuide } from "../guide.js";
import { assertSubjectId, type GuideStore } from "./guide-store.js";

/** Options of the MongoDB store. */
export interface MongoGuideStoreOptions {
  /** Connection string (`mongodb://…` or `mongodb+srv://…`), plain or Redacted. */
  readonly uri: Secret;
  /** Database (default: the one named in the URI, else `quiver`). */
  readonly database?: string | undefined;
  /** Collection (default `guias`, as the original chatbot). */
  readonly collection?: string | undefined;
  /** How long to look for a server before failing (default 5000 ms). */
  readonly serverSelectionTimeoutMs?: number | undefined;
}

/**
 * The MongoDB guide store (official `mongodb` driver): one document per guide with a `subject` field,
 * as the original chatbot kept them. Ids are checked before every query and matched with `$eq`, so an
 * operator object can never reach MongoDB. The driver is loaded on first use.
 *
 * @example
 * const store = createMongoGuideStore({ uri: process.env.MONGODB_URI!, database: "tfg_chatbot" })
 * const guide = await store.get("metaheuristicas")
 */
export const createMongoGuideStore = (options: MongoGuideStoreOptions): GuideStore => {
  // The one plain read of the secret: the MongoDB driver needs the connection string itself.
  const uri = reveal(options.uri);
  let client: MongoClient | undefined;
  let pending: Promise<Collection<Document>> | undefined;

  const connect = async (): Promise<Collection<Document>> => {
    const { MongoClient } = await import("mongodb");
    client = new MongoClient(uri, { serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 5000 });
    await client.connect();
    const inUri = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]+)/.exec(uri)?.[1];
    const database = options.database ?? (inUri ? decodeURIComponent(inUri) : "quiver");
    return client.db(database).collection(options.collection ?? "guias");
  };

  /**
   * Runs `f` on the collection, connecting at the first use (and again after a failed connection);
   * any driver error is `unavailable`, with the connection string masked.
   */
  const guarded = async <T>(f: (c: Collection<Document>) => Promise<T>): Promise<T> => {
    try {
      pending ??= connect().catch(async (error: unknown) => {
        pending = undefined;
        await client?.close().catch(() => undefined);
        client = undefined;
        throw error;
      });
      return await f(await pending);
    } catch (error) {
      throw fail.unavailable(
        `MongoDB guide store is unreachable: ${(error as Error).message.split(uri).join("[REDACTED]")}`,
        { suggestion: "Check MONGODB_URI and that the MongoDB server is running." },
      );
    }
  };

  return {
    kind: "mongodb",
    list: () =>
      guarded(async (c) => {
        const names = ["subject", "asignatura", "nombre", "name", "codigo", "código", "code"];
        const projection = { _id: 0, ...Object.fromEntries(names.map((k) => [k, 1])) };
        return (await c.find({}, { projection }).toArray()).flatMap((d) =>
          typeof d.subject === "string" ? [describeGuide({ subject: d.subject, data: d })] : [],
        );
      }),
    get: async (subject) => {
      assertSubjectId(subject);
      return guarded(async (c) => {
        const doc = await c.findOne({ subject: { $eq: subject } }, { projection: { _id: 0 } });
        if (!doc) return undefined;
        const { subject: _stored, _id, ...data } = doc;
        return { subject, data };
      });
    },
    put: async (guide) => {
      assertSubjectId(guide.subject);
      return guarded(async (c) => {
        const doc = { subject: guide.subject, ...guide.data };
        const result = await c.replaceOne({ subject: { $eq: guide.subject } }, doc, { upsert: true });
        return result.upsertedCount > 0 ? "created" : "replaced";
      });
    },
    close: async () => {
      pending = undefined;
      await client?.close();
      client = undefined;
    },
  };
};
