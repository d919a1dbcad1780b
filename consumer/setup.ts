/**
 * Global set-up of the consumer test: packs the packages and makes the app once (about a minute, mostly
 * `npm install`); the temp folder is removed at the end.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { createApp, packPackages } from "./app.js";
import { createQwik2App } from "./qwik2/app.js";

declare module "vitest" {
  export interface ProvidedContext {
    consumerApp: string;
    consumerQwik2App: string;
  }
}

export default function setup(project: TestProject): (() => void) | undefined {
  // For work on the test itself: an app made by an earlier run (kept, not re-made), per Qwik major.
  const reused = process.env.AUTHLIB_CONSUMER_APP;
  const reusedQwik2 = process.env.AUTHLIB_CONSUMER_QWIK2_APP;
  if (reused) project.provide("consumerApp", reused);
  if (reusedQwik2) project.provide("consumerQwik2App", reusedQwik2);
  if (reused && reusedQwik2) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "authlib-consumer-"));
  try {
    const tarballs = packPackages(join(dir, "packs"));
    if (!reused) project.provide("consumerApp", createApp(dir, tarballs));
    if (!reusedQwik2) project.provide("consumerQwik2App", createQwik2App(dir, tarballs));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
