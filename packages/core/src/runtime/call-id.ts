import { randomUUID } from "node:crypto";

const PROCESS = randomUUID().slice(0, 13);
let sequence = 0;

/**
 * A call's id: unique in this process (a counter) and across processes (a random prefix drawn once),
 * in the shape of a UUID's first groups. Not a random UUID per call: that costs as much as a policy,
 * and nothing needs a call id to be unguessable.
 */
export const nextCallId = (): string => `${PROCESS}-${(++sequence).toString(36).padStart(6, "0")}`;
