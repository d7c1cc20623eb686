import { describe, expect, it } from "vitest";
import { metaOf, session } from "./support/catalog.js";
import { useOpenFdaEmulator } from "./support/use-openfda-emulator.js";

// The co-scientist's `check_hypothesis` prompt through a real catalog against the openFDA emulator: its
// arguments, its messages (the two tools and the label resource), and its drug class completed from the
// pharmacologic classes openFDA counts on Drugs@FDA (one count request, reused).
const { up, fdaCatalog } = useOpenFdaEmulator();
const CLASS = { prompt: "check_hypothesis", argument: "pharmacologic_class" };
const HYPOTHESIS = "GLP-1 receptor agonism lowers HbA1c in type 2 diabetes independently of weight loss";

const textOf = (answer: unknown) =>
  (answer as { value: { messages: Array<{ content: { text: string } }> } }).value.messages[0]!.content.text;

describe("fda's check_hypothesis prompt", () => {
  it("is listed with its arguments, the class completing", () => {
    expect(fdaCatalog().prompts()).toEqual([
      expect.objectContaining({
        plugin: "fda",
        name: "check_hypothesis",
        title: "Check a hypothesis against approved drugs",
        arguments: [
          expect.objectContaining({ name: "hypothesis", required: true, completes: false }),
          expect.objectContaining({ name: "condition", completes: false }),
          expect.objectContaining({ name: "pharmacologic_class", completes: true }),
        ],
      }),
    ]);
  });

  it("tells the model to search with the given criteria and read the matches' full labels", async () => {
    const catalog = fdaCatalog();
    const got = await catalog.getPrompt(
      "check_hypothesis",
      { hypothesis: HYPOTHESIS, condition: "type 2 diabetes", pharmacologic_class: "GLP-1 Receptor Agonist" },
      session,
    );
    expect(got.ok).toBe(true);
    const text = textOf(got);
    expect(text).toContain(`Check this hypothesis against FDA-approved drugs: ${HYPOTHESIS}`);
    expect(text).toContain(
      'fda_search_drugs with search_criteria {"indication":"type 2 diabetes","pharmacologic_class":"GLP-1 Receptor Agonist"}',
    );
    expect(text).toContain("fda://label/{set_id}");
    expect(text).toContain("metadata.label_uris");
    // The criteria it names are ones the search tool takes: the call it asks for succeeds.
    const search = await catalog.call(
      "fda_search_drugs",
      { search_criteria: { indication: "type 2 diabetes", pharmacologic_class: "GLP-1 Receptor Agonist" } },
      session,
    );
    expect(search.status, search.message).toBe("success");
    const uri = metaOf(search).label_uris[0] as string;
    expect((await catalog.readResource(uri, session)).ok).toBe(true);

    const bare = textOf(await catalog.getPrompt("check_hypothesis", { hypothesis: HYPOTHESIS }, session));
    expect(bare).toContain("Choose search_criteria from it");
    expect(await catalog.getPrompt("check_hypothesis", {}, session)).toMatchObject({
      ok: false,
      kind: "invalid_input",
      message: "check_hypothesis needs hypothesis.",
    });
  });

  it("completes the drug class from openFDA's pharmacologic classes, by name or word", async () => {
    const catalog = fdaCatalog();
    expect(await catalog.complete(CLASS, "", session)).toEqual({
      ok: true,
      value: ["GLP-1 Receptor Agonist", "Glucose-dependent Insulinotropic Polypeptide Receptor Agonist"],
    });
    expect(await catalog.complete(CLASS, "glu", session)).toEqual({
      ok: true,
      value: ["Glucose-dependent Insulinotropic Polypeptide Receptor Agonist"],
    });
    expect(await catalog.complete(CLASS, "Insulinotropic", session)).toEqual({
      ok: true,
      value: ["Glucose-dependent Insulinotropic Polypeptide Receptor Agonist"],
    });
    expect(await catalog.complete(CLASS, "kinase", session)).toEqual({ ok: true, value: [] });
    // One count of Drugs@FDA's classes served every completion.
    const counts = up.requestsTo("GET", "/drug/drugsfda.json").filter((r) => r.query.has("count"));
    expect(counts.map((r) => r.query.get("count"))).toEqual(["openfda.pharm_class_epc.exact"]);
  });
});
