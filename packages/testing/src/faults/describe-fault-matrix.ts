import {
  type AnyPlugin,
  type CallOptions,
  type Catalog,
  type CatalogOptions,
  createCatalog,
  type ToolPolicy,
  type ToolResult,
} from "@quiver/core";
import { describe, expect, it } from "vitest";
import { assertEnvelope } from "../conformance/envelope-schema.js";
import { FAULT_KINDS, type Fault, type FaultKind, type MatrixFaultKind } from "../emulator/faults.js";
import type { PathPattern } from "../emulator/route.js";
import type { Emulator } from "../emulator/start-emulator.js";
import { type FaultExpectation, MATRIX_EXPECTATIONS, MATRIX_FAULTS } from "./fault-matrix-defaults.js";

/** One tool call of the matrix and the upstream request that gets the fault. */
export interface FaultMatrixCall {
  /** The test title (default `<tool> <METHOD> <path>`). */
  readonly name?: string;
  /** The upstream request the fault is put on. */
  readonly method: string;
  readonly path: PathPattern;
  /** The tool to call and its input (a function is called when the test runs). */
  readonly tool: string;
  readonly input: unknown;
  /** What this call ends in, per fault kind, where it differs from the matrix's (a fallback, a partial). */
  readonly expect?: Partial<Record<FaultKind, FaultExpectation>>;
}

/** How the matrix gets its catalog: the caller builds it, or hands over the plugin and its settings. */
export type FaultMatrixTarget =
  | {
      /**
       * A catalog whose plugin points at `up`, built with `catalogOptions` (short timeout, one retry).
       * The caller owns it (closes it); the matrix builds one per case.
       */
      readonly catalog: (up: Emulator, catalogOptions: CatalogOptions) => Catalog | Promise<Catalog>;
    }
  | {
      /** The plugin, or its `create<Name>Plugin` factory (called with the settings). */
      readonly plugin: AnyPlugin | ((settings: Readonly<Record<string, unknown>>) => AnyPlugin);
      /** The settings that point the plugin at `up`, e.g. `{ baseUrl: up.url }`. */
      readonly settings: (up: Emulator) => Readonly<Record<string, unknown>>;
    };

/** What `describeFaultMatrix` runs. */
export type FaultMatrixOptions = FaultMatrixTarget & {
  /** The describe title (default "fault matrix"). */
  readonly name?: string;
  /** The emulator the plugin talks to (started by the caller, e.g. in `beforeAll`); faults are removed after each case. */
  readonly emulator: () => Emulator | Promise<Emulator>;
  /** The calls, each run under every fault kind. */
  readonly calls: ReadonlyArray<FaultMatrixCall>;
  /**
   * Faults to inject instead of `MATRIX_FAULTS`, per kind. A kind outside `FAULT_KINDS` (e.g. `bomb`)
   * joins the matrix when given here, with its expectation in `expect` (or each call's).
   */
  readonly faults?: Partial<Record<FaultKind, Fault>>;
  /** A check every case's envelope passes besides its expectation (the plugin's own guidance, its data). */
  readonly check?: (result: ToolResult, kind: FaultKind) => void;
  /** Only these kinds (default: every kind of `FAULT_KINDS` and of `faults`), e.g. to run a second variant of some. */
  readonly kinds?: ReadonlyArray<FaultKind>;
  /** Expectations for every call instead of `MATRIX_EXPECTATIONS`, per kind. */
  readonly expect?: Partial<Record<FaultKind, FaultExpectation>>;
  /** The policy for every tool (default: 1.5 s timeout, one retry after 10 ms). */
  readonly policy?: ToolPolicy;
  /** The session calls run in (default principal "fault-matrix"). */
  readonly session?: CallOptions;
  /** The vitest timeout of each case (default 30 s: a hang waits for the policy's timeout, on a loaded machine too). */
  readonly testTimeoutMs?: number;
  /** Skip the whole matrix (e.g. when recorded data is absent); say why in the test output. */
  readonly skip?: boolean;
};

const DEFAULT_POLICY: ToolPolicy = { timeout: "1500ms", retry: { times: 1, base: "10ms" } };

/**
 * Checks one envelope against an expectation with vitest's `expect`; `label` names the case.
 *
 * @example
 * expectFaultOutcome(await catalog.call("fda_search_drugs", input), MATRIX_EXPECTATIONS.hang, "hang")
 */
