/**
 * One name per browser (issue 50): the devices list (`session/device.ts`) and the audit trail
 * (`audit/client.ts`) call the same browser the same thing, headless Chromium included (the demo showed
 * "Linux device" on one page and "Chrome on Linux" on another for one browser).
 */
import { describe, expect, it } from "vitest";
import { userAgentLabel } from "../../src/audit/client.js";
import { describeUserAgent } from "../../src/session/device.js";

const AGENTS: ReadonlyArray<[string, string]> = [
  ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36", "Chrome on Linux"],
  ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "Chrome on Linux"],
  [
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
    "Safari on macOS",
  ],
  ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on Windows"],
  [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0 Mobile/15E148 Safari/604.1",
    "Chrome on iOS",
  ],
  ["Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", "Chrome on ChromeOS"],
];

describe("device names", () => {
  it.each(AGENTS)("%s is %s on the devices list and in the audit trail", (agent, name) => {
    expect(describeUserAgent(agent)).toBe(name);
    expect(userAgentLabel(agent)).toBe(name);
  });

  it("a client that is no browser keeps the audit trail's name for it", () => {
    expect(userAgentLabel("curl/8.5.0")).toBe("curl");
    expect(userAgentLabel(null)).toBeNull();
  });
});
