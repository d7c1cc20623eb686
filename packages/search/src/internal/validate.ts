import type { MetadataValue, SearchDocument } from "../types.js";
import { dateKey } from "./dates.js";

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

function isMetadataValue(value: unknown): value is MetadataValue {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    default:
      return isStringArray(value);
  }
}

/** Returns why a document cannot be indexed, or `undefined` when it can. */
export function documentProblem(doc: unknown): string | undefined {
  if (typeof doc !== "object" || doc === null) return "is not an object";
  const d = doc as Partial<Record<keyof SearchDocument, unknown>>;
  if (typeof d.id !== "string" || d.id.length === 0) return "needs a non-empty string id";
  if (typeof d.text !== "string") return "needs a string text";
  if (d.title !== undefined && typeof d.title !== "string") return "has a title that is not a string";
  if (d.doi !== undefined && typeof d.doi !== "string") return "has a doi that is not a string";
  if (d.authors !== undefined && !isStringArray(d.authors))
    return "has authors that are not a list of strings";
  if (d.tags !== undefined && !isStringArray(d.tags)) return "has tags that are not a list of strings";
  if (d.date !== undefined && (typeof d.date !== "string" || dateKey(d.date) === undefined)) {
    return `has a date that is not ISO 8601 (YYYY, YYYY-MM or YYYY-MM-DD): ${String(d.date)}`;
  }
  if (d.metadata !== undefined) {
    if (typeof d.metadata !== "object" || d.metadata === null || Array.isArray(d.metadata)) {
      return "has metadata that is not an object";
    }
    for (const [key, value] of Object.entries(d.metadata)) {
      if (!isMetadataValue(value)) {
        return `has metadata.${key} that is not a string, finite number, boolean or list of strings`;
      }
    }
  }
  return undefined;
}

/** Checks a collection name. */
export function collectionProblem(name: unknown): string | undefined {
  if (typeof name !== "string" || name.length === 0) return "collection must be a non-empty string";
  return undefined;
}
