import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

describe("public types", () => {
  it("Session, User and JWT can be extended by module augmentation; the database session callback gets expires as a Date; skipCSRFCheck takes only the exported marker (tsc on fixtures)", () => {
    const project = fileURLToPath(new URL("../types/tsconfig.json", import.meta.url));
    let output = "";
    try {
      execFileSync("npx", ["tsc", "-p", project], { encoding: "utf8", stdio: "pipe" });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe("");
  }, 60_000);
});
