/**
 * What the user docs promise about themselves: they speak of the product, not of its tracker (no issue
 * numbers: docs/testing.md, the contributors' page, may), they name the CLI one way (`authlib db`; the
 * adapter's README says once that its old name is the same), docs/environment.md names every
 * environment variable `@authlib/core` reads, and the Qwik README lists every helper with an example.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../../../", import.meta.url);
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

/**
 * The helpers of `@authlib/qwik`: every hook `FrameworkAuth$` makes (a `const use… =` of the package's
 * source, wherever it lives) and every function the package exports by name.
 */
function qwikHelpers(): string[] {
  const folder = new URL("packages/qwik/src/", root);
  const names = new Set<string>(["onRequest"]);
  for (const file of readdirSync(folder, { recursive: true }) as string[]) {
    if (!file.endsWith(".ts")) continue;
    for (const [, name] of readFileSync(new URL(file, folder), "utf8").matchAll(/^\s*const (use[A-Z]\w*)\s*[:=]/gm))
      names.add(name as string);
  }
  const index = read("packages/qwik/src/index.ts");
  for (const [, list] of index.matchAll(/^export \{([^}]*)\} from/gm)) {
    for (const entry of (list as string).split(",").map((part) => part.trim())) {
      if (/^[a-z]\w*$/.test(entry)) names.add(entry);
    }
  }
  return [...names].sort();
}

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

  it("packages/qwik/README.md lists every helper of @authlib/qwik and shows each in an example", () => {
    const readme = read("packages/qwik/README.md");
    const examples = [...readme.matchAll(/```tsx?\n([\s\S]*?)```/g)].map((match) => match[1]).join("\n");
    const helpers = qwikHelpers();
    for (const name of ["useSession", "useEnrollTotp", "useTwoFactorStatus", "usePasskeys", "getSession", "requireRecentAuth"])
      expect(helpers).toContain(name);
    for (const name of helpers) {
      // A list entry names it in bold (`- **`name`**`, `- **`name(…)` / `other(…)`**`)…
      expect(readme, name).toMatch(new RegExp(`^\\s*- \\*\\*[^\\n]*\`${name}[(\`]`, "m"));
      // …and a code block uses it.
      expect(examples, name).toMatch(new RegExp(`\\b${name}\\b`));
    }
  });
});
