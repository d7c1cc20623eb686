import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import { api, type ResourceRead } from "./api";

// The console as an MCP Apps host: the official AppBridge, connected to a view's sandboxed frame.
// Loaded only when a result has a view to show (its own chunk: the bridge is not in the page's
// first load). The view's tool calls and resource reads go to the host's HTTP API with the tab's
// token, the same routes the console's own forms use.

/** A call to show in a view: the tool's input and its result as MCP's tools/call answers it. */
export interface ViewCall {
  readonly input: Record<string, unknown>;
  readonly result: Record<string, unknown>;
}

/** What the console hears from a mounted view. */
export interface ViewEvents {
  /** The height the view's content needs (it resizes to its content). */
  readonly resized: (height: number) => void;
  /** The view updated what the model knows of the result (a refinement). */
  readonly contextUpdated: (text: string) => void;
}

/**
 * Connects a bridge to `frame` (before its page loads, so the view's initialize request finds it
 * listening), then loads the view page at `src` and, once it has initialized, sends it the call's
 * input and result. Answers how to close the bridge.
 */
export const mountView = async (
  frame: HTMLIFrameElement,
  src: string,
  call: ViewCall,
  events: ViewEvents,
): Promise<() => void> => {
  const bridge = new AppBridge(
    null,
    { name: "quiver-console", version: "1.0.0" },
    {
      serverTools: {},
      serverResources: {},
      openLinks: {},
      updateModelContext: { text: {}, structuredContent: {} },
    },
  );
  bridge.oncalltool = ({ name, arguments: args }) =>
    api(`/tools/${encodeURIComponent(name)}/call?result=mcp`, { method: "POST", body: args ?? {} });
  bridge.onreadresource = async ({ uri }) => {
    const read = await api<ResourceRead>(`/resources?uri=${encodeURIComponent(uri)}`);
    return { contents: read.contents } as never;
  };
  bridge.onopenlink = async ({ url }) => {
    // Only web links, in a new tab that cannot reach back to the console.
    if (/^https?:\/\//.test(url)) window.open(url, "_blank", "noopener,noreferrer");
    return {};
  };
  bridge.onupdatemodelcontext = async ({ content }) => {
    const text = (content ?? []).map((c) => ("text" in c ? c.text : "")).join(" ");
    events.contextUpdated(text);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height) events.resized(height);
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  frame.src = src;
  await initialized;
  await bridge.sendToolInput({ arguments: call.input });
  await bridge.sendToolResult(call.result as never);
  return () => void bridge.close();
};
