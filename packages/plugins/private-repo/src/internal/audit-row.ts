import type { AuditEntry, AuditInput } from "./repository.js";

/** An audit row as both databases store it. */
export type AuditRow = Omit<AuditEntry, "clientId" | "id"> & {
  readonly id: number | string;
  readonly client_id: string | null;
};

/** An audit row as the API names its fields. */
export const fromAuditRow = ({ client_id, id, ...rest }: AuditRow): AuditEntry => ({
  ...rest,
  id: Number(id),
  clientId: client_id ?? null,
});

/** An audit entry's column values, stamped now, in the order both stores' INSERTs list them. */
export const auditValues = (entry: AuditInput): Array<string | null> => [
  new Date().toISOString(),
  entry.principal,
  entry.action,
  entry.target,
  entry.outcome,
  entry.detail,
  entry.clientId ?? null,
];
