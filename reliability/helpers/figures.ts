/**
 * The reliability figures artifact, `test-artifacts/reliability.json`: each test file writes its own
 * section (load, fault), with the commit and the machine, so `bench/README.md` can quote one run.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, totalmem } from "node:os";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** Where the figures go. */
export const FIGURES_FILE = fileURLToPath(new URL("../../test-artifacts/reliability.json", import.meta.url));

function commit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/** Merges `figures` into the artifact under `section` (replacing that section), prints them, returns the file's content. */
export function recordFigures(section: string, figures: Record<string, unknown>): Record<string, unknown> {
  let all: Record<string, unknown> = {};
  try {
    all = JSON.parse(readFileSync(FIGURES_FILE, "utf8")) as Record<string, unknown>;
  } catch {
    // No artifact yet (or an unreadable one): start afresh.
  }
  all[section] = {
    at: new Date().toISOString(),
    commit: commit(),
    machine: `${availableParallelism()} × ${cpus()[0]?.model ?? "CPU"}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}`,
    ...figures,
  };
  mkdirSync(dirname(FIGURES_FILE), { recursive: true });
  writeFileSync(FIGURES_FILE, `${JSON.stringify(all, null, 2)}\n`);
  console.log(`[reliability] ${section}: ${JSON.stringify(all[section], null, 2)}`);
  return all;
}
