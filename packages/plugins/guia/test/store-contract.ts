import { describe, expect, it } from "vitest";
import type { GuideStore } from "../src/index.js";

/** The behaviour every guide store must have; run against the folder store always, MongoDB when a URL is given. */
export const describeStoreContract = (name: string, make: () => Promise<GuideStore>, runIf = true): void => {
  describe.runIf(runIf)(`store contract: ${name}`, () => {
    it("put, list and get round-trip; put again replaces", async () => {
      const store = await make();
      try {
        const subject = `contract_${Date.now().toString(36)}`;
        expect(
          await store.put({
            subject,
            data: { asignatura: "Guía docente de Prueba (999999Z)", evaluación: { a: ["1"] } },
          }),
        ).toBe("created");
        expect((await store.list()).find((l) => l.subject === subject)).toEqual({
          subject,
          name: "Prueba",
          code: "999999Z",
        });
        expect(await store.get(subject)).toEqual({
          subject,
          data: { asignatura: "Guía docente de Prueba (999999Z)", evaluación: { a: ["1"] } },
        });
        expect(await store.put({ subject, data: { asignatura: "Prueba 2", grado: "G" } })).toBe("replaced");
        expect((await store.get(subject))?.data.asignatura).toBe("Prueba 2");
        expect(await store.get("no_such_subject_here")).toBeUndefined();
      } finally {
        await store.close();
      }
    });

    it("rejects operator objects and unsafe ids before any query", async () => {
      const store = await make();
      try {
        for (const bad of [{ $ne: null }, { $gt: "" }, "a.b", "$where", "", "A B", null, 42]) {
          await expect(store.get(bad as never), JSON.stringify(bad)).rejects.toMatchObject({
            kind: "invalid_input",
          });
          await expect(
            store.put({ subject: bad as never, data: { asignatura: "x", y: 1 } }),
          ).rejects.toMatchObject({ kind: "invalid_input" });
        }
      } finally {
        await store.close();
      }
    });
  });
};
