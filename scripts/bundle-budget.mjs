#!/usr/bin/env node
/**
 * The bundle budget (issue 15): bundles `Auth` + the GitHub provider + Credentials with esbuild (minified,
 * platform=neutral, mainFields module,main: what an edge or Node server build does) for @authlib/core
 * (from its sources) and for the reference, @auth/core, gzips both, prints both sizes and exits 1 when
 * ours is larger. Also reports a session-only bundle (`Auth` alone) and which heavy modules each holds.
 *
 * Usage: node scripts/bundle-budget.mjs [--json]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const coreSrc = join(root, "packages/core/src");

/** The entries measured: the same surface for both libraries. */
export const entries = {
  ours: [
    `export { Auth } from ${JSON.stringify(join(coreSrc, "index.ts"))};`,
    `export { default as GitHub } from ${JSON.stringify(join(coreSrc, "providers/github.ts"))};`,
    `export { default as Credentials } from ${JSON.stringify(join(coreSrc, "providers/credentials.ts"))};`,
  ].join("\n"),
  reference: [
    `export { Auth } from "@auth/core";`,
    `export { default as GitHub } from "@auth/core/providers/github";`,
    `export { default as Credentials } from "@auth/core/providers/credentials";`,
  ].join("\n"),
  oursSessionOnly: `export { Auth } from ${JSON.stringify(join(coreSrc, "index.ts"))};`,
};

/** Bundles `source` and returns its minified size, gzip size and input paths (main chunk only). */
export async function measure(source) {
  const dir = mkdtempSync(join(root, ".bundle-budget-"));
  try {
    const entry = join(dir, "entry.mjs");
    writeFileSync(entry, source);
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      minify: true,
      format: "esm",
      platform: "neutral",
      mainFields: ["module", "main"],
      conditions: ["worker", "browser", "import", "default"],
      tsconfig: join(root, "packages/core/tsconfig.json"),
      splitting: true,
      outdir: join(dir, "out"),
      metafile: true,
      logLevel: "silent",
      absWorkingDir: root,
    });
    const main = result.outputFiles.find((f) => f.path.endsWith("entry.js"));
    const chunks = result.outputFiles.filter((f) => f.path.endsWith(".js"));
    // Statically reachable code: the entry and the chunks it imports statically (not dynamic imports).
    const meta = result.metafile.outputs;
    function key(f) {
      return Object.keys(meta).find((k) => f.path.endsWith(k));
    }
    const staticFiles = new Set();
    function walk(file) {
      if (staticFiles.has(file)) return;
      staticFiles.add(file);
      for (const imp of meta[key(file)]?.imports ?? []) {
        if (imp.kind !== "import-statement" || imp.external) continue;
        const next = chunks.find((f) => f.path.endsWith(imp.path.replace(/^.*\//, "")));
        if (next) walk(next);
      }
    }
    walk(main);
    const staticText = [...staticFiles].map((f) => f.text).join("\n");
    const staticInputs = new Set([...staticFiles].flatMap((f) => Object.keys(meta[key(f)]?.inputs ?? {})));
    return {
      bytes: Buffer.byteLength(staticText),
      gzip: gzipSync(staticText, { level: 9 }).byteLength,
      inputs: [...staticInputs],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function kb(n) {
  return `${(n / 1024).toFixed(1)} KB`;
}

export async function run() {
  const ours = await measure(entries.ours);
  const reference = await measure(entries.reference);
  const sessionOnly = await measure(entries.oursSessionOnly);
  return { ours, reference, sessionOnly, withinBudget: ours.gzip <= reference.gzip };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await run();
  if (process.argv.includes("--json")) {
    console.log(
      JSON.stringify({
        ...result,
        ours: { ...result.ours, inputs: undefined },
        reference: { ...result.reference, inputs: undefined },
        sessionOnly: { ...result.sessionOnly, inputs: undefined },
      }),
    );
  } else {
    console.log("Auth + GitHub + Credentials, esbuild minified, platform=neutral, gzip -9 (statically loaded code)");
    console.log(`  @authlib/core: ${kb(result.ours.gzip)} gzip (${kb(result.ours.bytes)} minified)`);
    console.log(`  @auth/core:    ${kb(result.reference.gzip)} gzip (${kb(result.reference.bytes)} minified)`);
    console.log(`  @authlib/core, Auth only: ${kb(result.sessionOnly.gzip)} gzip`);
    function heavy(inputs) {
      return inputs.filter((i) => /preact|pages\/|webauthn|email\/|nodemailer|@simplewebauthn/.test(i));
    }
    console.log(`  heavy modules in ours: ${heavy(result.ours.inputs).join(", ") || "none"}`);
  }
  if (!result.withinBudget) {
    console.error(`Over budget: ours ${kb(result.ours.gzip)} > reference ${kb(result.reference.gzip)} (gzip).`);
    process.exit(1);
  }
}
