import { outcome } from "@quiver/core";

/**
 * A tool's answer: `data` with `query_constraints_met` and `unmet_constraints` (the criteria not applied
 * exactly); partial when there are any, `note` then ending the message, since the data may not satisfy them.
 */
export const answer = <T extends object>(
  data: T,
  unmet: string[],
  {
    message,
    note,
    ...info
  }: { message: string; note: string; source: string; metadata: Readonly<Record<string, unknown>> },
) => {
  const met = unmet.length === 0;
  const full = { ...data, query_constraints_met: met, unmet_constraints: unmet };
  return outcome(full, { ...info, partial: !met, message: met ? message : `${message} ${note}` });
};
