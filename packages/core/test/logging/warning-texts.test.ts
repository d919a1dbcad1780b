/**
 * What the built-in logger says for each warning code (warning-texts.ts): a text of its own for every
 * code, so an operator reading the line learns what happened and what to do. The module loads with the
 * first warning, so each test loads it afresh (mutation group `warnings`).
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { WarningCode } from "../../src/types/config.js";
import { WARNING_CODES } from "../helpers/warning-codes.js";

const warningCodes = WARNING_CODES;

async function load() {
  return import("../../src/warning-texts.js");
}

beforeEach(() => {
  vi.resetModules();
});

describe("warning texts", () => {
  it("every code has a sentence of its own", async () => {
    const { warningText } = await load();
    const texts = warningCodes.map((code) => warningText(code));
    for (const text of texts) expect(text).toMatch(/^\S.{20,}\.$/);
    expect(new Set(texts).size).toBe(warningCodes.length);
  });

  it("the texts name what to do about it", async () => {
    const { warningText } = await load();
    expect(warningText("generated-dev-secret")).toContain("Set AUTH_SECRET in production.");
    expect(warningText("sessions-not-ended")).toContain("no registry and the adapter has no deleteSessionsByUserId");
    expect(warningText("rate-limit-memory-store")).toContain("Set rateLimit.store to a shared store");
  });

  it("a code this version does not know has no text", async () => {
    const { warningText } = await load();
    expect(warningText("no-such-warning" as WarningCode)).toBe("");
  });
});
