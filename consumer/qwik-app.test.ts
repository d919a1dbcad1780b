/**
 * The fresh Qwik City app, set up as the Qwik README and docs/getting-started.md say, driven in Chromium
 * in `vite` dev mode, as the guide's Node server build and as its Cloudflare Pages build on workerd: every
 * flow of flows.ts in each (guide-modes.ts). The production builds are made by following the guide's
 * sections command by command (production.ts), and neither may put a `node:` module into a client chunk.
 */
import { expect, inject, test } from "vitest";
import { readmeFiles } from "./app.js";
import { QWIK1, registerGuideModes, typeCheckWithReadme } from "./guide-modes.js";

const app = inject("consumerApp");

registerGuideModes(app, QWIK1);

test("the set-up type-checks in the app (the starter's `build.types`), the README's own plugin@auth.ts too", () => {
  const { output, status } = typeCheckWithReadme(app, readmeFiles());
  expect(output).toBe("");
  expect(status).toBe(0);
});
