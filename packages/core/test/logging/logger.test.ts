/**
 * The built-in logger's lines end with a link to the troubleshooting entry of the error type or warning
 * code, and docs/troubleshooting.md has an entry (a heading whose anchor is the type or code) for every one.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as errors from "../../src/errors.js";
import { CredentialsSignin, MissingSecret, UntrustedHost } from "../../src/errors.js";
import { createLogger, TROUBLESHOOTING_URL } from "../../src/logger.js";
import { WARNING_CODES } from "../helpers/warning-codes.js";

const troubleshooting = readFileSync(join(import.meta.dirname, "../../../../docs/troubleshooting.md"), "utf8");

/** The anchors a code host makes of the Markdown headings: lower case, spaces as `-`, punctuation dropped. */
const anchors = new Set(
  [...troubleshooting.matchAll(/^#{2,4} (.+)$/gm)].map((m) =>
    (m[1] as string)
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9 _-]/g, "")
      .replace(/ /g, "-"),
  ),
);

const warningCodes = WARNING_CODES;

/** The `type` of every built-in error class. */
const errorTypes = Object.values(errors)
  .filter((value): value is typeof errors.AuthError => typeof value === "function" && value.prototype instanceof Error)
  .map((cls) => cls.type);

afterEach(() => vi.restoreAllMocks());

describe("log lines link to their troubleshooting entry", () => {
  it("an AuthError's line ends with the link to its type's entry; other errors get none", () => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    const logger = createLogger({});
    logger.error(new MissingSecret("No secret was set."));
    logger.error(new CredentialsSignin());
    logger.error(new UntrustedHost("Refused a request."));
    logger.error(new TypeError("not ours"));
    logger.error(new TypeError());
    expect(lines).toEqual([
      `[authlib][error] MissingSecret: No secret was set. Read more: ${TROUBLESHOOTING_URL}#missingsecret`,
      `[authlib][error] CredentialsSignin: the credentials were rejected (code credentials) Read more: ${TROUBLESHOOTING_URL}#credentialssignin`,
      `[authlib][error] UntrustedHost: Refused a request. Read more: ${TROUBLESHOOTING_URL}#untrustedhost`,
      "[authlib][error] TypeError: not ours",
      "[authlib][error] TypeError: (no message)",
    ]);
  });

  it("a warning's line ends with the link to its code's entry", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((line: string) => void lines.push(line));
    createLogger({}).warn("trust-host-unrestricted");
    // The texts load with the first warning: the line follows a moment later.
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    expect(lines[0]).toMatch(/^\[authlib\]\[warn\]\[trust-host-unrestricted\] trustHost is on /);
    expect(lines[0]).toMatch(new RegExp(` Read more: ${TROUBLESHOOTING_URL.replace(/[.]/g, "\\.")}#trust-host-unrestricted$`));
  });

  it("a custom logger gets the error itself, without the link", () => {
    const seen: Error[] = [];
    createLogger({ logger: { error: (e) => void seen.push(e) } }).error(new MissingSecret("x"));
    expect(seen[0]?.message).toBe("x");
  });

  it("docs/troubleshooting.md has an entry for every error type and every warning code", () => {
    expect(errorTypes.length).toBeGreaterThan(30);
    const missing = [...errorTypes, ...warningCodes].filter((name) => !anchors.has(name.toLowerCase()));
    expect(missing).toEqual([]);
  });
});
