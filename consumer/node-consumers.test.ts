/**
 * Plain Node consumers of the installed tarballs: an ESM `import()` and a CommonJS `require()` of every
 * entry point each package's `exports` documents (wildcards expanded from the files the package ships).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, inject, test } from "vitest";
import { listFiles } from "./app.js";

const app = inject("consumerApp");
/**
 * `@authlib/qwik` is not among them: it needs a Qwik build (its dependency `@builder.io/qwik-city` imports
 * the virtual module `@qwik-city-plan`, which only Qwik's Vite plugin provides), so the Qwik app is its
 * consumer test (qwik-app.test.ts).
 */
const PACKAGE_NAMES = ["@authlib/core", "@authlib/hosted-db-adapter"];
/** Names the main entry points must export (spec: the public interface). */
const MAIN_EXPORTS: Record<string, string[]> = {
  "@authlib/core": ["Auth", "getSession", "encode", "decode", "getToken", "CredentialsSignin", "skipCSRFCheck"],
  "@authlib/hosted-db-adapter": ["HostedDbClient", "HostedDbAdapter"],
};

/** The JavaScript file an `exports` value points at for `import`/`require` (first string found). */
function target(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value && typeof value === "object") {
    for (const condition of ["import", "default", "node", "require"]) {
      const found = target((value as Record<string, unknown>)[condition]);
      if (found) return found;
    }
  }
  return undefined;
}

/** Every importable specifier of an installed package, from its package.json `exports`. */
function entryPoints(name: string): string[] {
  const root = join(app, "node_modules", name);
  const exports = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).exports as Record<string, unknown>;
  const specifiers: string[] = [];
  for (const [key, value] of Object.entries(exports)) {
    const file = target(value);
    if (!file || !/\.[cm]?js$/.test(file)) continue; // package.json and other non-code entries
    if (!key.includes("*")) {
      specifiers.push(key === "." ? name : `${name}/${key.slice(2)}`);
      continue;
    }
    const [before, after] = file.split("*");
    const dir = join(root, dirname(before));
    if (!existsSync(dir)) continue;
    for (const relative of listFiles(dir)) {
      const path = `./${join(dirname(before), relative)}`;
      if (!path.startsWith(before) || !path.endsWith(after) || path.endsWith(".d.ts")) continue;
      const match = path.slice(before.length, path.length - after.length);
      specifiers.push(`${name}/${key.slice(2).replace("*", match)}`);
    }
  }
  return specifiers;
}

type Outcome = { ok: true; names: string[] } | { ok: false; error: string };

/** Loads each specifier in a fresh plain Node process from the app folder, the way a consumer would. */
function load(kind: "import" | "require", specifiers: string[]): Record<string, Outcome> {
  const script =
    kind === "import"
      ? `const out = {}; for (const s of ${JSON.stringify(specifiers)}) { try { out[s] = { ok: true, names: Object.keys(await import(s)) }; } catch (e) { out[s] = { ok: false, error: String(e?.code ?? "") + " " + String(e?.message ?? e).split("\\n")[0] }; } } console.log(JSON.stringify(out));`
      : `const out = {}; for (const s of ${JSON.stringify(specifiers)}) { try { out[s] = { ok: true, names: Object.keys(require(s)) }; } catch (e) { out[s] = { ok: false, error: String(e?.code ?? "") + " " + String(e?.message ?? e).split("\\n")[0] }; } } console.log(JSON.stringify(out));`;
  const args = kind === "import" ? ["--input-type=module", "-e", script] : ["--input-type=commonjs", "-e", script];
  const result = spawnSync(process.execPath, args, { cwd: app, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`node ${kind} consumer exited ${result.status}:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}");
}

const specifiers = PACKAGE_NAMES.flatMap(entryPoints);

test("every package documents entry points, wildcards included", () => {
  for (const name of PACKAGE_NAMES) expect(specifiers).toContain(name);
  expect(specifiers).toContain("@authlib/core/providers/credentials");
  expect(specifiers).toContain("@authlib/core/password");
});

for (const kind of ["import", "require"] as const) {
  describe(`plain Node ${kind === "import" ? "ESM import()" : "CommonJS require()"}`, () => {
    const outcomes = load(kind, specifiers);
    test.each(specifiers)("%s loads", (specifier) => {
      const outcome = outcomes[specifier];
      expect(outcome.ok ? "loaded" : outcome.error).toBe("loaded");
      if (outcome.ok && MAIN_EXPORTS[specifier]) expect(outcome.names).toEqual(expect.arrayContaining(MAIN_EXPORTS[specifier]));
    });
  });
}
