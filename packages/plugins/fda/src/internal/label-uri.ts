/** The template of a drug's full label, by its SPL set id (the plugin's resource template). */
export const LABEL_TEMPLATE = "fda://label/{set_id}";

/** The URI of the full label with this SPL set id. */
export const labelUri = (setId: string): string => `fda://label/${encodeURIComponent(setId)}`;
