/**
 * authlibServerOnly(): a real Vite client build of a small app fails with the plugin's named message when
 * a Node built-in or a src/server/ module reaches a browser chunk, and passes when neither does. The SSR
 * build of the same code is left alone (that is where server code belongs).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "vite";
import { afterAll, describe, expect, test } from "vitest";
import { authlibServerOnly } from "../src/vite.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A fresh app folder with `src/entry.ts` importing what the test names, and a src/server/db.ts module. */
function app(entry: string): string {
  const root = mkdtempSync(join(tmpdir(), "authlib-vite-plugin-"));
  roots.push(root);
  mkdirSync(join(root, "src/server"), { recursive: true });
  writeFileSync(join(root, "src/server/db.ts"), "export const connect = (url: string) => fetch(url + '/the-database-client');\n");
  writeFileSync(join(root, "src/shared.ts"), "export const greeting = 'hello';\n");
  writeFileSync(join(root, "src/entry.ts"), entry);
  return root;
}

function buildApp(root: string, ssr: boolean) {
  return build({
    root,
    logLevel: "silent",
    configFile: false,
    plugins: [authlibServerOnly()],
    build: {
      ssr: ssr ? join(root, "src/entry.ts") : false,
      write: false,
      minify: false,
      rollupOptions: ssr ? {} : { input: join(root, "src/entry.ts") },
    },
  });
}

describe("authlibServerOnly", () => {
  test("a named import from a node: module fails the build with the named message", async () => {
    const root = app("import { readFileSync } from 'node:fs';\nexport const read = () => readFileSync('x', 'utf8');\n");
    await expect(buildApp(root, false)).rejects.toThrow(
      /\[authlib:server-only\] The client build imports a Node built-in in src\/entry\.ts/,
    );
  });

  test("a default import of a node: module (no Rollup error) is caught in the chunk", async () => {
    const root = app("import fs from 'node:fs';\nexport const read = () => fs.readFileSync('x', 'utf8');\n");
    await expect(buildApp(root, false)).rejects.toThrow(/\[authlib:server-only\] The client chunk .* contains server-only code: .*node:fs/);
  });

  test("a client chunk with a src/server/ module fails the build and names the module", async () => {
    const root = app("import { connect } from './server/db';\nvoid connect('db');\n");
    await expect(buildApp(root, false)).rejects.toThrow(/\[authlib:server-only\] .*src\/server\/db\.ts/);
  });

  test("a client chunk without server-only code builds", async () => {
    const root = app("import { greeting } from './shared';\nconsole.log(greeting);\n");
    const result = await buildApp(root, false);
    const outputs = Array.isArray(result) ? result : [result];
    const code = outputs.flatMap((out) => ("output" in out ? out.output : [])).map((file) => ("code" in file ? file.code : ""));
    expect(code.join("\n")).toContain("hello");
  });

  test("the server build of the same server-only code is not checked", async () => {
    const root = app(
      "import { readFileSync } from 'node:fs';\nimport { connect } from './server/db';\nexport const read = () => connect(readFileSync('x', 'utf8'));\n",
    );
    const result = await buildApp(root, true);
    const outputs = Array.isArray(result) ? result : [result];
    const code = outputs.flatMap((out) => ("output" in out ? out.output : [])).map((file) => ("code" in file ? file.code : ""));
    expect(code.join("\n")).toContain("the-database-client");
  });
});
