import { outcome } from "@quiver/core";
import { type Criteria, unappliedCriteria } from "./criteria.js";

/**
 * A tool's answer: `data` with `query_constraints_met` and `unmet_constraints` (the criteria openFDA
 * cannot filter on, then `unmet`); partial when there are any, the message then saying so, since the
 * data may not satisfy them.
 */
export const answer = <T extends object>(
  data: T,
  c: Criteria,
  unmet: ReadonlyArray<string>,
  { message, ...info }: { message: string; source: string; metadata: Readonly<Record<string, unknown>> },
) => {
  const unmet_constraints = [...unappliedCriteria(c), ...unmet];
  const met = unmet_constraints.length === 0;
  return outcome(
    { ...data, query_constraints_met: met, unmet_constraints },
    {
      ...info,
      partial: !met,
      message: met ? message : `${message} Not every criterion was applied exactly: see unmet_constraints.`,
    },
  );
};
