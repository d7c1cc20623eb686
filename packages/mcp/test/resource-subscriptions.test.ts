import { EventEmitter } from "node:events";
import type { Client } from "@modelcontextprotocol/client";
import { definePlugin } from "@quiver/core";
import { describe, expect, it } from "vitest";
import { useServedPlugin } from "./served-plugin.js";

// A shelf of books whose list and contents change when the test says so, as an index written by
// another process would: the plugin's watcher hears of it and tells the catalog.
const shelf = new EventEmitter();
const books: Record<string, string> = { b1: "first edition" };
const shelfPlugin = definePlugin({
  id: "shelf",
  version: "1.0.0",
  tools: [],
  resources: [
    {
      uri: "shelf://books",
      name: "books",
      read: () => [{ uri: "shelf://books", text: JSON.stringify(Object.keys(books)) }],
    },
  ],
  resourceTemplates: [
    {
      // Alice's notes: no one else reads them, so no one else may listen to them either.
      uriTemplate: "shelf://notes/{id}",
      name: "notes",
      read: (uri, _vars, ctx) => (ctx.caller.principal === "alice" ? [{ uri, text: "alice's notes" }] : []),
    },
    {
      uriTemplate: "shelf://book/{id}",
      name: "book",
      read: (uri, { id }) => (books[id!] === undefined ? [] : [{ uri, text: books[id!]! }]),
    },
  ],
  watchResources: (changed) => {
    const onChange = (uri?: string) => changed(uri ? { uri } : undefined);
    shelf.on("change", onChange);
    return () => shelf.off("change", onChange);
  },
});

const served = useServedPlugin(shelfPlugin);
/** An SDK client over Streamable HTTP as `principal`, in the era given (else the SDK's default). */
const connect = (era?: "2026-07-28", principal: "alice" | "bob" = "alice") =>
  served.connect({ principal, era });

/** The notifications of `method` the client receives, as they come. */
const heard = (
  client: Client,
  method: "notifications/resources/updated" | "notifications/resources/list_changed",
) => {
  const got: unknown[] = [];
  client.setNotificationHandler(method, (n) => {
    got.push(n.params ?? {});
  });
  return got;
};
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe("resource change notifications", () => {
  it("2025-11-25: a subscribed resource's update and the list's change reach the client; an unsubscribed one does not", async () => {
    const client = await connect();
    expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: true });
    const updated = heard(client, "notifications/resources/updated");
    const listed = heard(client, "notifications/resources/list_changed");
    await client.subscribeResource({ uri: "shelf://book/b1" });
    books.b1 = "second edition";
    shelf.emit("change", "shelf://book/b1");
    shelf.emit("change", "shelf://book/elsewhere");
    books.b2 = "new";
    shelf.emit("change");
    await until(() => updated.length > 0 && listed.length > 0);
    expect(updated).toEqual([{ uri: "shelf://book/b1" }]);
    expect(listed).toHaveLength(1);
    expect((await client.readResource({ uri: "shelf://book/b1" })).contents[0]).toMatchObject({
      text: "second edition",
    });
    await client.unsubscribeResource({ uri: "shelf://book/b1" });
    shelf.emit("change", "shelf://book/b1");
    await new Promise((r) => setTimeout(r, 100));
    expect(updated).toHaveLength(1);
  });

  it("2026-07-28: subscriptions/listen delivers the updates of the URIs it names and the list changes", async () => {
    const client = await connect("2026-07-28");
    const updated = heard(client, "notifications/resources/updated");
    const listed = heard(client, "notifications/resources/list_changed");
    const subscription = await client.listen({
      resourcesListChanged: true,
      resourceSubscriptions: ["shelf://book/b1"],
    });
    shelf.emit("change", "shelf://book/b1");
    shelf.emit("change", "shelf://book/other");
    shelf.emit("change");
    await until(() => updated.length > 0 && listed.length > 0);
    expect(updated).toEqual([expect.objectContaining({ uri: "shelf://book/b1" })]);
    expect(listed).toHaveLength(1);
    await subscription.close();
  });

  it("2026-07-28: a listen on a resource the caller cannot read is not honoured, and hears nothing of it", async () => {
    const bob = await connect("2026-07-28", "bob");
    const alice = await connect("2026-07-28", "alice");
    const bobHeard = heard(bob, "notifications/resources/updated");
    const aliceHeard = heard(alice, "notifications/resources/updated");
    const filter = { resourceSubscriptions: ["shelf://notes/n1", "shelf://book/b1"] };
    const bobs = await bob.listen(filter);
    const alices = await alice.listen(filter);
    expect(bobs.honoredFilter.resourceSubscriptions).toEqual(["shelf://book/b1"]);
    expect(alices.honoredFilter.resourceSubscriptions).toEqual(["shelf://notes/n1", "shelf://book/b1"]);
    shelf.emit("change", "shelf://notes/n1");
    shelf.emit("change", "shelf://book/b1");
    await until(() => aliceHeard.length >= 2 && bobHeard.length >= 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(aliceHeard.map((n) => (n as { uri: string }).uri)).toEqual([
      "shelf://notes/n1",
      "shelf://book/b1",
    ]);
    expect(bobHeard.map((n) => (n as { uri: string }).uri)).toEqual(["shelf://book/b1"]);
    await bobs.close();
    await alices.close();
  });
});
