import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Redacted from "effect/Redacted";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { resolveSettings } from "../../src/config/resolve-settings.js";

const dirs: string[] = [];
const withConfig = (config: unknown) => {
  const dir = mkdtempSync(join(tmpdir(), "quiver-auth-config-"));
  dirs.push(dir);
  writeFileSync(join(dir, "quiver.config.json"), JSON.stringify(config));
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const problemsOf = async (p: Promise<unknown>) => {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems;
};

describe("auth in quiver.config.json", () => {
  it("reads auth.oidc, auth.scopes and auth.publicUrl, the introspection secret from the environment, Redacted", async () => {
    const cwd = withConfig({
      auth: {
        publicUrl: "https://quiver.example.org/",
        oidc: {
          issuer: "https://login.example.org/realms/lab",
          groupsClaim: "groups",
          introspection: { clientId: "quiver", clientSecret: "env:QUIVER_IDP_SECRET" },
        },
        scopes: { fda: ["fda:read"], private_repo_search: ["repo"] },
      },
    });
    const settings = await resolveSettings(
      {},
      { QUIVER_CONFIG: join(cwd, "quiver.config.json"), QUIVER_IDP_SECRET: "s3cr3t-idp" },
    );
    expect(settings.auth.publicUrl).toBe("https://quiver.example.org");
    expect(settings.auth.scopes).toEqual({ fda: ["fda:read"], private_repo_search: ["repo"] });
    expect(settings.auth.oidc?.issuer).toBe("https://login.example.org/realms/lab");
    const secret = settings.auth.oidc!.introspection!.clientSecret;
    expect(Redacted.value(secret)).toBe("s3cr3t-idp");
    expect(JSON.stringify(settings.auth)).not.toContain("s3cr3t-idp");
    expect(String(secret)).not.toContain("s3cr3t-idp");
  });

  it("names an unset secret variable and a mistyped key", async () => {
    const unset = withConfig({
      auth: {
        oidc: {
          issuer: "https://login.example.org",
          introspection: { clientId: "q", clientSecret: "env:NOPE" },
        },
      },
    });
    expect(
      (await problemsOf(resolveSettings({}, { QUIVER_CONFIG: join(unset, "quiver.config.json") })))[0],
    ).toMatch(/auth\.oidc\.introspection\.clientSecret: NOPE is not set/);
    const typo = withConfig({
      auth: { oidc: { issuer: "https://login.example.org", groupClaim: "groups" } },
    });
    expect(
      await problemsOf(resolveSettings({}, { QUIVER_CONFIG: join(typo, "quiver.config.json") })),
    ).toContainEqual(
      expect.stringMatching(/auth\.oidc: unknown key "groupClaim" \(did you mean "groupsClaim"\?\)/),
    );
  });
});
