/**
 * What the user docs promise about themselves: they speak of the product, not of its tracker (no issue
 * numbers: docs/testing.md, the contributors' page, may), they name the CLI one way (`authlib db`; the
 * adapter's README says once that its old name is the same), and docs/environment.md names every
 * environment variable `@authlib/core` reads.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");

/** The user docs: docs/*.md but the contributors' testing page, and the READMEs. */
const userDocs = [
  ...readdirSync(new URL("docs/", root))
    .filter((name) => name.endsWith(".md") && name !== "testing.md")
    .map((name) => `docs/${name}`),
  "README.md",
  "packages/core/README.md",
  "packages/qwik/README.md",
  "packages/hosted-db-adapter/README.md",
];

/** The variables core's source reads by name (`readEnv(env, "NAME")` and the secret list). */
function variablesCoreReads(): string[] {
  const folder = new URL("packages/core/src/env/", root);
  const names = new Set<string>();
  for (const file of readdirSync(folder)) {
    for (const [, name] of readFileSync(new URL(file, folder), "utf8").matchAll(/"((?:AUTH|AUTHLIB)_[A-Z0-9_]+)"/g))
      names.add(name as string);
  }
  return [...names].sort();
}

describe("the user docs", () => {
  it.each(userDocs)("%s names no issue of the tracker", (path) => {
    expect(read(path)).not.toMatch(/\bissues? #?\d+/i);
  });

  it.each(userDocs.filter((path) => path !== "packages/hosted-db-adapter/README.md"))(
    "%s names the CLI one way (authlib db, not the adapter's old authlib-db)",
    (path) => {
      expect(read(path)).not.toMatch(/(?<![.\w])authlib-db (migrate|status|prune|import-authjs)/);
    },
  );

  it("docs/environment.md has a row for every variable core reads", () => {
    const environment = read("docs/environment.md");
    const names = variablesCoreReads();
    expect(names).toContain("AUTH_URL");
    // In the first cell of a row (a row may name several, e.g. the rotation secrets).
    for (const name of names) expect(environment, name).toMatch(new RegExp(`^\\|[^|]*\`${name}\``, "m"));
  });
});
