/**
 * API keys in OpenTelemetry: with an SDK registered (in-memory exporters), making, rotating, verifying and
 * refusing keys over HTTP and `auth.api` leaves no key and no secret part in any span (name, attribute,
 * event, status) or metric; a verification's span names the key by its public id only.
 */
import { afterAll, describe, expect, it } from "vitest";
import { registerInMemorySdk } from "../telemetry/otel-sdk.js";
import { apiKeysApp, postJson } from "./helpers.js";

const sdk = registerInMemorySdk();
afterAll(() => sdk.shutdown());

describe("API keys and the telemetry", () => {
  it("no key or secret in any span or metric; the verify span carries the key id", async () => {
    const app = apiKeysApp();
    const ada = await app.signedUp("ada@example.com");
    const keys: string[] = [];
    const made = await postJson(ada, "create", { name: "http", scopes: "projects:read" });
    keys.push(made.body.key);
    keys.push((await app.auth.api.rotateApiKey(app.as(ada), { keyId: made.body.apiKey.id })).key);
    keys.push((await app.auth.api.createApiKey(app.as(ada), { name: "api" })).key);
    const http = app.browser();
    for (const key of keys) {
      await http.send("/auth/api-keys/verify?scopes=projects:read", { headers: { authorization: `Bearer ${key}` } });
      await http.send("/auth/api-keys/verify", { headers: { "x-api-key": key } });
      await http.send("/auth/api-keys/verify", { headers: { authorization: `Bearer ${key.slice(0, -1)}x` } });
      await app.auth.api.verifyApiKey(app.bearing(key)).catch(() => undefined);
    }
    const text = await sdk.everyText();
    expect(text).toContain("api-keys/verify");
    for (const key of keys) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(21, 53));
    }
    const verifySpans = sdk.allFinished().filter((span) => JSON.stringify(span.attributes).includes("authlib.api_key.id"));
    expect(verifySpans.length).toBeGreaterThan(0);
    const ids = new Set(verifySpans.map((span) => span.attributes["authlib.api_key.id"]));
    for (const id of ids) expect(String(id)).toMatch(/^[0-9A-Za-z]{16}$/);
  }, 120_000);
});
