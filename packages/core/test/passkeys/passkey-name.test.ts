/**
 * A passkey's name (passkeys/name.ts): the rules of a name the user gives, and the default a new passkey
 * gets from its authenticator's AAGUID or the day.
 */
import { describe, expect, it } from "vitest";
import { InvalidName } from "../../src/errors.js";
import { defaultPasskeyName, MAX_PASSKEY_NAME_LENGTH, passkeyName } from "../../src/webauthn/passkey-name.js";

describe("passkeyName", () => {
  it("trims and NFC-normalises; an @ is fine (a passkey's name is not a user's display name)", () => {
    expect(passkeyName("  Work laptop \t")).toBe("Work laptop");
    expect(passkeyName("Cafe\u0301")).toBe("Café");
    expect(passkeyName("Phone @home")).toBe("Phone @home");
    expect(passkeyName("x".repeat(MAX_PASSKEY_NAME_LENGTH))).toHaveLength(64);
    // Characters, not UTF-16 units: 64 emoji are 64 characters.
    expect([...passkeyName("🔑".repeat(64))]).toHaveLength(64);
  });

  it.each([
    ["missing", undefined, "Give the passkey a name."],
    ["not text", 42, "Give the passkey a name."],
    ["blank", " \u00a0 ", "Give the passkey a name."],
    ["65 characters", "x".repeat(65), "A passkey's name has at most 64 characters."],
    ["a new line", "two\nlines", "A passkey's name is one line of text."],
    ["a line separator", "two\u2028lines", "A passkey's name is one line of text."],
    ["a control character", "bell\u0007", "A passkey's name is one line of text."],
  ])("refuses a name %s as InvalidName", (_case, input, message) => {
    expect(() => passkeyName(input)).toThrow(InvalidName);
    expect(() => passkeyName(input)).toThrow(message);
  });
});

describe("defaultPasskeyName", () => {
  const now = new Date("2026-11-28T23:59:59.000Z");

  it.each([
    ["fbfc3007-154e-4ecc-8c0b-6e020557d7bd", "iCloud Keychain"],
    ["EA9B8D66-4D01-1D21-3CE4-B6B48CB575D4", "Google Password Manager"],
    ["08987058-cadc-4b81-b6e1-30de50dcbe96", "Windows Hello"],
    ["bada5566-a7aa-401f-bd96-45619a55120d", "1Password"],
  ])("names a well-known authenticator %s after its maker", (aaguid, name) => {
    expect(defaultPasskeyName(aaguid, now)).toBe(name);
  });

  it("else 'Passkey' and the day in UTC: an unknown or all-zero AAGUID, none, or an inherited key", () => {
    for (const aaguid of [
      "00000000-0000-0000-0000-000000000000",
      "0ea242b4-0000-0000-0000-000000000000",
      undefined,
      "__proto__",
      "constructor",
    ]) {
      expect(defaultPasskeyName(aaguid, now)).toBe("Passkey 2026-11-28");
    }
  });
});
