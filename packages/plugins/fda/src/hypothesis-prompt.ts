import type { Completer, PluginPrompt } from "@quiver/core";
import type { FdaConfig } from "./config.js";
import type { OpenFdaClient } from "./internal/openfda-client.js";

/** How long the pharmacologic classes read from openFDA are reused (openFDA updates weekly). */
const CLASSES_TTL_MS = 60 * 60 * 1000;
/** The openFDA field counted for the classes: FDA Established Pharmacologic Classes, whole values. */
const CLASS_FIELD = "openfda.pharm_class_epc.exact";

/** The classes each client read last, and when: one count request serves an hour of completions. */
const classesRead = new WeakMap<OpenFdaClient, { at: number; classes: Promise<string[]> }>();

/**
 * Completes `pharmacologic_class` from openFDA's established pharmacologic classes of approved drugs
 * (Drugs@FDA applications, without "[EPC]"): those whose name, or one of its words, starts with what
 * was typed (case-insensitive), the classes of most applications first.
 */
const completeClass: Completer<FdaConfig, OpenFdaClient> = async (typed, { resources: client, signal }) => {
  let kept = classesRead.get(client);
  if (!kept || Date.now() - kept.at >= CLASSES_TTL_MS) {
    const classes = client
      .count({ endpoint: "drugsfda" }, CLASS_FIELD, 1000, signal)
      .then(({ buckets }) => [...new Set(buckets.map((b) => b.term.replace(/\s*\[EPC\]$/, "")))]);
    kept = { at: Date.now(), classes };
    classesRead.set(client, kept);
    // A failed read is not kept: the next completion asks again.
    classes.catch(() => classesRead.delete(client));
  }
  const t = typed.trim().toLowerCase();
  const starts = (w: string) => w.toLowerCase().startsWith(t);
  return (await kept.classes).filter((c) => starts(c) || c.split(/[\s-]+/).some(starts));
};

/**
 * The `check_hypothesis` prompt (AI co-scientist): check a research hypothesis against FDA-approved
 * drugs. The model searches with `fda_count_drugs` and `fda_search_drugs` by condition and class, reads
 * the full labels of the relevant matches (`fda://label/{set_id}`), and says whether approved drugs
 * support, contradict or leave open the hypothesis, citing each.
 */
export const hypothesisPrompt: PluginPrompt<FdaConfig, OpenFdaClient> = {
  name: "check_hypothesis",
  title: "Check a hypothesis against approved drugs",
  description:
    "Check a research hypothesis against FDA-approved drugs: what is approved for the condition or in the drug class, what their labels say, and whether it supports, contradicts or leaves open the hypothesis.",
  arguments: [
    {
      name: "hypothesis",
      description:
        "The hypothesis, e.g. 'Inhibiting the BCR-ABL kinase controls chronic myeloid leukemia in patients resistant to imatinib'",
      required: true,
    },
    {
      name: "condition",
      description:
        "Disease or condition it is about, searched in the labels' indications, e.g. 'chronic myeloid leukemia'",
    },
    {
      name: "pharmacologic_class",
      description:
        "Drug class or mechanism it is about, e.g. 'Kinase Inhibitor'; completes from openFDA's pharmacologic classes",
      complete: completeClass,
    },
  ],
  get: ({ hypothesis, condition, pharmacologic_class: drugClass }) => {
    // JSON leaves out an argument not given.
    const criteria = { indication: condition || undefined, pharmacologic_class: drugClass || undefined };
    const search =
      condition || drugClass
        ? `Call fda_count_drugs and then fda_search_drugs with search_criteria ${JSON.stringify(criteria)}; if nothing matches, loosen it (one criterion at a time) and say what you searched.`
        : "Choose search_criteria from it (the condition as indication, the drug class as pharmacologic_class, a named drug as active_ingredient), call fda_count_drugs to size the search, then fda_search_drugs.";
    const text = [
      `Check this hypothesis against FDA-approved drugs: ${hypothesis}`,
      `1. ${search}`,
      "2. For the matches most relevant to the hypothesis (at most five), read the full label at metadata.label_uris[i] (an fda://label/{set_id} resource): its indications_and_usage, mechanism_of_action, clinical_studies and warnings sections.",
      "3. Answer whether approved drugs support, contradict or leave open the hypothesis, and what in it is new beside them. Cite each drug by brand and generic name, application number and label URI. Say whether the search was complete (fully_searched) and every constraint met (unmet_constraints); openFDA data are unvalidated and not medical advice.",
    ].join("\n");
    return [{ role: "user", content: { type: "text", text } }];
  },
};
