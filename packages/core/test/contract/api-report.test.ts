/**
 * The public API of every package against its checked-in report (`api/*.api.md`, docs/compatibility.md).
 * Needs the built packages (`npm run build`, which `npm test` runs first). A difference fails: run
 * `npm run api:report`, review the change, and commit the report with the code that changed it.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, posix, relative, resolve, sep } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { apiReport, entryPoints, PACKAGES } from "../../../../scripts/api-report.mjs";

const packages = [...PACKAGES];
const root = resolve(import.meta.dirname, "../../../..");
const run = promisify(execFile);

describe.each(packages)("$name API report", (pkg) => {
  it(`${pkg.report} is what the built declarations export`, () => {
    const expected = readFileSync(join(root, pkg.report), "utf8");
    const actual = apiReport(pkg);
    if (actual !== expected) {
      const a = actual.split("\n");
      const e = expected.split("\n");
      const line = a.findIndex((text, i) => text !== e[i]);
      expect.fail(
        `The public API of ${pkg.name} differs from ${pkg.report} (first at line ${line + 1}: ` +
          `report has ${JSON.stringify(e[line])}, build has ${JSON.stringify(a[line])}). ` +
          "Run `npm run api:report`, review the change (docs/compatibility.md says what 1.x may not break), and commit the report.",
      );
    }
  }, 60_000);

  it("names no file of the package: the report survives moving source files between folders", () => {
    const text = readFileSync(join(root, pkg.report), "utf8");
    expect(text).not.toMatch(/\b(dist|src|lib)\/|from "\.|import\("\.|\.d\.ts\b/);
  });

  it("covers every entry point of the package's exports", () => {
    const text = readFileSync(join(root, pkg.report), "utf8");
    const entries = entryPoints(join(root, pkg.dir)).map((e) => e.specifier);
    expect(entries.length).toBeGreaterThan(0);
    for (const specifier of entries) expect(text).toContain(`## \`${specifier}\``);
  });
});

describe("moving modules into folders", () => {
  // A copy of the adapter beside the real packages (so `extends` and node_modules resolve the same), with
  // two modules moved into folders and every relative import rewritten, built with tsc: its report is the
  // report of the real package, byte for byte.
  const work = mkdtempSync(join(root, "packages/.api-move-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  function sourceFiles(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
    });
  }

  /** Moves `from` to `to` (both under `src`) and rewrites every relative import specifier that changes. */
  function move(src: string, moves: Record<string, string>) {
    const files = sourceFiles(src);
    const newPath = (file: string) => {
      const rel = relative(src, file).split(sep).join("/");
      return moves[rel] ? join(src, moves[rel]) : file;
    };
    const texts = new Map(files.map((file) => [file, readFileSync(file, "utf8")]));
    for (const [file, text] of texts) {
      const target = newPath(file);
      const rewritten = text.replace(/((?:from|import)\s*\(?\s*")(\.\.?\/[^"]+)\.js"/g, (_whole, head: string, specifier: string) => {
        const imported = resolve(dirname(file), specifier);
        const importedFile = files.find((f) => f.replace(/\.tsx?$/, "") === imported);
        if (!importedFile) return `${head}${specifier}.js"`;
        let next = posix.relative(dirname(target).split(sep).join("/"), newPath(importedFile).split(sep).join("/"));
        if (!next.startsWith(".")) next = `./${next}`;
        return `${head}${next.replace(/\.tsx?$/, "")}.js"`;
      });
      if (target !== file) rmSync(file);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, rewritten);
    }
  }

  it("leaves the adapter's report unchanged (errors.ts to types/, migrations.ts to kernel/)", async () => {
    const pkg = packages.find((p) => p.name === "@authlib/hosted-db-adapter")!;
    for (const name of ["src", "package.json", "tsconfig.json"]) cpSync(join(root, pkg.dir, name), join(work, name), { recursive: true });
    move(join(work, "src"), { "errors.ts": "types/errors.ts", "migrations.ts": "kernel/migrations.ts" });
    await run(join(root, "node_modules/.bin/tsc"), ["-p", join(work, "tsconfig.json")]);
    expect(readdirSync(join(work, "dist"))).toEqual(expect.arrayContaining(["types", "kernel"]));
    expect(readdirSync(join(work, "dist"))).not.toContain("migrations.js");
    expect(apiReport({ ...pkg, dir: work })).toBe(readFileSync(join(root, pkg.report), "utf8"));
  }, 120_000);
});
