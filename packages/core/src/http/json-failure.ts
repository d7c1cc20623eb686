import type { z } from "zod";
import { fail } from "../errors.js";
import type { Redactor } from "./redact.js";

/** A response body the client was asked to read as JSON, and enough context for a clear failure. */
export interface JsonBody {
  readonly body: string;
  readonly contentType: string | undefined;
  readonly status: number;
  /** The service name used in messages. */
  readonly service: string;
  /** `METHOD url`, already redacted. */
  readonly where: string;
  readonly redact: Redactor;
}

const HTML = /^\s*(?:<!doctype html|<html|<head|<body)/i;
const MAX_ISSUES = 3;

const htmlTitle = (body: string): string | undefined => {
  const title = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(body)?.[1]?.replace(/\s+/g, " ").trim();
  return title === "" ? undefined : title;
};

/**
 * The `upstream` failure of a body that is not JSON: an HTML page (a maintenance page, a bot
 * challenge) or an XML body is not retryable; an empty body or invalid JSON (`parseError`) is.
 * Failures carry `status`.
 */
export const notJsonFailure = (input: JsonBody, parseError?: unknown) => {
  const { body, status, service, where, redact } = input;
  const contentType = input.contentType?.toLowerCase() ?? "";
  const isJsonType = /[/+]json\b/.test(contentType);
  const upstream = (message: string, retryable: boolean, suggestion: string) =>
    fail.upstream(redact(message), { status, retryable, suggestion });
  if (!isJsonType && (/html/.test(contentType) || HTML.test(body))) {
    const title = htmlTitle(body);
    return upstream(
      `${service} returned an HTML page instead of JSON (HTTP ${status}` +
        (title === undefined ? ")" : `, "${title}")`) +
        ` for ${where}`,
      false,
      "The service may be down for maintenance or blocking automated clients; try another source.",
    );
  }
  if (!isJsonType && /xml/.test(contentType)) {
    return upstream(
      `${service} returned XML instead of JSON (HTTP ${status}) for ${where}`,
      false,
      "The service answered in a format the tool does not read; try another source.",
    );
  }
  if (body.trim() === "") {
    return upstream(
      `${service} returned an empty body instead of JSON (HTTP ${status}) for ${where}`,
      true,
      "The service answered with nothing; try again in a moment. An empty answer is not a result.",
    );
  }
  const reason = parseError instanceof Error ? `: ${parseError.message}` : "";
  return upstream(
    `${service} returned invalid JSON (HTTP ${status}) for ${where}${reason}`,
    true,
    "The response was broken or cut short; try again in a moment.",
  );
};

/** The `upstream` failure (not retryable) of JSON that does not match the schema, naming its first issues. */
export const shapeFailure = (input: JsonBody, issues: ReadonlyArray<z.core.$ZodIssue>) => {
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.map(String).join(".");
    return path === "" ? issue.message : `${path}: ${issue.message}`;
  });
  const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more)` : "";
  return fail.upstream(
    input.redact(
      `${input.service} returned data in an unexpected shape for ${input.where}: ${shown.join("; ")}${more}`,
    ),
    {
      status: input.status,
      retryable: false,
      suggestion: "The upstream API may have changed; report this to the plugin's maintainers.",
    },
  );
};