export const expectFaultOutcome = (result: ToolResult, want: FaultExpectation, label: string): void => {
  assertEnvelope(result);
  expect(result.status, `${label}: status (${result.message})`).toBe(want.status);
  if (want.kind !== undefined) expect(result.error?.kind, `${label}: error kind`).toBe(want.kind);
  if (want.retryable !== undefined)
    expect(result.error?.retryable, `${label}: retryable`).toBe(want.retryable);
  if (want.message) expect(result.message, `${label}: message`).toMatch(want.message);
  if (want.guidance === true)
    expect(result.guidance ?? result.suggestion, `${label}: the model is told what to do`).toBeTruthy();
  if (want.attempts !== undefined) expect(result.metadata.attempts, `${label}: attempts`).toBe(want.attempts);
  want.check?.(result);
};

const catalogFor = async (
  options: FaultMatrixOptions,
  up: Emulator,
): Promise<{ catalog: Catalog; owned: boolean }> => {
  const catalogOptions: CatalogOptions = { env: {}, policies: { "*": options.policy ?? DEFAULT_POLICY } };
  if ("catalog" in options) return { catalog: await options.catalog(up, catalogOptions), owned: false };
  const settings = options.settings(up);
  const plugin = typeof options.plugin === "function" ? options.plugin(settings) : options.plugin;
  const catalog = createCatalog(catalogOptions);
  catalog.register(plugin, plugin.config === undefined ? {} : settings);
  return { catalog, owned: true };
};

/** `FAULT_KINDS`, then the other kinds the options give a fault for. */
const matrixKinds = (options: FaultMatrixOptions): ReadonlyArray<FaultKind> =>
  options.kinds ?? [
    ...FAULT_KINDS,
    ...(Object.keys(options.faults ?? {}) as FaultKind[]).filter(
      (k) => !(FAULT_KINDS as FaultKind[]).includes(k),
    ),
  ];

/** The default for `kind` when it is one of `FAULT_KINDS`. */
const defaultOf = <T>(table: Readonly<Record<MatrixFaultKind, T>>, kind: FaultKind): T | undefined =>
  Object.hasOwn(table, kind) ? table[kind as MatrixFaultKind] : undefined;

/**
 * The fault matrix: every fault kind the emulator offers (`FAULT_KINDS`), on every call's upstream
 * request, each asserting the envelope core maps it to (`MATRIX_EXPECTATIONS`, overridable per call and
 * per kind): status, error kind, retryable, message, and that the model is told what to do.
 *
 * @example
 * describeFaultMatrix({
 *   emulator: () => up,
 *   catalog: (up, catalogOptions) => fdaCatalog({ baseUrl: up.url }, catalogOptions),
 *   calls: [{ method: "GET", path: "/drug/label.json", tool: "fda_search_drugs", input: { search_criteria: { indication: "asthma" } } }],
 * });
 */
export const describeFaultMatrix = (options: FaultMatrixOptions): void => {
  describe.skipIf(options.skip === true)(options.name ?? "fault matrix", () => {
    for (const call of options.calls) {
      describe(call.name ?? `${call.tool} ${call.method} ${String(call.path)}`, () => {
        it.each(matrixKinds(options))("%s", { timeout: options.testTimeoutMs ?? 30_000 }, async (kind) => {
          const up = await options.emulator();
          const injected = options.faults?.[kind] ?? defaultOf(MATRIX_FAULTS, kind);
          const want = call.expect?.[kind] ?? options.expect?.[kind] ?? defaultOf(MATRIX_EXPECTATIONS, kind);
          if (!injected || !want) throw new Error(`${kind}: give the fault and its expectation`);
          const fault = up.fault(call.method, call.path, injected);
          const { catalog, owned } = await catalogFor(options, up);
          try {
            const input = typeof call.input === "function" ? (call.input as () => unknown)() : call.input;
            const result = await catalog.call(
              call.tool,
              input,
              options.session ?? { session: { principal: "fault-matrix" } },
            );
            expect(
              fault.hits,
              `${kind}: the fault fired (does ${call.tool} request ${call.method} ${String(call.path)}?)`,
            ).toBeGreaterThan(0);
            expectFaultOutcome(result, want, kind);
            options.check?.(result, kind);
          } finally {
            fault.remove();
            if (owned) await catalog.close();
          }
        });
      });
    }
  });
};
