import { randomBytes } from "node:crypto";
import type { StoreDriver } from "@quiver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** What `describeStoreDriver` runs against. */
export interface StoreDriverSuiteOptions {
  /** The driver's name in the suite's title. */
  readonly name: string;
  /** Makes the driver under test (closed after the suite). */
  readonly make: () => StoreDriver | Promise<StoreDriver>;
  /** Why the suite cannot run here (its backend is not reachable), if it cannot. */
  readonly skip?: string | undefined;
}

/** How long the expiry cases let a value live: short, but longer than one round trip. */
const SHORT_TTL_MS = 300;
const LONG_TTL_MS = 60_000;

/**
 * The conformance suite of a `StoreDriver` (core's store interface): every driver, memory or
 * networked, must pass it. It covers values that expire, values of several megabytes, single-use
 * `take`, counters, compare-and-set as a lease (taken once, renewed, given back, taken over once
 * it runs out), listing by prefix, publish/subscribe and private keys.
 *
 * @example
 * describeStoreDriver({ name: "memoryDriver", make: () => memoryDriver() })
 */
export const describeStoreDriver = (options: StoreDriverSuiteOptions): void => {
  describe.skipIf(options.skip !== undefined)(`store driver conformance: ${options.name}`, () => {
    let store: StoreDriver;
    // Every key of a run is under its own namespace, so runs on one backend never meet.
    const run = `conformance-${randomBytes(6).toString("hex")}`;
    const k = (label: string) => `${run}:${label}`;

    beforeAll(async () => {
      store = await options.make();
    });
    afterAll(async () => {
      for (const key of await store.keys(`${run}:`)) await store.delete(key);
      await store.close?.();
    });

    it("gets what it set, replaces it, and has nothing for a key never set", async () => {
      expect(await store.get(k("never"))).toBeUndefined();
      await store.set(k("plain"), "one", LONG_TTL_MS);
      expect(await store.get(k("plain"))).toBe("one");
      await store.set(k("plain"), "two", LONG_TTL_MS);
      expect(await store.get(k("plain"))).toBe("two");
      await store.delete(k("plain"));
      expect(await store.get(k("plain"))).toBeUndefined();
    });

    it("forgets a value once its time to live has run out", async () => {
      await store.set(k("short"), "soon gone", SHORT_TTL_MS);
      await store.set(k("long"), "still here", LONG_TTL_MS);
      expect(await store.get(k("short"))).toBe("soon gone");
      await expect.poll(async () => store.get(k("short")), { timeout: 10_000, interval: 50 }).toBeUndefined();
      expect(await store.get(k("long"))).toBe("still here");
    });

    it("keeps a value of several megabytes byte for byte", async () => {
      // 6 MiB of varied text, multi-byte characters included (a spilled PDB file is this kind of value).
      const chunk = `${randomBytes(48).toString("base64")} ATOM  Cα é 漢 🧬\n`;
      const big = chunk.repeat(Math.ceil((6 * 1024 * 1024) / chunk.length));
      await store.set(k("big"), big, LONG_TTL_MS);
      const back = await store.get(k("big"));
      expect(back?.length).toBe(big.length);
      expect(back === big).toBe(true);
    });

    it("takes a value once: of concurrent takes exactly one gets it", async () => {
      await store.set(k("token"), "single use", LONG_TTL_MS);
      const taken = await Promise.all(Array.from({ length: 6 }, () => store.take(k("token"))));
      expect(taken.filter((t) => t !== undefined)).toEqual(["single use"]);
      expect(await store.get(k("token"))).toBeUndefined();
      expect(await store.take(k("token"))).toBeUndefined();
    });

    it("counts with increment, from one, exactly under concurrency, and forgets the count with its time", async () => {
      expect(await store.increment(k("count"), LONG_TTL_MS)).toBe(1);
      const counts = await Promise.all(
        Array.from({ length: 9 }, () => store.increment(k("count"), LONG_TTL_MS)),
      );
      expect([...counts].sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
      await store.increment(k("count-short"), SHORT_TTL_MS);
      await expect
        .poll(async () => store.get(k("count-short")), { timeout: 10_000, interval: 50 })
        .toBeUndefined();
      expect(await store.increment(k("count-short"), LONG_TTL_MS)).toBe(1);
    });

    it("leases with compare-and-set: taken by one, renewed and given back by its holder only", async () => {
      const lease = k("lease");
      const holders = ["a", "b", "c", "d", "e"];
      const won = await Promise.all(
        holders.map((h) => store.compareAndSet(lease, undefined, h, LONG_TTL_MS)),
      );
      expect(won.filter(Boolean)).toHaveLength(1);
      const holder = holders[won.indexOf(true)] as string;
      const other = holders.find((h) => h !== holder) as string;
      expect(await store.get(lease)).toBe(holder);
      expect(await store.compareAndSet(lease, other, other, LONG_TTL_MS)).toBe(false);
      expect(await store.compareAndSet(lease, holder, holder, LONG_TTL_MS)).toBe(true);
      expect(await store.compareAndSet(lease, other, undefined, LONG_TTL_MS)).toBe(false);
      expect(await store.get(lease)).toBe(holder);
      expect(await store.compareAndSet(lease, holder, undefined, LONG_TTL_MS)).toBe(true);
      expect(await store.get(lease)).toBeUndefined();
    });

    it("lets another take a lease over once its time to live has run out", async () => {
      const lease = k("lapsing");
      expect(await store.compareAndSet(lease, undefined, "replica-a", SHORT_TTL_MS)).toBe(true);
      expect(await store.compareAndSet(lease, undefined, "replica-b", LONG_TTL_MS)).toBe(false);
      await expect
        .poll(async () => store.compareAndSet(lease, undefined, "replica-b", LONG_TTL_MS), {
          timeout: 10_000,
          interval: 50,
        })
        .toBe(true);
      expect(await store.get(lease)).toBe("replica-b");
      // The old holder's renewal fails: it lost the lease.
      expect(await store.compareAndSet(lease, "replica-a", "replica-a", LONG_TTL_MS)).toBe(false);
    });

    it("lists the live keys under a prefix, and only those", async () => {
      // Glob characters in a prefix are taken literally.
      const owner = k("owner*[a]?");
      await store.set(`${owner}:task-1`, "1", LONG_TTL_MS);
      await store.set(`${owner}:task-2`, "2", LONG_TTL_MS);
      await store.set(`${owner}:gone`, "3", SHORT_TTL_MS);
      await store.set(`${k("owner-b")}:task-1`, "4", LONG_TTL_MS);
      await store.set(`${k("ownerX[a]?")}:task-1`, "5", LONG_TTL_MS);
      await expect
        .poll(async () => [...(await store.keys(`${owner}:`))].sort(), { timeout: 10_000, interval: 50 })
        .toEqual([`${owner}:task-1`, `${owner}:task-2`]);
      expect(await store.keys(k("nobody:"))).toEqual([]);
    });

    it("delivers a published message to every subscriber of its channel until it unsubscribes", async () => {
      const channel = k("cancel");
      const first: string[] = [];
      const second: string[] = [];
      const offFirst = await store.subscribe(channel, (m) => first.push(m));
      const offSecond = await store.subscribe(channel, (m) => second.push(m));
      const elsewhere: string[] = [];
      const offElsewhere = await store.subscribe(k("other-channel"), (m) => elsewhere.push(m));
      await store.publish(channel, "cancel task-1");
      await expect
        .poll(() => [first, second], { timeout: 10_000 })
        .toEqual([["cancel task-1"], ["cancel task-1"]]);
      offFirst();
      await store.publish(channel, "cancel task-2");
      await expect.poll(() => second, { timeout: 10_000 }).toEqual(["cancel task-1", "cancel task-2"]);
      expect(first).toEqual(["cancel task-1"]);
      expect(elsewhere).toEqual([]);
      offSecond();
      offElsewhere();
    });

    it("files a private text under one key, another text under another", async () => {
      const key = store.key("alice\u0000conv-1\u0000token-xyz");
      expect(store.key("alice\u0000conv-1\u0000token-xyz")).toBe(key);
      expect(store.key("bob\u0000conv-1\u0000token-xyz")).not.toBe(key);
      await store.set(`confirm:${k(key)}`, "{}", LONG_TTL_MS);
      expect(await store.get(`confirm:${k(key)}`)).toBe("{}");
    });

    it("reports where its data is: its backend answers", () => {
      const status = store.status();
      expect(status.state).toBe("ok");
      expect(status.driver).toMatch(/\w+/);
    });
  });
};
