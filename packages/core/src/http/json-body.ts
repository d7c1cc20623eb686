import type { z } from "zod";
import { fail } from "../errors.js";
import type { Redactor } from "./redact.js";

/** What {@link parseJsonBody} needs: the read body and enough context for a clear failure. */
export interface JsonBodyInput<T> {
  readonly body: string;
  readonly contentType: string | undefined;
  readonly status: number;
  /** The service name used in messages. */
  readonly service: string;
  /** `METHOD url`, already redacted. */
  readonly where: string;
  readonly redact: Redactor;
  readonly schema?: z.ZodType<T> | undefined;
}

const HTML = /^\s*(?:<!doctype html|<html|<head|<body)/i;
const MAX_ISSUES = 3;

const htmlTitle = (body: string): string | undefined => {
  const title = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(body)?.[1]?.replace(/\s+/g, " ").trim();
  return title === "" ? undefined : title;
};

const formatIssues = (issues: ReadonlyArray<z.core.$ZodIssue>): string => {
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.map(String).join(".");
    return path === "" ? issue.message : `${path}: ${issue.message}`;
  });
  const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more)` : "";
  return shown.join("; ") + more;
};

/**
 * Parses a response body as JSON and validates it with `schema` when given. An HTML page (a
 * maintenance page, a bot challenge) or an XML body is an `upstream` failure that is not
 * retryable; an empty body or invalid JSON is a retryable `upstream` failure; a schema mismatch
 * is an `upstream` failure naming the first issues, not retryable. Failures carry `status`.
 *
 * @example
 * const drug = parseJsonBody({
 *   body: '{"id":"a1"}', contentType: "application/json", status: 200, service: "openFDA",
 *   where: "GET /drug/label.json", redact: makeRedactor([]), schema: z.object({ id: z.string() }),
 * })
 */
export const parseJsonBody = <T = unknown>(input: JsonBodyInput<T>): T => {
  const { body, status, service, where, redact } = input;
  const contentType = input.contentType?.toLowerCase() ?? "";
  const isJsonType = /[/+]json\b/.test(contentType);
  if (!isJsonType && (/html/.test(contentType) || HTML.test(body))) {
    const title = htmlTitle(body);
    throw fail.upstream(
      redact(
        `${service} returned an HTML page instead of JSON (HTTP ${status}` +
          (title === undefined ? ")" : `, "${title}")`) +
          ` for ${where}`,
      ),
      {
        status,
        retryable: false,
        suggestion:
          "The service may be down for maintenance or blocking automated clients; try another source.",
      },
    );
  }
  if (!isJsonType && /xml/.test(contentType)) {
    throw fail.upstream(redact(`${service} returned XML instead of JSON (HTTP ${status}) for ${where}`), {
      status,
      retryable: false,
      suggestion: "The service answered in a format the tool does not read; try another source.",
    });
  }
  if (body.trim() === "") {
    throw fail.upstream(
      redact(`${service} returned an empty body instead of JSON (HTTP ${status}) for ${where}`),
      {
        status,
        suggestion:
          "The service answered with nothing; try again in a moment. An empty answer is not a result.",
      },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    const reason = error instanceof Error ? `: ${error.message}` : "";
    throw fail.upstream(redact(`${service} returned invalid JSON (HTTP ${status}) for ${where}${reason}`), {
      status,
      retryable: true,
      suggestion: "The response was broken or cut short; try again in a moment.",
    });
  }
  if (input.schema === undefined) return parsed as T;
  const result = input.schema.safeParse(parsed);
  if (result.success) return result.data;
  throw fail.upstream(
    redact(
      `${service} returned data in an unexpected shape for ${where}: ${formatIssues(result.error.issues)}`,
    ),
    {
      status,
      retryable: false,
      suggestion: "The upstream API may have changed; report this to the plugin's maintainers.",
    },
  );
};
