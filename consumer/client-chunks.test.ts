/**
 * The consumer test's own check of a build's client chunks (production.ts): it must see a `node:` import
 * or Vite's browser stub in a minified chunk, and nothing in a clean one, or the production rows prove
 * nothing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { nodeModulesInClientChunks } from "./production.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function build(chunks: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), "authlib-chunks-"));
  mkdirSync(join(dir, "dist/build"), { recursive: true });
  for (const [name, text] of Object.entries(chunks)) writeFileSync(join(dir, "dist/build", name), text);
  return dir;
}

test("a chunk that imports a node: module, statically or not, or Vite's stub for one, is named", () => {
  const app = build({
    "q-static.js": 'import{createHash as a}from"node:crypto";export const h=a;',
    "q-dynamic.js": 'const m=()=>import("node:fs");export{m};',
    "q-stub.js": 'import"__vite-browser-external";',
    "q-clean.js": 'export const s="node: is a word here";',
    "q-style.css": '@import"node:x";',
  });
  expect(nodeModulesInClientChunks(app).sort()).toEqual(["q-dynamic.js", "q-static.js", "q-stub.js"]);
});
