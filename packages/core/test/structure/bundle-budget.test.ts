/**
 * The bundle budget (issue 15, item 4): `Auth` + GitHub + Credentials, bundled and minified with esbuild
 * and gzipped, is no larger than the same surface of the reference library (`@auth/core`). Sizes are
 * printed by `node scripts/bundle-budget.mjs`; this test is how CI enforces the budget.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { run } from "../../../../scripts/bundle-budget.mjs";

interface Measured {
  bytes: number;
  gzip: number;
  inputs: string[];
}

describe("bundle budget", () => {
  it("Auth + GitHub + Credentials is no larger (gzip) than @auth/core's, and loads pages, passkeys, email code and the OAuth client lazily", async () => {
    const result = (await run()) as { ours: Measured; reference: Measured; sessionOnly: Measured; withinBudget: boolean };
    console.log(`bundle (gzip): @authlib/core ${result.ours.gzip} B, @auth/core ${result.reference.gzip} B`);
    // Both measurements bundled the real libraries, not an empty entry.
    expect(result.ours.inputs.some((i) => i.includes("packages/core/src/session/jwt.ts"))).toBe(true);
    expect(result.ours.inputs.some((i) => i.includes("packages/core/src/providers/github.ts"))).toBe(true);
    expect(result.reference.inputs.some((i) => i.includes("@auth/core"))).toBe(true);
    expect(result.ours.gzip).toBeLessThanOrEqual(result.reference.gzip);
    expect(result.withinBudget).toBe(true);
    for (const measured of [result.ours, result.sessionOnly]) {
      const heavy = measured.inputs.filter((i) =>
        /preact|src\/pages\/(?!lazy|html)|src\/i18n\/|src\/features\/[^/]+\/messages\/|src\/webauthn\/(?!routes-loader)|src\/email\/template|nodemailer|@simplewebauthn|oauth4webapi|src\/oauth\/(?!bounded-fetch|provider-fetch)/.test(
          i,
        ),
      );
      expect(heavy).toEqual([]);
    }
  }, 60_000);
});
