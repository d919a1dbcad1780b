/**
 * The Password() enumeration bench (bench/password-enumeration.mjs) on a tiny run (`--quick`: one request
 * per slice, two rounds): it must start its app (PGlite, SMTP server, built packages), send every request,
 * find the answers for known and unknown addresses identical and exit 0. No timing is asserted.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

it("runs to the end and finds the answers for known and unknown addresses identical", { timeout: 180_000 }, async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ["bench/password-enumeration.mjs", "--quick"], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(stdout).toContain("Answers identical for known and unknown addresses");
  expect(stdout).not.toContain("ANSWERS DIFFER");
  for (const operation of ["sign-up", "reset request", "sign-in"]) expect(stdout).toMatch(new RegExp(`^\\| ${operation} \\(`, "m"));
});
