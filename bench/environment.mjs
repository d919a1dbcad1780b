// What a bench run belongs to: the commit it measured and the machine it ran on, for the header of the
// tables (`npm run bench` and the benches that also run alone), so a recorded figure can be traced.
import { execFileSync } from "node:child_process";
import { cpus, totalmem } from "node:os";

/** The short commit of the working tree, marked when it has uncommitted changes to tracked files. */
export function commit() {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim();
    return dirty ? `${sha} (with uncommitted changes)` : sha;
  } catch {
    return "unknown";
  }
}

/** The machine in one line: cores × CPU model, memory, platform. */
export function machine() {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GB RAM, ${process.platform}`;
}
