import { fail } from "@quiver/core";
import { SearchError } from "@quiver/search/errors";

/** A search-package error as a tool failure: bad options are invalid input; nothing else leaks details. */
export const fromSearchError = (e: unknown): never => {
  if (SearchError.isInstance(e) && e.code === "invalid_option") {
    throw fail.invalidInput(e.message.replace(/\bdateFrom\b/, "date_from").replace(/\bdateTo\b/, "date_to"), {
      suggestion: "Correct the filter and call again.",
    });
  }
  throw fail.internal(
    "The repository index could not be read; ask the operator to check the repository folder.",
    {
      cause: e,
      retryable: false,
    },
  );
};
