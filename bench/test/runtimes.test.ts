/**
 * The runtime matrix as tests: one plain-esbuild `--platform=neutral` bundle of the smoke (bench/runtimes),
 * run on Node, Deno, Bun and workerd (each from its npm package). One test per runtime and check, so a
 * failure names both; a runtime whose binary is not installed here is skipped with the reason printed.
 * Needs the built packages (`npm run build`; `npm test` builds first).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Bundles,
  buildBundles,
  describeOutcome,
  RUNTIME_TIMEOUT_MS,
  RUNTIMES,
  type RuntimeOutcome,
  removeBundles,
} from "../runtimes/matrix.js";
import { CHECK_NAMES } from "../runtimes/smoke.js";

const coreDist = fileURLToPath(new URL("../../packages/core/dist/index.js", import.meta.url));

let bundles: Bundles | undefined;
let buildError: string | undefined;

beforeAll(async () => {
  if (!existsSync(coreDist)) {
    buildError = "packages/core/dist is missing: run `npm run build` first (npm test does)";
    return;
  }
  try {
    bundles = await buildBundles();
  } catch (error) {
    // esbuild lists every unresolved import (a `node:` module, a CommonJS-only package) with its importer.
    const errors = (error as { errors?: Array<{ text: string; location?: { file: string; line: number } | null }> }).errors;
    buildError = errors?.length
      ? errors.map((e) => `${e.location ? `${e.location.file}:${e.location.line}: ` : ""}${e.text}`).join("\n")
      : String(error);
  }
});

afterAll(async () => {
  if (bundles) await removeBundles(bundles);
});

describe("the neutral bundle", () => {
  it("builds with esbuild --platform=neutral and nothing external", () => {
    expect(buildError === undefined, `esbuild --platform=neutral failed:\n${buildError}`).toBe(true);
  });
});

for (const runtime of RUNTIMES) {
  describe(`on ${runtime.name}`, () => {
    let outcome: RuntimeOutcome | undefined;

    beforeAll(async () => {
      if (!bundles) return;
      outcome = await runtime.run(bundles);
      console.log(`[runtimes] ${describeOutcome(runtime.name, outcome)}`);
    }, RUNTIME_TIMEOUT_MS + 15_000);

    for (const check of CHECK_NAMES) {
      it(check, (context) => {
        if (outcome?.status === "unavailable") {
          // The reason is printed once above (beforeAll) and kept as each skipped test's note.
          context.skip(`${runtime.name} is not available here: ${outcome.reason}`);
        }
        expect(bundles !== undefined, 'no bundle to run: see the failure of "the neutral bundle > builds …"').toBe(true);
        const reason = outcome?.status === "failed" ? outcome.reason : "";
        expect(outcome?.status === "ran", `${runtime.name} did not run the smoke: ${reason}`).toBe(true);
        const result = outcome?.status === "ran" ? outcome.results.find((r) => r.name === check) : undefined;
        expect(result !== undefined, `${runtime.name} reported no "${check}" check`).toBe(true);
        expect(result?.ok, `${runtime.name}: ${check}: ${result?.detail}`).toBe(true);
      });
    }
  });
}
