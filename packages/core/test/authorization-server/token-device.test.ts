/**
 * The device code grant (RFC 8628 §3.4, §3.5) at the token endpoint in process, through `Auth()` on the
 * in-memory store: each state of a device code answers its own error, the polling interval is kept (and
 * raised by each `slow_down`), and an approved code gives its tokens once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseRefreshToken } from "../../src/features/authorization-server/tokens.js";
import { API_B, claimsOf, DEVICE, tokenApp } from "./token-app.js";

let app: Awaited<ReturnType<typeof tokenApp>>;

beforeEach(async () => {
  app = await tokenApp();
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

const poll = (deviceCode: unknown, client = "cli") => app.token({ grant_type: DEVICE, device_code: deviceCode }, client);
const approved = { status: "approved" as const, authTime: 1_700_000_000, aal: 2, amr: ["pwd", "otp"] };

describe("polling a device code", () => {
  it("refuses a request without a device code (invalid_request) and an unknown one (invalid_grant)", async () => {
    expect(await app.token({ grant_type: DEVICE }, "cli")).toMatchObject({
      status: 400,
      body: { error: "invalid_request", error_description: "The device_code is missing." },
    });
    expect(await poll("")).toMatchObject({ body: { error: "invalid_request" } });
    expect(await poll("no-such-code")).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: "The device code is not valid." },
    });
  });

  it("refuses another client's device code (invalid_grant), even an approved one, and gives it nothing", async () => {
    const code = await app.deviceCode({ ...approved, userId: app.userId });
    expect(await poll(code, "cli-2")).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await app.storedDevice(code))?.status).toBe("approved");
    expect(app.oauth.grants.size).toBe(0);
  });

  it("a pending code answers authorization_pending and records the poll", async () => {
    const code = await app.deviceCode();
    expect(await poll(code)).toMatchObject({
      status: 400,
      body: { error: "authorization_pending", error_description: "The user has not approved the request yet." },
    });
    expect(await app.storedDevice(code)).toMatchObject({ status: "pending", interval: 5, lastPolledAt: new Date(Date.now()) });
  });

  it("polling again before the interval is slow_down, and each one raises the interval by 5 seconds", async () => {
    const start = Date.now();
    const code = await app.deviceCode({ lastPolledAt: new Date(start) });
    vi.setSystemTime(start + 4999);
    expect(await poll(code)).toMatchObject({
      status: 400,
      body: { error: "slow_down", error_description: "Poll at most every 10 seconds." },
    });
    expect(await app.storedDevice(code)).toMatchObject({ interval: 10, lastPolledAt: new Date(start + 4999) });
    vi.setSystemTime(start + 4999 + 9999);
    expect(await poll(code)).toMatchObject({ body: { error: "slow_down", error_description: "Poll at most every 15 seconds." } });
    expect((await app.storedDevice(code))?.interval).toBe(15);
  });

  it("a poll exactly one interval after the last one is on time: authorization_pending, the interval kept", async () => {
    const start = Date.now();
    const code = await app.deviceCode({ lastPolledAt: new Date(start) });
    vi.setSystemTime(start + 5000);
    expect(await poll(code)).toMatchObject({ body: { error: "authorization_pending" } });
    expect(await app.storedDevice(code)).toMatchObject({ interval: 5, lastPolledAt: new Date(start + 5000) });
  });

  it("a denied code answers access_denied", async () => {
    const code = await app.deviceCode({ status: "denied", userId: app.userId });
    expect(await poll(code)).toMatchObject({
      status: 400,
      body: { error: "access_denied", error_description: "The user denied the request." },
    });
    expect((await app.storedDevice(code))?.status).toBe("denied");
  });

  it("a code works until the instant it expires, then answers expired_token whatever its state", async () => {
    const now = Date.now();
    const live = await app.deviceCode({ expiresAt: new Date(now + 1) });
    expect((await poll(live)).body.error).toBe("authorization_pending");
    for (const fields of [{}, { ...approved, userId: app.userId }, { status: "denied" as const }]) {
      const code = await app.deviceCode({ ...fields, expiresAt: new Date(now) });
      expect(await poll(code)).toMatchObject({
        status: 400,
        body: { error: "expired_token", error_description: "The device code has expired: start again." },
      });
    }
    expect(app.oauth.grants.size).toBe(0);
  });
});

describe("an approved device code", () => {
  it("gives its tokens once: a grant of its scopes and resources for the user who approved, the code then used", async () => {
    const code = await app.deviceCode({ ...approved, userId: app.userId, scopes: ["openid", "email"] });
    const answer = await poll(code);
    expect(answer).toMatchObject({ status: 200, body: { token_type: "Bearer", scope: "openid email" } });
    expect(answer.body).not.toHaveProperty("refresh_token");
    const [grant] = [...app.oauth.grants.values()];
    expect(grant).toMatchObject({
      userId: app.userId,
      clientId: "cli",
      scopes: ["openid", "email"],
      resources: [API_B],
      authTime: 1_700_000_000,
      aal: 2,
      amr: ["pwd", "otp"],
      refreshable: false,
    });
    expect(claimsOf(answer.body.access_token)).toMatchObject({ sub: app.userId, aud: API_B, grant_id: grant?.id, client_id: "cli" });
    expect(claimsOf(answer.body.id_token)).toMatchObject({
      sub: app.userId,
      aud: "cli",
      acr: "urn:authlib:aal2",
      email: "ada@example.com",
    });
    expect((await app.storedDevice(code))?.status).toBe("used");
    expect(await poll(code)).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: "The device code was used already." },
    });
    expect(app.oauth.grants.size).toBe(1);
  });

  it("gives a refresh token of generation 0 to a client allowed refresh tokens that asked offline_access", async () => {
    const code = await app.deviceCode({ ...approved, userId: app.userId, clientId: "cli-2", scopes: ["offline_access"] });
    const answer = await poll(code, "cli-2");
    expect(parseRefreshToken(answer.body.refresh_token)).toMatchObject({ generation: 0, grantId: [...app.oauth.grants.keys()][0] });
  });

  it("a used code is refused as used without a write to the store, whatever it holds", async () => {
    const code = await app.deviceCode({ ...approved, status: "used", userId: null });
    const writes: string[] = [];
    const update = app.oauth.methods.updateOAuthDeviceCode;
    app.adapter.updateOAuthDeviceCode = (hash, expected, change) => {
      writes.push(expected);
      return update(hash, expected, change);
    };
    expect(await poll(code)).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: "The device code was used already." },
    });
    expect(writes).toEqual([]);
    expect(app.oauth.grants.size).toBe(0);
  });

  it("an approval without its level or methods counts as one factor, none named", async () => {
    const code = await app.deviceCode({ status: "approved", userId: app.userId, authTime: 1, aal: null, amr: null });
    expect((await poll(code)).status).toBe(200);
    expect([...app.oauth.grants.values()][0]).toMatchObject({ aal: 1, amr: [] });
  });

  it("an approved code that names no user or no sign-in time is refused (invalid_grant) and gives nothing", async () => {
    for (const fields of [
      { ...approved, userId: null },
      { ...approved, userId: app.userId, authTime: null },
    ]) {
      const code = await app.deviceCode(fields);
      expect(await poll(code)).toMatchObject({
        status: 400,
        body: { error: "invalid_grant", error_description: "The device code is not valid." },
      });
      expect((await app.storedDevice(code))?.status).toBe("approved");
    }
    expect(app.oauth.grants.size).toBe(0);
  });

  it("two polls at once: the one that loses the compare-and-set gets invalid_grant and no grant", async () => {
    const code = await app.deviceCode({ ...approved, userId: app.userId });
    const update = app.oauth.methods.updateOAuthDeviceCode;
    app.adapter.updateOAuthDeviceCode = async (hash, expected, change) => {
      await update(hash, expected, change);
      return update(hash, expected, change);
    };
    expect(await poll(code)).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: "The device code was used already." },
    });
    expect(app.oauth.grants.size).toBe(0);
  });
});
