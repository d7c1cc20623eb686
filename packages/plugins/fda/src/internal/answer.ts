import { outcome } from "@quiver/core";
import { type Criteria, unappliedCriteria } from "./criteria.js";

/**
 * A tool's answer: `data` with `query_constraints_met` and `unmet_constraints` (the criteria openFDA
 * cannot filter on, then `unmet`); partial when there are any, `note` then ending the message, since the
 * data may not satisfy them.
 */
export const answer = <T extends object>(
  data: T,
  c: Criteria,
  unmet: ReadonlyArray<string>,
  {
    message,
    note,
    ...info
  }: { message: string; note: string; source: string; metadata: Readonly<Record<string, unknown>> },
) => {
  const unmet_constraints = [...unappliedCriteria(c), ...unmet];
  const met = unmet_constraints.length === 0;
  const full = { ...data, query_constraints_met: met, unmet_constraints };
  return outcome(full, { ...info, partial: !met, message: met ? message : `${message} ${note}` });
};
