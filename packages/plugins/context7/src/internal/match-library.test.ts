import { describe, expect, it } from "vitest";
import type { LibraryMatch } from "./docs-client.js";
import { closest, LIBRARY_ID, looserNames, nameScore, pickLibrary } from "./match-library.js";

const lib = (id: string, title: string, state?: string): LibraryMatch => ({
  id,
  title,
  ...(state ? { state } : {}),
});
const next = lib("/vercel/next.js", "Next.js");
const react = lib("/facebook/react", "React");
const native = lib("/facebook/react-native", "React Native");
const mui = lib("/mui/material-ui", "Material UI");

describe("matching a requested name to Context7 libraries", () => {
  it("scores equal names 1 whatever the punctuation, and unrelated names low", () => {
    expect(nameScore("nextjs", next)).toBe(1);
    expect(nameScore("Next.js", next)).toBe(1);
    expect(nameScore("next-js", next)).toBe(1);
    expect(nameScore("mui", mui)).toBe(1); // the owner segment counts
    expect(nameScore("django", next)).toBeLessThan(0.4);
  });

  it("picks the exact name over a longer one, and finalized over processing", () => {
    expect(pickLibrary("react", [native, react])).toBe(react);
    const processing = lib("/facebook/react", "React", "processing");
    const fork = lib("/someone/react", "React", "finalized");
    expect(pickLibrary("react", [processing, fork])).toBe(fork);
  });

  it("accepts a typo or a short form, refuses a different library", () => {
    expect(pickLibrary("reactt", [react])).toBe(react);
    expect(pickLibrary("next", [next])).toBe(next);
    expect(pickLibrary("flask-security-too", [lib("/pallets/flask", "Flask")])).toBeUndefined();
    expect(pickLibrary("react", [])).toBeUndefined();
  });

  it("orders candidates by closeness for suggestions", () => {
    expect(closest("react-nativ", [next, react, native]).map((l) => l.id)).toEqual([
      "/facebook/react-native",
      "/facebook/react",
      "/vercel/next.js",
    ]);
  });

  it("derives looser names: without version, without scope, the longest word", () => {
    expect(looserNames("@tanstack/react-query v5")).toEqual([
      "@tanstack/react-query",
      "react-query",
      "react",
    ]);
    expect(looserNames("react-hooks-kit v2")).toEqual(["react-hooks-kit", "react"]);
    expect(looserNames("zzqqxx")).toEqual([]);
  });

  it("recognises Context7 library ids", () => {
    for (const id of [
      "/vercel/next.js",
      "/vercel/next.js/v14.3.0-canary.87",
      "/owner/repo@1.2",
      "/websites/uploadcare",
    ]) {
      expect(LIBRARY_ID.test(id), id).toBe(true);
    }
    for (const id of ["next.js", "vercel/next.js", "/vercel", "/a/b/c/d"])
      expect(LIBRARY_ID.test(id), id).toBe(false);
  });
});
