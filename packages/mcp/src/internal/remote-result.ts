import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
} from "@modelcontextprotocol/client";
import { fail, statusToKind, type ToolFailure } from "@quiver/core";
import {
  type BridgeConnection,
  errorMessage,
  type RemoteCallResult,
  redact,
  unreachable,
} from "./bridge-connection.js";

type Block = { type: string; text?: string; [k: string]: unknown };

const textOf = (content: ReadonlyArray<Block>): string =>
  content
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("\n");

/**
 * A remote result as run output: the structured content when the tool declared an output schema,
 * else its text and its other content blocks. A result with `isError` is a ToolFailure of kind
 * `upstream` carrying the remote's text (not retried: a remote tool error is an answer, not a blip).
 */
export const dataFromRemote = (
  result: RemoteCallResult,
  structured: boolean,
  tool: string,
  server: string,
): unknown => {
  const content = (result.content ?? []) as ReadonlyArray<Block>;
  if (result.isError) {
    const text = textOf(content) || "no details given";
    throw fail.upstream(`${tool} on the MCP server "${server}" reported an error: ${text}`, {
      retryable: false,
    });
  }
  if (structured) return result.structuredContent;
  return { text: textOf(content), content: content.filter((b) => b.type !== "text") };
};

/** Any error of a remote call as a ToolFailure of the right kind. */
export const failureFromError = (
  error: unknown,
  tool: string,
  id: string,
  conn: BridgeConnection,
): ToolFailure => {
  const message = redact(errorMessage(error), conn.secrets);
  if (error instanceof SdkHttpError) {
    if (error.status === 404) return unreachable(id, conn, error);
    const kind = statusToKind(error.status) ?? "upstream";
    return fail[kindToFactory[kind] ?? "upstream"](
      `${tool} on the MCP server "${id}" answered HTTP ${error.status}: ${message}`,
      {
        status: error.status,
        cause: error,
      },
    );
  }
  if (error instanceof ProtocolError) {
    if (error.code === ProtocolErrorCode.InvalidParams) {
      return fail.invalidInput(`${tool} rejected its arguments: ${message}`, {
        suggestion: "Check the arguments against the tool's input schema.",
      });
    }
    return fail.upstream(`${tool} on the MCP server "${id}" failed: ${message}`, {
      retryable: false,
      cause: error,
    });
  }
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.RequestTimeout:
        return fail.timeout(`${tool} on the MCP server "${id}" did not answer in time.`, { cause: error });
      case SdkErrorCode.ConnectionClosed:
      case SdkErrorCode.SendFailed:
      case SdkErrorCode.NotConnected:
        return unreachable(id, conn, error);
      default:
        return fail.upstream(`${tool} on the MCP server "${id}" failed: ${message}`, {
          retryable: false,
          cause: error,
        });
    }
  }
  if (error instanceof Error && error.name === "UnauthorizedError") {
    return fail.accessDenied(`The MCP server "${id}" refused the credentials: ${message}`, {
      suggestion: "Check the Authorization header configured for this bridge.",
    });
  }
  // fetch failures (connection refused, DNS) and spawn failures
  return unreachable(id, conn, error);
};

const kindToFactory: Partial<Record<string, keyof typeof fail>> = {
  invalid_input: "invalidInput",
  access_denied: "accessDenied",
  rate_limited: "rateLimited",
  timeout: "timeout",
  unavailable: "unavailable",
  upstream: "upstream",
};
