/**
 * authlib's pages under Qwik Router's (Qwik 2's) Vite dev server, which adds Vite's client, the HMR bridge,
 * the app's stylesheet and inline dev scripts and styles to every HTML response: in development their
 * policy lets those run, every other directive unchanged; a production build (the fixture app, built with
 * the optimizer, `isDev` false) still sends the strict one.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { devPageHeader } from "../src/dev-page-policy.js";
import { type FixtureApp, startFixture } from "./fixture-app.js";
import { request } from "./http.js";

const STRICT =
  "default-src 'none'; style-src 'sha256-abc='; img-src 'self' data: https:; script-src 'self'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'";

test("in development, scripts and styles of the app's origin and inline ones are allowed; nothing else changes", () => {
  expect(devPageHeader("Content-Security-Policy", STRICT)).toBe(
    "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; script-src 'self' 'unsafe-inline'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'",
  );
});

test("every other header is sent as core gave it", () => {
  expect(devPageHeader("X-Frame-Options", "DENY")).toBe("DENY");
  expect(devPageHeader("Location", "/x")).toBe("/x");
});

describe("a production build", () => {
  let app: FixtureApp;
  const previousSecret = process.env.AUTH_SECRET;
  beforeAll(async () => {
    process.env.AUTH_SECRET = "qwik-fixture-secret-0123456789abcdef0123456789";
    app = await startFixture();
  });
  afterAll(async () => {
    await app?.close();
    if (previousSecret === undefined) delete process.env.AUTH_SECRET;
    else process.env.AUTH_SECRET = previousSecret;
  });

  test("sends the built-in page's strict policy", async () => {
    const response = await request(`${app.origin}/api/authlib/signin`);
    expect(response.status).toBe(200);
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toMatch(/style-src 'sha256-[^']+'/);
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toContain("unsafe-inline");
  });
});
