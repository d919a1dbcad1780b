/**
 * Makes the Qwik 2 consumer app: a fresh app from the Qwik 2 starter (`create-qwik` 2.0 beta, `empty`), the
 * node-server adapter from the files that ship inside its `@qwik.dev/core`, the packed tarballs installed as
 * the Qwik README's "Qwik 2" section says, and that section's set-up files written into it verbatim.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installWithTarballs, type PACKAGES, run, UNUSED_STARTER_TOOLS, writeAppFiles } from "../app.js";
import { readmeSection, sectionFiles, sectionInstall } from "../readme-section.js";

/** The starter's version: the newest 2.0 beta of `create-qwik` (its app then installs Qwik 2.0.0-beta.45 or newer). */
const CREATE_QWIK2_VERSION = "2.0.0-beta.43";
/** Replaces `find` in the app's file, or fails naming the starter file that changed. */
function patch(app: string, file: string, find: string, replace: string): void {
  const path = join(app, file);
  const text = readFileSync(path, "utf8");
  if (!text.includes(find)) throw new Error(`the Qwik 2 starter's ${file} changed: see consumer/qwik2/app.ts`);
  writeFileSync(path, text.replace(find, replace));
}

/** Creates the Qwik 2 app in `dir/qwik2-app` and installs the tarballs; returns the app's folder. */
export function createQwik2App(dir: string, tarballs: Record<(typeof PACKAGES)[number], string>): string {
  run("npx", ["--yes", `create-qwik@${CREATE_QWIK2_VERSION}`, "empty", "qwik2-app"], dir);
  const app = join(dir, "qwik2-app");
  const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
  for (const name of Object.keys(manifest.devDependencies)) if (UNUSED_STARTER_TOOLS.test(name)) delete manifest.devDependencies[name];
  writeFileSync(join(app, "package.json"), JSON.stringify(manifest, null, 2));

  // The README's install line, with each @authlib package replaced by its tarball (the starter installs
  // nothing itself: this installs its dependencies too).
  const section = readmeSection("Qwik 2");
  installWithTarballs(app, sectionInstall(section), tarballs);

  // The node-server adapter, as `qwik add node-server` would add it (its files ship inside @qwik.dev/core).
  const adapter = join(app, "node_modules/@qwik.dev/core/dist/starters/adapters/node-server");
  cpSync(join(adapter, "adapters"), join(app, "adapters"), { recursive: true });
  cpSync(join(adapter, "src"), join(app, "src"), { recursive: true });
  // The one change to the starter's code: its server listens on every interface; the test's, on loopback only.
  patch(app, "src/entry.node-server.tsx", "server.listen(PORT, ", 'server.listen(Number(PORT), "127.0.0.1", ');

  writeAppFiles(
    app,
    sectionFiles(section).map((file) => [file.path, file.text] as const),
  );
  // The guide's Vite plugin: the client build fails if server-only code reaches it.
  patch(app, "vite.config.ts", "plugins: [", "plugins: [authlibServerOnly(), ");
  patch(app, "vite.config.ts", "import { defineConfig", 'import { authlibServerOnly } from "@authlib/qwik/vite";\nimport { defineConfig');
  // The app's own user store the README's plugin@auth.ts imports (not part of the docs).
  cpSync(join(import.meta.dirname, "../fixture/src"), join(app, "src"), { recursive: true });
  return app;
}
