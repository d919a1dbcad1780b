/**
 * One package, two Qwik majors: the Qwik 1 build (`@authlib/qwik`) imports only Qwik 1's modules and the
 * Qwik 2 build (`@authlib/qwik/qwik2`) only Qwik 2's, in code and in declarations, so an app installs its
 * own major alone. Needs the built package (`npm run build`).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";

const lib = join(import.meta.dirname, "../lib");

/** Every bare module specifier (imports, `import()` types) of the files with `suffix` directly in `dir`. */
function qwikSpecifiers(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) throw new Error(`${dir} is missing: run \`npm run build\` first.`);
  const names = new Set<string>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith(suffix))) {
    const text = readFileSync(join(dir, file), "utf8");
    for (const [, name] of text.matchAll(/(?:from |import\()"((?:@builder\.io|@qwik\.dev)\/[^"]+)"/g)) names.add(name);
  }
  return [...names].sort();
}

describe.each([
  { major: "Qwik 1", code: lib, types: join(lib, "types"), own: /^@builder\.io\/qwik(-city)?(\/|$)/ },
  { major: "Qwik 2", code: join(lib, "qwik2"), types: join(lib, "qwik2/types"), own: /^@qwik\.dev\/(core|router)(\/|$)/ },
])("the $major build", ({ code, types, own }) => {
  test("imports only its own major's Qwik modules", () => {
    const specifiers = qwikSpecifiers(code, ".qwik.mjs");
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((name) => !own.test(name))).toEqual([]);
  });

  test("declares its types with its own major's Qwik modules only", () => {
    const specifiers = qwikSpecifiers(types, ".d.ts");
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((name) => !own.test(name))).toEqual([]);
  });
});

test("the Qwik 2 build is the Qwik 1 build with the module names mapped, file for file", () => {
  const files = readdirSync(join(lib, "qwik2")).filter((name) => name.endsWith(".qwik.mjs"));
  expect(files.length).toBeGreaterThan(10);
  for (const file of files) {
    const qwik1 = readFileSync(join(lib, file), "utf8")
      .replaceAll('"@builder.io/qwik-city', '"@qwik.dev/router')
      .replaceAll('"@builder.io/qwik', '"@qwik.dev/core');
    expect(readFileSync(join(lib, "qwik2", file), "utf8"), file).toBe(qwik1);
  }
});
