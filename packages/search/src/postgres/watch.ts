import pg from "pg";
import type { ChangeSource } from "../internal/change-feed.js";

/** The one channel every index of a database notifies on; listeners keep the notifications of their own index. */
export const CHANNEL = "quiver_search_changes";
/** The listening connection's name in `pg_stat_activity`. */
export const APPLICATION_NAME = "quiver_search_watch";
/** Wait before listening again after the listening connection was lost. */
const RECONNECT_MS = 1_000;

/** Which index a notification is about: its schema, name and owner. */
export interface WatchedIndex {
  readonly schema: string;
  readonly name: string;
  readonly principal: string;
}

/**
 * Notifies the index's listeners, in the writer's transaction (PostgreSQL delivers it at commit, never for a
 * rollback). The payload names the index, its owner and the collection: never a document's text.
 */
export async function notifyChange(client: pg.PoolClient, index: WatchedIndex, collection: string) {
  const payload = JSON.stringify({ ...index, collection });
  await client.query("SELECT pg_notify($1, $2)", [CHANNEL, payload]);
}

/**
 * `LISTEN` on a connection of its own (a pooled one would be handed to other statements). Written here
 * because `pg` gives the notifications but not the listening connection's upkeep: when it is lost, this listens
 * again and announces a change, since notifications sent meanwhile are gone.
 */
export function listenForChanges(url: string, index: WatchedIndex): ChangeSource {
  return (emit) => {
    let client: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    let stopped = false;
    let lost = false;
    let current: Promise<void> = Promise.resolve();
    const onNotification = (message: pg.Notification) => {
      if (message.channel !== CHANNEL || message.payload === undefined) return;
      try {
        const { schema, name, principal, collection } = JSON.parse(message.payload);
        if (schema !== index.schema || name !== index.name || principal !== index.principal) return;
        emit(typeof collection === "string" ? { collection } : {});
      } catch {
        // Not one of ours: another program shares the channel name.
      }
    };
    const again = (dead: pg.Client) => {
      if (stopped || client !== dead) return;
      client = undefined;
      lost = true;
      void dead.end().catch(() => undefined);
      retry = setTimeout(() => {
        current = listen();
      }, RECONNECT_MS);
    };
    const listen = async () => {
      const next = new pg.Client({
        connectionString: url,
        connectionTimeoutMillis: 5_000,
        application_name: APPLICATION_NAME,
      });
      client = next;
      next.on("notification", onNotification);
      next.on("error", () => again(next));
      next.on("end", () => again(next));
      try {
        await next.connect();
        await next.query(`LISTEN ${CHANNEL}`);
        if (stopped) return; // stop() ends it
        if (lost) emit({});
        lost = false;
      } catch {
        again(next);
      }
    };
    current = listen();
    return async () => {
      stopped = true;
      clearTimeout(retry);
      await current;
      await client?.end().catch(() => undefined);
    };
  };
}
