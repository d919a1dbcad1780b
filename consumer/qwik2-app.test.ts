/**
 * A fresh Qwik 2 app (the 2.0 beta starter), set up as the Qwik README's "Qwik 2" section and the guide say
 * (the guide's files in Qwik 2's names, `@authlib/qwik/qwik2`), driven in Chromium exactly as the Qwik 1
 * app is (guide-modes.ts): in `vite` dev mode, as the guide's Node server build and as its Cloudflare Pages
 * build on workerd, every flow of flows.ts in each, and no `node:` module in a client chunk of either build.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, inject, test } from "vitest";
import { registerGuideModes, typeCheckWithReadme } from "./guide-modes.js";
import { qwik2Major, qwik2ReadmeFiles } from "./qwik2/app.js";

const app = inject("consumerQwik2App");

/** The version of a package installed in the app (throws when it is not installed). */
function installedVersion(name: string): string {
  return JSON.parse(readFileSync(join(app, "node_modules", name, "package.json"), "utf8")).version;
}

test("the app runs Qwik 2 and @authlib/qwik/qwik2, without Qwik 1", () => {
  expect(installedVersion("@qwik.dev/core")).toMatch(/^2\./);
  expect(installedVersion("@qwik.dev/router")).toMatch(/^2\./);
  expect(() => installedVersion("@builder.io/qwik")).toThrow();
  expect(() => installedVersion("@builder.io/qwik-city")).toThrow();
  expect(readFileSync(join(app, "src/routes/plugin@auth.ts"), "utf8")).toContain('from "@authlib/qwik/qwik2"');
});

registerGuideModes(app, qwik2Major(app));

test("the set-up type-checks in the app (the starter's `build.types`), the README's Qwik 2 plugin@auth.ts too", () => {
  const { output, status } = typeCheckWithReadme(app, qwik2ReadmeFiles());
  expect(output).toBe("");
  expect(status).toBe(0);
});
