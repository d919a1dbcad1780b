/**
 * Secrets stay out of logs. Full flows run with `debug: true` — credentials (right, wrong, crashing),
 * session read and update, sign-out, an OIDC sign-in at a real OpenID Provider with an access-token
 * refresh (and a failed one) and a replayed code, an email link read from a real SMTP server (and
 * replayed), a tampered session cookie — once with a logger that records everything it is handed
 * (inspected in depth, causes included) and once with the built-in console logger, while console is
 * captured throughout. None of the OAuth code, the access, refresh and ID tokens, the secret and the keys
 * derived from it, the client secret, the password, the email token, or any cookie value may appear in
 * the captured text, raw or URL-, base64- or base64url-encoded.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { LoggerInstance } from "../../src/types/config.js";
import { closeSharedPglite } from "../helpers/database.js";
import { type FlowServices, runFlows, type Secrets, startFlowServices } from "../helpers/sensitive-flows.js";

let services: FlowServices;

beforeAll(async () => {
  services = await startFlowServices();
}, 120_000);
afterAll(async () => {
  await services?.close();
  await closeSharedPglite();
});

/** Everything a logger is handed, as text: strings as they are, anything else inspected in depth (causes too). */
function asText(args: unknown[]): string {
  return args.map((arg) => (typeof arg === "string" ? arg : inspect(arg, { depth: 10, breakLength: Number.POSITIVE_INFINITY }))).join(" ");
}

/** A logger that records every call at every level. */
function recordingLogger(lines: string[]): LoggerInstance {
  return {
    error: (error) => void lines.push(asText([error])),
    warn: (code) => void lines.push(asText([code])),
    debug: (message, metadata) => void lines.push(asText([message, metadata])),
  };
}

/** Captures console.* while `run` runs. */
async function withConsoleCaptured<T>(lines: string[], run: () => Promise<T>): Promise<T> {
  const spies = (["log", "info", "warn", "error", "debug", "trace"] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(asText(args))),
  );
  try {
    return await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

function expectNoSecret(lines: string[], secrets: Secrets): void {
  const all = lines.join("\n");
  for (const needle of secrets.needles()) {
    if (all.includes(needle)) throw new Error(`a secret reached the logs: ${JSON.stringify(needle.slice(0, 8))}…`);
  }
}

describe("secrets never reach the logs", () => {
  it("a logger given every level, inspected in depth, and console", async () => {
    const logged: string[] = [];
    const printed: string[] = [];
    const secrets = await withConsoleCaptured(printed, () => runFlows(services, { logger: recordingLogger(logged) }));
    // The flows logged: errors (wrong password, crash, replays, failed refresh) and debug lines.
    expect(logged.length).toBeGreaterThan(10);
    expect(logged.some((line) => line.includes("CredentialsSignin"))).toBe(true);
    expect(logged.some((line) => line.includes("Verification"))).toBe(true);
    expect(secrets.values.size).toBeGreaterThan(20);
    expectNoSecret([...logged, ...printed], secrets);
  });

  it("the built-in console logger", async () => {
    const printed: string[] = [];
    const secrets = await withConsoleCaptured(printed, () => runFlows(services));
    expect(printed.some((line) => line.startsWith("[authlib][debug]"))).toBe(true);
    expect(printed.some((line) => line.startsWith("[authlib][error]"))).toBe(true);
    expectNoSecret(printed, secrets);
  });
});
