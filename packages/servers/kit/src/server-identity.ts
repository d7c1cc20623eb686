/** Who a bundled server is: its npm package, version and command, as its package.json says. */
export interface ServerIdentity {
  /** The npm package (`@quiver/fda-mcp`). */
  readonly name: string;
  /** The package's version. */
  readonly version: string;
  /** The command its `bin` installs (`quiver-fda-mcp`). */
  readonly bin: string;
  /** The plugin answers per caller, so the server does not start without `QUIVER_PRINCIPAL`. */
  readonly needsPrincipal?: boolean;
}
