/**
 * What npm users get: each package's tarball, checked the way a registry consumer meets it. Needs the
 * built packages (`npm run build`, which `npm test` runs first).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entryPoints } from "../../../../scripts/api-report.mjs";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../../../..");
const bin = (name: string) => join(root, "node_modules/.bin", name);
const packages = [
  { name: "@authlib/core", dir: "packages/core", built: "dist/index.js" },
  { name: "@authlib/hosted-db-adapter", dir: "packages/hosted-db-adapter", built: "dist/index.js" },
  { name: "@authlib/qwik", dir: "packages/qwik", built: "lib/index.qwik.mjs" },
] as const;

let work: string;
const tarballs = new Map<string, string>();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "authlib-pack-"));
  for (const pkg of packages) {
    if (!existsSync(join(root, pkg.dir, pkg.built))) throw new Error(`${pkg.name} is not built: run \`npm run build\` first.`);
    const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", work], { cwd: join(root, pkg.dir) });
    const [info] = JSON.parse(stdout) as Array<{ filename: string }>;
    tarballs.set(pkg.name, join(work, info!.filename));
  }
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each(packages)("$name tarball", (pkg) => {
  it("lists no test, fixture or tsconfig file, and has its README, LICENSE and every exported file", async () => {
    const { stdout } = await run("npm", ["pack", "--dry-run", "--json"], { cwd: join(root, pkg.dir) });
    const files = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
    const unwanted = files.filter((path) =>
      /(^|\/)(tests?|__tests__|fixtures?)\/|\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)tsconfig[^/]*\.json$|vite\.config/.test(path),
    );
    expect(unwanted).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(["README.md", "LICENSE", "package.json"]));
    const manifest = JSON.parse(readFileSync(join(root, pkg.dir, "package.json"), "utf8"));
    const targets = Object.values(manifest.exports as Record<string, string | Record<string, string>>)
      .flatMap((target) => (typeof target === "string" ? [target] : Object.values(target)))
      .filter((target) => !target.includes("*"))
      .map((target) => target.replace(/^\.\//, ""));
    expect(files).toEqual(expect.arrayContaining(targets));
    expect(manifest.license).toBe("MIT");
    expect(manifest.engines).toEqual({ node: ">=20.19" });
    expect(manifest.repository?.url).toMatch(/^git\+https:/);
    for (const entry of Object.values(manifest.exports as Record<string, string | Record<string, string>>)) {
      if (typeof entry === "string") continue;
      // `default` after `import`: bundlers and Node's require(esm) (>= 20.19) both find the module.
      expect(Object.keys(entry)).toEqual(expect.arrayContaining(["types", "import", "default"]));
      expect(Object.keys(entry)[0]).toBe("types");
      expect(Object.keys(entry).at(-1)).toBe("default");
    }
  });

  it("publint --strict reports nothing", async () => {
    const { stdout } = await run(bin("publint"), ["run", "--strict", tarballs.get(pkg.name)!]);
    expect(stdout).toContain("All good!");
  }, 60_000);

  it("arethetypeswrong reports nothing under node10, node16 (ESM) and bundler, on every entry point", async () => {
    // The packages are ESM only, on purpose: CommonJS callers use require(esm) (Node >= 20.19), which
    // attw still reports as "CJS resolves to ESM"; that one rule is the only one left out. Every entry
    // point of `exports`, each file of a wildcard subpath (`./providers/*`) too: the API report's list.
    const entrypoints = entryPoints(join(root, pkg.dir)).map(({ specifier }) =>
      specifier === pkg.name ? "." : `.${specifier.slice(pkg.name.length)}`,
    );
    expect(entrypoints.length).toBeGreaterThan(1);
    const { stdout } = await run(
      bin("attw"),
      [tarballs.get(pkg.name)!, "--ignore-rules", "cjs-resolves-to-esm", "--format", "ascii", "--entrypoints", ...entrypoints],
      { env: { ...process.env, NO_COLOR: "1" }, maxBuffer: 64 * 1024 * 1024 },
    );
    expect(stdout).toContain("No problems found");
    // (Core's ~85 entry points take attw about 30 s alone; more beside the rest of the suite.)
  }, 240_000);
});

describe("peers", () => {
  const manifest = (dir: string) => JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));

  it("@authlib/core is a bounded peer of the integration and the adapter, not a dependency (one copy per app)", () => {
    const { version } = manifest("packages/core");
    for (const dir of ["packages/qwik", "packages/hosted-db-adapter"]) {
      const pkg = manifest(dir);
      expect(pkg.dependencies?.["@authlib/core"]).toBeUndefined();
      expect(pkg.peerDependencies["@authlib/core"]).toBe(`^${version}`);
    }
  });

  it("the three packages are released together: one version, internal ranges on it, a CHANGELOG section for it", () => {
    const versions = ["packages/core", "packages/qwik", "packages/hosted-db-adapter"].map((dir) => manifest(dir).version);
    const version = versions[0];
    expect(version).toMatch(/^1\./); // the 1.x promise (docs/compatibility.md)
    expect(versions).toEqual([version, version, version]);
    for (const dir of ["packages/qwik", "packages/hosted-db-adapter", "apps/demo"]) {
      const pkg = manifest(dir);
      for (const field of ["dependencies", "devDependencies"]) {
        for (const [name, range] of Object.entries((pkg[field] ?? {}) as Record<string, string>)) {
          if (name.startsWith("@authlib/")) expect(range, `${dir} ${field}: ${name}`).toBe(version);
        }
      }
    }
    const changelog = readFileSync(join(root, "CHANGELOG.md"), "utf8");
    expect(changelog).toMatch(new RegExp(`^## \\[${version.replaceAll(".", "\\.")}\\] - \\d{4}-\\d{2}-\\d{2}$`, "m"));
  });

  it("@authlib/qwik's Qwik peers are optional: an app installs its own major (Qwik 1 or Qwik 2) only", () => {
    const pkg = manifest("packages/qwik");
    const qwik = ["@builder.io/qwik", "@builder.io/qwik-city", "@qwik.dev/core", "@qwik.dev/router"];
    expect(Object.keys(pkg.peerDependencies)).toEqual(expect.arrayContaining(qwik));
    expect(Object.keys(pkg.peerDependenciesMeta).sort()).toEqual([...qwik].sort());
    for (const name of qwik) expect(pkg.peerDependenciesMeta[name]).toEqual({ optional: true });
  });

  it("the adapter's drivers are optional peers, and its public types import neither", () => {
    const pkg = manifest("packages/hosted-db-adapter");
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.peerDependenciesMeta).toEqual({ pg: { optional: true }, "@electric-sql/pglite": { optional: true } });
    const declarations = [
      "index",
      "client",
      "adapter",
      "tables",
      "schema",
      "migrations",
      "rate-limit-store",
      "errors",
      "drivers/queryable",
      "drivers/shapes",
    ].map((f) => readFileSync(join(root, "packages/hosted-db-adapter/dist", `${f}.d.ts`), "utf8"));
    for (const text of declarations) expect(text).not.toMatch(/from "(pg|@electric-sql\/pglite)"|import\("(pg|@electric-sql\/pglite)"\)/);
  });

  it("every peer range is bounded to the major that is tested", () => {
    for (const dir of ["packages/core", "packages/qwik", "packages/hosted-db-adapter"]) {
      for (const [name, range] of Object.entries(manifest(dir).peerDependencies as Record<string, string>)) {
        // A major still in beta (Qwik 2) is bounded by its tested beta: `^2.0.0-beta.45`; our own
        // release candidate by itself (`^1.0.0-rc.1`, which 1.x releases satisfy).
        expect(range, `${dir}: ${name}`).toMatch(/^\^\d+\.\d+\.\d+(-(beta|rc)\.\d+)?$/);
      }
    }
  });
});

describe("an edge/browser bundle of core (esbuild --platform=neutral)", () => {
  async function bundle(source: string) {
    const dir = mkdtempSync(join(root, "packages/core/.bundle-"));
    try {
      writeFileSync(join(dir, "entry.js"), source);
      const result = await build({
        entryPoints: [join(dir, "entry.js")],
        bundle: true,
        write: false,
        platform: "neutral",
        format: "esm",
        mainFields: ["module", "main"],
        metafile: true,
        logLevel: "silent",
      });
      const inputs = Object.keys(result.metafile.inputs);
      const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((i) => i.path));
      return { inputs, imports, code: result.outputFiles[0]!.text };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("Auth + Credentials + the password helper: no node: import, no passkey or nodemailer code", async () => {
    const { inputs, imports, code } = await bundle(
      `export { Auth, getSession } from "@authlib/core";\nexport { default as Credentials } from "@authlib/core/providers/credentials";\nexport { hashPassword, verifyPassword } from "@authlib/core/password";\n`,
    );
    expect(imports).toEqual([]);
    // (core names "node:crypto" once, as a string for process.getBuiltinModule, which no bundler follows.)
    expect(code).not.toMatch(/\bfrom\s*["']node:|\bimport\s*\(?\s*["']node:|\brequire\(\s*["']node:/);
    // The passkey routes' loader (actions/webauthn-routes.js) is a few lines and may come; the routes may not.
    expect(inputs.filter((i) => /@simplewebauthn|nodemailer|actions\/webauthn\.js|browser-bundle/.test(i))).toEqual([]);
  });

  it("the rate-limit stores (memory, Redis): no Redis client, no node: import, nothing imported at all", async () => {
    const { inputs, imports, code } = await bundle(
      `export { memoryRateLimitStore } from "@authlib/core";\nexport { redisRateLimitStore } from "@authlib/core/rate-limit/redis";\n`,
    );
    expect(imports).toEqual([]);
    expect(code).not.toMatch(/\bfrom\s*["']node:|\bimport\s*\(?\s*["']node:|\brequire\(\s*["']node:/);
    expect(inputs.filter((i) => /node_modules\/(redis|@redis)\//.test(i))).toEqual([]);
    expect(inputs.some((i) => i.endsWith("rate-limit/redis.js"))).toBe(true);
    const declaration = readFileSync(join(root, "packages/core/dist/rate-limit/redis.d.ts"), "utf8");
    // (Its TSDoc example imports "redis"; a statement of the declaration itself must not.)
    expect(declaration).not.toMatch(/^(import|export)\b[^\n]*from "(redis|@redis\/client)"|import\("(redis|@redis\/client)"\)/m);
  });

  it("the Redis session store: no Redis client, no node: import, nothing imported at all", async () => {
    const { inputs, imports, code } = await bundle(`export { redisSessionStore } from "@authlib/core/session/redis";\n`);
    expect(imports).toEqual([]);
    expect(code).not.toMatch(/\bfrom\s*["']node:|\bimport\s*\(?\s*["']node:|\brequire\(\s*["']node:/);
    expect(inputs.filter((i) => /node_modules\/(redis|@redis)\//.test(i))).toEqual([]);
    expect(inputs.some((i) => i.endsWith("session/redis.js"))).toBe(true);
    const declaration = readFileSync(join(root, "packages/core/dist/session/redis.d.ts"), "utf8");
    expect(declaration).not.toMatch(/^(import|export)\b[^\n]*from "(redis|@redis\/client)"|import\("(redis|@redis\/client)"\)/m);
  });

  it("the resource side (@authlib/core/resource): no node: import, nothing imported, none of the kernel", async () => {
    const { inputs, imports, code } = await bundle(
      `export { protectResource, resourceErrorResponse, revocationWithin } from "@authlib/core/resource";\n`,
    );
    expect(imports).toEqual([]);
    expect(code).not.toMatch(/\bfrom\s*["']node:|\bimport\s*\(?\s*["']node:|\brequire\(\s*["']node:/);
    expect(inputs.some((i) => i.endsWith("dist/resource/verify.js"))).toBe(true);
    expect(inputs.filter((i) => /dist\/(kernel|actions|pages|session)\//.test(i))).toEqual([]);
  });

  it("with Passkey(): the passkey code is bundled (so the measurement above means something), still no node: import", async () => {
    const { inputs, imports } = await bundle(
      `export { Auth } from "@authlib/core";\nexport { default as Passkey } from "@authlib/core/providers/passkey";\n`,
    );
    expect(imports).toEqual([]);
    expect(inputs.some((i) => i.includes("@simplewebauthn/server"))).toBe(true);
    expect(inputs.some((i) => i.endsWith("webauthn/browser-bundle.generated.js"))).toBe(true);
  });
});

describe("the embedded @simplewebauthn/browser bundle", () => {
  it("matches the installed package (regenerate with `npm run generate --workspace @authlib/core`)", async () => {
    await run("node", [join(root, "packages/core/scripts/embed-webauthn-browser.mjs"), "--check"]);
  });
});
