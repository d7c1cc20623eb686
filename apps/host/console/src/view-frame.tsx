import { useEffect, useRef, useState } from "preact/hooks";
import type { ViewCall } from "./view-bridge";

/**
 * A tool result shown in its MCP Apps view: the view's page (`GET /views?uri=`, under the CSP its
 * resource declares) in a sandboxed frame (scripts only: no same origin, no forms, no popups), fed
 * with the call through the official bridge, loaded from its own chunk when first shown.
 */
export const ViewFrame = (props: { uri: string; tool: string; call: ViewCall }) => {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(600);
  const [error, setError] = useState<string | undefined>();
  const [context, setContext] = useState<string | undefined>();

  useEffect(() => {
    let close: (() => void) | undefined;
    let live = true;
    setError(undefined);
    setContext(undefined);
    import("./view-bridge")
      .then(({ mountView }) =>
        mountView(frame.current!, `/views?uri=${encodeURIComponent(props.uri)}`, props.call, {
          resized: (h) => live && setHeight(Math.ceil(h) + 2),
          contextUpdated: (text) => live && setContext(text),
        }),
      )
      .then(
        (c) => {
          if (!live) return c();
          close = c;
          // Brought into sight: a browser throttles a frame out of view (its animation frames stop).
          frame.current?.scrollIntoView({ block: "nearest" });
        },
        (e: Error) => live && setError(e.message),
      );
    return () => {
      live = false;
      close?.();
    };
  }, [props.uri, props.call]);

  return (
    <section aria-labelledby="view-title" class="view">
      <h3 id="view-title">
        View <code>{props.uri}</code>
      </h3>
      {error && <p role="alert">The view could not be shown: {error}</p>}
      <iframe
        ref={frame}
        title={`${props.tool} result view`}
        sandbox="allow-scripts"
        referrerpolicy="no-referrer"
        style={{ height: `${height}px` }}
        data-view={props.uri}
      />
      {context && (
        <p class="muted" aria-live="polite">
          The view told the model: {context}
        </p>
      )}
    </section>
  );
};
