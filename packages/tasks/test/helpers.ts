/** Resolves once `predicate` holds, checked every `step` ms; rejects after `ms` (a wait, not a timing assertion). */
export const eventually = async (
  predicate: () => boolean | Promise<boolean>,
  ms = 10_000,
  step = 10,
): Promise<void> => {
  const until = Date.now() + ms;
  for (;;) {
    if (await predicate()) return;
    if (Date.now() > until) throw new Error("the condition never held");
    await new Promise((r) => setTimeout(r, step));
  }
};

/** The parts of an envelope that two runs of one call share (not its call id or duration). */
export const essence = (e: { status: string; data?: unknown; message: string; error?: unknown }) => ({
  status: e.status,
  data: e.data,
  message: e.message,
  error: e.error,
});
