/**
 * A 2026-07-28 `subscriptions/listen` request with its `resourceSubscriptions` cut to the URIs the
 * caller can read (`canRead`, a `resources/read` as that caller), as `resources/subscribe` checks
 * them in 2025-11-25. By hand because the SDK's listen router filters change events by URI alone:
 * without this, bob listening on alice's document would learn when it changes. What is cut is left
 * out of the server's acknowledgement (the client's `honoredFilter`); any other body passes as it came.
 */
export const readableSubscriptions = async (
  body: unknown,
  canRead: (uri: string) => Promise<boolean>,
): Promise<unknown> => {
  const request = body as {
    method?: unknown;
    params?: { notifications?: { resourceSubscriptions?: unknown } };
  } | null;
  const uris =
    request?.method === "subscriptions/listen" && request.params?.notifications?.resourceSubscriptions;
  if (!Array.isArray(uris) || uris.length === 0) return body;
  const readable = await Promise.all(uris.map((uri) => (typeof uri === "string" ? canRead(uri) : false)));
  const params = request!.params!;
  return {
    ...request,
    params: {
      ...params,
      notifications: { ...params.notifications, resourceSubscriptions: uris.filter((_, i) => readable[i]) },
    },
  };
};
