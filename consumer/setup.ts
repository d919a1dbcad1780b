/**
 * Global set-up of the consumer test: packs the packages and makes the app once (about a minute, mostly
 * `npm install`); the temp folder is removed at the end.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { createApp, packPackages } from "./app.js";

declare module "vitest" {
  export interface ProvidedContext {
    consumerApp: string;
  }
}

export default function setup(project: TestProject): (() => void) | undefined {
  // For work on the test itself: an app made by an earlier run (kept, not re-made).
  if (process.env.AUTHLIB_CONSUMER_APP) {
    project.provide("consumerApp", process.env.AUTHLIB_CONSUMER_APP);
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), "authlib-consumer-"));
  try {
    const tarballs = packPackages(join(dir, "packs"));
    project.provide("consumerApp", createApp(dir, tarballs));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
