/**
 * docs/getting-started.md followed to the letter: every shell command of the guide is either one the
 * consumer test takes as written (a section qwik-app.test.ts follows step by step, production.ts says how
 * each command runs) or one listed here with the reason the test maps it. A command added to the guide
 * fails this test until the consumer test runs it. And every file the guide shows is one the app gets.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, test } from "vitest";
import { adapterScripts } from "./adapters.js";
import { readmeInstall } from "./app.js";
import { guideBlocks, guideCommands, guideFiles, guideFilesFor, SECTIONS } from "./guide.js";
import { guideSteps, readStep } from "./production.js";
import { QWIK2_RENAMES, qwik2GuideFiles } from "./qwik2/files.js";
import { parsePagesDev } from "./workerd.js";

const app = inject("consumerApp");

/** Commands of the guide the consumer test does not run as written, and what it does instead. */
const MAPPED: Record<string, string> = {
  // Interactive and unpinned: app.ts runs `npx --yes create-qwik@1.20.1 empty app` (the same starter,
  // the version the guide says it was last run with, offline-capable).
  "npm create qwik@latest empty my-app": "create-qwik",
  // The test works in the app's folder (cwd) instead.
  "cd my-app": "cwd",
  // The README's install line, which app.ts runs with the tarballs in place of the packages (checked below).
  "npm install -D @authlib/qwik @authlib/core": "readme-install",
  // A real GitHub OAuth app cannot be made in CI: step 7's OpenID provider (`AUTH_SSO_*`) is pointed at the
  // local OP instead, the same env-filled way.
  'echo "AUTH_GITHUB_ID=…" >> .env': "github",
  'echo "AUTH_GITHUB_SECRET=…" >> .env': "github",
};

describe("the guide's commands", () => {
  const followed = Object.values(SECTIONS).flatMap((section) => guideCommands(section));

  test("every command is followed by the consumer test or mapped here with its reason", () => {
    const all = guideBlocks()
      .filter((block) => block.lang === "sh")
      .flatMap((block) => block.text.split("\n"))
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#"));
    expect(all.filter((command) => !followed.includes(command) && !(command in MAPPED))).toEqual([]);
    // And nothing mapped is gone from the guide (the table would hide a change).
    expect(Object.keys(MAPPED).filter((command) => !all.includes(command))).toEqual([]);
  });

  test("every followed command is one the consumer test knows how to take", () => {
    for (const command of followed) expect(() => readStep(command), command).not.toThrow();
  });

  test("step 1's install line is the README's, which the app is installed with", () => {
    expect(guideCommands("1. An app and the packages")).toContain(`npm install ${readmeInstall().join(" ")}`);
  });

  test("each production section adds its adapter, builds with `npm run build` and serves as its adapter says", () => {
    expect(guideSteps(SECTIONS.node).map((step) => step.kind)).toEqual(["add-adapter", "build", "node"]);
    expect(guideSteps(SECTIONS.cloudflare).map((step) => step.kind)).toEqual([
      "add-adapter",
      "install",
      "shell",
      "build",
      "var",
      "var",
      "var",
      "serve",
    ]);
    // The node command runs the adapter's own server entry; `npm run serve` is wrangler pages dev on ./dist.
    const node = guideSteps(SECTIONS.node).find((step) => step.kind === "node");
    expect(node && "command" in node ? node.command : "").toMatch(
      new RegExp(`${adapterScripts("node-server").serve.replace(/^node /, "")}$`),
    );
    expect(parsePagesDev(adapterScripts("cloudflare-pages").serve)).toEqual({ dir: "./dist", compatibilityFlags: ["nodejs_als"], kv: [] });
  });

  test("development is `npm run dev` with `.env`, the starter's `vite --mode ssr` (what server.ts starts)", () => {
    expect(guideSteps(SECTIONS.pages)).toEqual([{ kind: "dev" }]);
    expect(JSON.parse(readFileSync(join(app, "package.json"), "utf8")).scripts.dev).toBe("vite --mode ssr");
  });
});

describe("the guide's files", () => {
  test("every file the guide shows is in the app as written (the Cloudflare one while the Cloudflare build is made)", () => {
    const inApp = guideFilesFor();
    for (const [path, text] of inApp) expect(readFileSync(join(app, path), "utf8"), path).toBe(text);
    const variants = guideFiles().filter((file) => file.variant !== undefined);
    expect(variants.map((file) => `${file.path} (${file.variant})`)).toEqual([
      "src/server/kv.ts (Cloudflare)",
      "src/routes/plugin@auth.ts (Cloudflare)",
    ]);
    // Every unqualified file is the last of its path: the app has the guide's final word on each.
    expect([...inApp.keys()].sort()).toEqual(["src/routes/plugin@auth.ts", "src/server/db.ts", "src/server/users.ts"]);
  });
});

describe("the guide's Qwik 2 section", () => {
  test("names every change the Qwik 2 app's files get, and those leave no Qwik 1 name in them", () => {
    const guide = readFileSync(join(import.meta.dirname, "../docs/getting-started.md"), "utf8");
    const section = guide.slice(guide.indexOf("\n## Qwik 2\n"), guide.indexOf("\n## Next\n"));
    for (const [from, to] of QWIK2_RENAMES) expect(section, from).toMatch(new RegExp(`\`${from}\`[^\`]*\`${to}\``));
    for (const variant of [undefined, "Cloudflare"])
      for (const [path, text] of qwik2GuideFiles(variant))
        expect(text, path).not.toMatch(/@builder\.io|QwikCityPlatform|["']@authlib\/qwik["']/);
    expect(qwik2GuideFiles().get("src/routes/plugin@auth.ts")).toContain('from "@authlib/qwik/qwik2"');
  });
});
