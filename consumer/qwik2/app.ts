/**
 * Makes the Qwik 2 consumer app: a fresh app from the Qwik 2 starter (`create-qwik` 2.0 beta, `empty`), the
 * packed tarballs installed as the Qwik README's "Qwik 2" section and the guide say, the node-server and
 * cloudflare-pages adapters from the files that ship inside its `@qwik.dev/core`, that section's set-up
 * files and the guide's files (in Qwik 2's names, files.ts) written into it.
 */
import { join } from "node:path";
import { addAdapterFiles } from "../adapters.js";
import {
  addServerOnlyPlugin,
  dropUnusedStarterTools,
  installGuidePackages,
  installWithTarballs,
  listenOnLoopback,
  type PACKAGES,
  run,
  writeAppFiles,
} from "../app.js";
import type { QwikMajor } from "../guide-modes.js";
import { readmeSection, sectionFiles, sectionInstall } from "../readme-section.js";
import { qwik2GuideFiles } from "./files.js";

/** The starter's version: the newest 2.0 beta of `create-qwik` (its app then installs Qwik 2.0.0-beta.45 or newer). */
const CREATE_QWIK2_VERSION = "2.0.0-beta.43";

/** The README's Qwik 2 set-up files. */
export function qwik2ReadmeFiles(): { path: string; text: string }[] {
  return sectionFiles(readmeSection("Qwik 2"));
}

/** The Qwik 2 app as the guide's modes see it: the guide's files in Qwik 2's names, the adapters of its own `@qwik.dev/core`. */
export function qwik2Major(app: string): QwikMajor {
  return { guideFiles: qwik2GuideFiles, starters: join(app, "node_modules/@qwik.dev/core/dist/starters/adapters") };
}

/** Creates the Qwik 2 app in `dir/qwik2-app` and installs the tarballs; returns the app's folder. */
export function createQwik2App(dir: string, tarballs: Record<(typeof PACKAGES)[number], string>): string {
  run("npx", ["--yes", `create-qwik@${CREATE_QWIK2_VERSION}`, "empty", "qwik2-app"], dir);
  const app = join(dir, "qwik2-app");
  dropUnusedStarterTools(app);

  // The README's install line, with each @authlib package replaced by its tarball (the starter installs
  // nothing itself: this installs its dependencies too), then the guide's for the database and the mail.
  installWithTarballs(app, sectionInstall(readmeSection("Qwik 2")), tarballs);
  installGuidePackages(app, tarballs);

  // Both adapters of the guide's step 7, as `qwik add` would add them (their files ship inside @qwik.dev/core).
  for (const adapter of ["node-server", "cloudflare-pages"] as const) addAdapterFiles(app, adapter, qwik2Major(app).starters);
  listenOnLoopback(app);

  // The README's Qwik 2 set-up files, then the guide's (step 7's plugin@auth.ts replaces the README's).
  writeAppFiles(
    app,
    qwik2ReadmeFiles().map((file) => [file.path, file.text] as const),
  );
  writeAppFiles(app, qwik2GuideFiles());
  addServerOnlyPlugin(app);
  return app;
}
