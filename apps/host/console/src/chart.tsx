import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";

/** One line of a chart. */
export interface Line {
  label: string;
  values: (number | null)[];
  color: string;
  /** Draw as steps (states), not a line. */
  stepped?: boolean;
}

const COLORS = ["#2563eb", "#d97706", "#dc2626", "#059669", "#7c3aed", "#db2777"];

/** A colour for the n-th line. */
export const colorAt = (n: number): string => COLORS[n % COLORS.length] ?? "#2563eb";

/**
 * A uPlot time-series chart, drawn on a canvas; its `summary` is the text alternative (what a
 * screen reader reads, and the latest figures for everyone). Recreated when its lines change.
 */
export const Chart = (props: {
  title: string;
  times: number[];
  lines: Line[];
  summary: string;
  yRange?: [number, number];
  formatY?: (v: number) => string;
}) => {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const shape = props.lines.map((l) => l.label).join("|");

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const { yRange, formatY } = props;
    const stepped = uPlot.paths.stepped?.({ align: 1 });
    plot.current = new uPlot(
      {
        width: Math.max(240, el.clientWidth),
        height: 150,
        legend: { show: true, live: false },
        cursor: { show: false },
        scales: {
          // At least the last 10 seconds, so the first points do not fill the width.
          x: {
            time: true,
            range: (u) => {
              const xs = u.data[0] ?? [];
              const last = xs[xs.length - 1] ?? Date.now() / 1000;
              return [Math.min(xs[0] ?? last, last - 10), last];
            },
          },
          y: yRange ? { range: yRange } : { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        axes: [
          { stroke: "currentColor", grid: { stroke: "rgba(128,128,128,0.2)" }, size: 30 },
          {
            stroke: "currentColor",
            grid: { stroke: "rgba(128,128,128,0.2)" },
            size: formatY ? 76 : 46,
            ...(formatY
              ? { splits: () => [0, 1, 2], values: (_u: uPlot, vals: number[]) => vals.map(formatY) }
              : {}),
          },
        ],
        series: [
          {},
          ...props.lines.map((l) => ({
            label: l.label,
            stroke: l.color,
            width: 2,
            ...(l.stepped && stepped ? { paths: stepped } : {}),
          })),
        ],
      },
      [props.times, ...props.lines.map((l) => l.values)] as uPlot.AlignedData,
      el,
    );
    const resize = new ResizeObserver(() =>
      plot.current?.setSize({ width: Math.max(240, el.clientWidth), height: 150 }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
    // The chart is rebuilt only when its set of lines changes (shape); data updates go through setData.
  }, [shape]);

  useEffect(() => {
    plot.current?.setData([props.times, ...props.lines.map((l) => l.values)] as uPlot.AlignedData);
  });

  return (
    <figure class="chart" data-chart={props.title}>
      <figcaption>
        <strong>{props.title}</strong> <span class="chart-summary">{props.summary}</span>
      </figcaption>
      <div ref={box} role="img" aria-label={`${props.title}: ${props.summary}`} />
    </figure>
  );
};
