import { useEffect, useMemo } from "preact/hooks";
import type { ResourceContents } from "./api";

const isJson = (mimeType: string | undefined) => /^application\/(.+\+)?json\b/.test(mimeType ?? "");

/** JSON pretty-printed when it parses, else the text as it came. */
const prettyJson = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

/** A byte count in words: 812 bytes, 3.4 KiB, 1.2 MiB. */
export const sizeText = (bytes: number) =>
  bytes < 1024
    ? `${bytes} byte${bytes === 1 ? "" : "s"}`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The file name a download gets: the URI's last segment, else "resource". */
const fileName = (uri: string) => decodeURIComponent(uri.split(/[/:]/).filter(Boolean).at(-1) ?? "resource");

/** A binary part: its size and type, and a link that downloads its bytes. */
const Binary = (props: { part: Extract<ResourceContents, { blob: string }> }) => {
  const { part } = props;
  const bytes = useMemo(() => Uint8Array.from(atob(part.blob), (c) => c.charCodeAt(0)), [part.blob]);
  const href = useMemo(
    () => URL.createObjectURL(new Blob([bytes], { type: part.mimeType ?? "application/octet-stream" })),
    [bytes, part.mimeType],
  );
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  return (
    <p data-binary>
      Binary, <span data-size>{sizeText(bytes.length)}</span>
      {part.mimeType ? ` (${part.mimeType})` : ""}.{" "}
      <a href={href} download={fileName(part.uri)}>
        Download {fileName(part.uri)}
      </a>
    </p>
  );
};

/** One read's contents: text as it is, JSON pretty-printed, binary as its size and a download link. */
export const ResourceContentsView = (props: { contents: ReadonlyArray<ResourceContents> }) => (
  <>
    {props.contents.map((part, i) => (
      <div key={`${part.uri}-${i}`} class="resource-part">
        <p class="muted">
          <code>{part.uri}</code>
          {part.mimeType ? ` · ${part.mimeType}` : ""}
        </p>
        {"blob" in part ? (
          <Binary part={part} />
        ) : (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe: scrollable-region-focusable)
          <pre tabIndex={0} data-resource-text>
            {isJson(part.mimeType) ? prettyJson(part.text) : part.text}
          </pre>
        )}
      </div>
    ))}
  </>
);
