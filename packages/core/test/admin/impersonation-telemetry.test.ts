/**
 * The request spans of an impersonated session carry `authlib.impersonator`: the acting admin's id, never a
 * token (the telemetry is scanned for the session's cookies); other sessions' spans carry none.
 */
import { describe, expect, test } from "vitest";
import { instanceFor } from "../../src/kernel/auth.js";
import Credentials from "../../src/providers/credentials.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";
import { memoryAdmin } from "../helpers/memory-admin.js";
import { registerInMemorySdk } from "../telemetry/otel-sdk.js";

const sdk = registerInMemorySdk();
const ORIGIN = "http://localhost:3000";

describe("impersonation in the traces", () => {
  test("an impersonated session's spans name the admin by id; no token reaches the telemetry", async () => {
    const memory = memoryAdapter({ sessionRecords: true });
    memory.users.set("admin", { id: "admin", email: "admin@example.com", emailVerified: null, role: "admin" } as never);
    memory.users.set("user", { id: "user", email: "user@example.com", emailVerified: null });
    const config: AuthConfig = {
      secret: "impersonation-telemetry-secret-0123456789",
      trustHost: true,
      adapter: { ...memory.adapter, ...memoryAdmin(memory.users).methods },
      session: { strategy: "database" },
      providers: [
        Credentials({
          credentials: { email: {} },
          authorize: ({ email }) => [...memory.users.values()].find((u) => u.email === email) ?? null,
        }),
      ],
      admin: { roles: ["admin"] },
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
    };
    instanceFor(config);
    const browser = authClient(config, ORIGIN);
    await browser.send("/auth/callback/credentials", { form: { csrfToken: await browser.csrf(), email: "admin@example.com" } });
    sdk.spans.reset();
    await browser.send("/auth/session");
    const own = sdk.finished().filter((span) => span.attributes["http.route"] !== undefined);
    expect(own.length).toBeGreaterThan(0);
    expect(own.some((span) => "authlib.impersonator" in span.attributes)).toBe(false);

    const started = await browser.send("/auth/admin/impersonate", { form: { csrfToken: await browser.csrf(), userId: "user" } });
    expect(started.status).toBe(200);
    sdk.spans.reset();
    expect((await (await browser.send("/auth/session")).json())?.act?.sub).toBe("admin");
    await browser.send("/auth/signin");
    const acting = sdk.finished().filter((span) => span.attributes["http.route"] !== undefined);
    expect(acting.map((span) => [span.attributes["http.route"], span.attributes["authlib.impersonator"]])).toEqual([
      ["/auth/session", "admin"],
      ["/auth/signin", "admin"],
    ]);
    const texts = await sdk.everyText();
    for (const cookie of browser.jar.cookies.values()) if (cookie.value.length > 16) expect(texts).not.toContain(cookie.value);
  });
});
