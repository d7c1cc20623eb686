import { fail, type PluginResourceTemplate } from "@quiver/core";
import type { FdaConfig } from "./config.js";
import type { OpenFdaClient } from "./internal/openfda-client.js";

/** An SPL set id: a UUID, as openFDA's `set_id` and `openfda.spl_set_id` hold them. */
const SET_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `fda://label/{set_id}`: a drug's full label (every section openFDA holds: indications, dosage, warnings,
 * adverse reactions ...) as openFDA's JSON record, fetched through the plugin's openFDA client. The search
 * tool's matches name it as `label_uri`.
 */
export const labelResource: PluginResourceTemplate<FdaConfig, OpenFdaClient> = {
  uriTemplate: "fda://label/{set_id}",
  name: "label",
  title: "FDA drug label",
  description:
    "The full FDA drug label (openFDA /drug/label.json record: every section of the label) by its SPL set id, the label_uri of an fda_search_drugs match.",
  mimeType: "application/json",
  read: async (uri, { set_id: setId = "" }, ctx) => {
    if (!SET_ID.test(setId)) {
      const message = `"${setId.slice(0, 60)}" is not an SPL set id: expected a UUID such as 0000025c-6dbf-4af7-a741-5cbacaed519a.`;
      throw fail.invalidInput(message, { suggestion: "Use the label_uri of an fda_search_drugs match." });
    }
    // `set_id` is a keyword field: the search matches the exact id, and openFDA sends the record whole.
    const query = { endpoint: "label", search: `set_id:"${setId.toLowerCase()}"` } as const;
    const [label] = (await ctx.resources.search(query, 1, ctx.signal)).results;
    return label ? [{ uri, mimeType: "application/json", text: JSON.stringify(label) }] : [];
  },
};
