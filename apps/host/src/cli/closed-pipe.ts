/**
 * Ends the process quietly when the reader of stdout goes away (`quiver list | head -3`): the rest of
 * the output has nowhere to go, as with any Unix filter. Without it Node throws EPIPE from the next
 * write as an unhandled 'error' event, with a stack trace on stderr and exit code 1.
 */
export const exitOnClosedPipe = (stream: NodeJS.WriteStream = process.stdout): void => {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
};
