/**
 * Features as modules (issue 45): the second factor is named in at most four core files outside its own
 * folder, the places a public name must be reachable from: the package's index, the feature list, the
 * errors entry point (`@authlib/core/errors`, its error classes) and the types entry point
 * (`@authlib/core/types`, its option). Everything else reads the feature through `FeatureDefinition`, and
 * its types through declaration merging (`features/two-factor/types.ts`). Comments count: a shared
 * module speaks of "a second factor", never of this one.
 *
 * The same search as `grep -rliE "two-?factor|totp|recovery.?code" packages/core/src --include=*.ts --include=*.tsx`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
const NAME = /two-?factor|totp|recovery.?code/i;
const FEATURE = "features/two-factor/";
const MOST = 4;

/** The source files under `src` (repository-style paths from `src/`) that name the second factor. */
function naming(): string[] {
  return readdirSync(src, { recursive: true, encoding: "utf8" })
    .map((path) => path.split("\\").join("/"))
    .filter((path) => /\.tsx?$/.test(path) && !path.startsWith(FEATURE))
    .filter((path) => NAME.test(readFileSync(join(src, path), "utf8")))
    .sort();
}

describe("the second factor is a module", () => {
  it(`is named in at most ${MOST} core files outside ${FEATURE}`, () => {
    const files = naming();
    expect(files.length, `files naming it:\n${files.join("\n")}`).toBeLessThanOrEqual(MOST);
  });

  it("the search finds the feature's own files (so a broken search cannot pass)", () => {
    const own = readdirSync(join(src, FEATURE), { recursive: true, encoding: "utf8" }).filter((path) => /\.tsx?$/.test(path));
    expect(own.filter((path) => NAME.test(readFileSync(join(src, FEATURE, path), "utf8"))).length).toBeGreaterThan(10);
  });
});
