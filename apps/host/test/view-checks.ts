/// <reference lib="dom" />
// The checks the views' browser tests make of a view's frame (the functions given to evaluate run
// in the browser): axe-core's serious violations, and the pixels of a screenshot in pLDDT colours.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Frame, Page } from "playwright-core";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
// AlphaFold DB's band colours (very high, confident, low, very low), as RGB.
export const BAND_RGB = [
  [0x00, 0x53, 0xd6],
  [0x65, 0xcb, 0xf3],
  [0xff, 0xdb, 0x13],
  [0xff, 0x7d, 0x45],
] as const;

/** axe-core's serious and critical violations in the frame, as "rule: nodes" lines. */
export const seriousViolations = async (frame: Frame): Promise<string[]> => {
  await frame.evaluate(AXE);
  return frame.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: () => Promise<{ violations: any[] }> } }).axe;
    const r = await axe.run();
    return r.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map(
        (v) =>
          `${v.id} (${v.impact}): ${v.nodes.map((n: { target: string[] }) => n.target.join(" ")).join(", ")}`,
      );
  });
};

/** How many pixels of the PNG are near each pLDDT band's colour (counted in the browser's own decoder). */
export const bandPixels = (page: Page, png: Buffer) =>
  page.evaluate(
    async ({ b64, bands }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const canvas = Object.assign(document.createElement("canvas"), {
        width: img.width,
        height: img.height,
      });
      const ctx = canvas.getContext("2d")!;
      ctx.drawImage(img, 0, 0);
      const { data } = ctx.getImageData(0, 0, img.width, img.height);
      const counts = bands.map(() => 0);
      let drawn = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
        if (r > 245 && g > 245 && b > 245) continue;
        drawn++;
        // Shading scales a colour: compare chromaticity (the colour's direction), not brightness.
        const n = Math.hypot(r, g, b) || 1;
        bands.forEach(([br = 0, bg = 0, bb = 0], k) => {
          const m = Math.hypot(br, bg, bb);
          const cos = (r * br + g * bg + b * bb) / (n * m);
          if (cos > 0.995) counts[k]!++;
        });
      }
      return { drawn, counts };
    },
    { b64: png.toString("base64"), bands: BAND_RGB.map((c) => [...c]) },
  );
