/**
 * Each organization's sign-in policy, checked whenever a session acts there: a second factor, the sign-in
 * methods it allows, how old a sign-in may be. A session that meets A's policy is refused by B until it
 * meets B's; the refusal says what is missing and where to step up.
 */
import * as OTPAuth from "otpauth";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import { type Browser, getJson, organizationsApp, post, postJson } from "./helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

const PASSWORD = "a long password 1234";

function codeOf(secret: string): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate();
}

const requestOf = (browser: Browser) => new Request(`${browser.origin}/app`, { headers: { cookie: browser.jar.header() } });

describe("an organization's policy", () => {
  it("refuses a one-factor session where a second factor is required, and lets it in after the step-up", async () => {
    const app = organizationsApp({ twoFactor: {} });
    const auth = createAuth(app.config);
    const ada = await app.signedUp("ada@example.com");
    const a = (await postJson(ada, "create", { name: "Secure", slug: "secure" })).body.organization.id as string;
    expect((await postJson(ada, "update", { organizationId: a, policy: JSON.stringify({ requireSecondFactor: true }) })).status).toBe(200);

    // Ada's own session has one factor: the organization now refuses it, saying what is missing and where to go.
    const refused = await getJson(ada, "get", { organizationId: a });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "OrganizationPolicy", missing: ["secondFactor"] });
    const stepUp = new URL(refused.body.stepUp as string);
    expect(stepUp.pathname).toBe("/auth/signin");
    expect(stepUp.searchParams.get("callbackUrl")).toBe(`http://localhost:3000/auth/organization?organizationId=${a}`);
    // Nor can it become her active organization; listing hers is not acting in it.
    expect((await postJson(ada, "active", { organizationId: a })).body.error).toBe("OrganizationPolicy");
    expect((await getJson(ada, "list")).body.organizations).toHaveLength(1);
    await expect(auth.api.getOrganization(requestOf(ada), { organizationId: a })).rejects.toMatchObject({ type: "OrganizationPolicy" });

    // The step-up: a second factor turned on, then a sign-in with both.
    const enrollment = await auth.api.enrollTotp(requestOf(ada));
    await auth.api.confirmTotp(requestOf(ada), { code: codeOf(enrollment.secret) });
    const again = app.browser();
    const first = await post(again, "/auth/callback/password", { email: "ada@example.com", password: PASSWORD, callbackUrl: "/" });
    expect(first.headers.get("location")).toContain("/auth/two-factor");
    await post(again, "/auth/two-factor", { code: codeOf(enrollment.secret) });
    expect((await getJson(again, "get", { organizationId: a })).body).toMatchObject({ role: "owner" });
    expect(await auth.api.getOrganization(requestOf(again), { organizationId: a })).toMatchObject({ role: "owner" });
  });

  it("a session that satisfies A's sign-in methods is refused by B, which allows others", async () => {
    const app = organizationsApp();
    const ada = await app.signedUp("ada@example.com");
    const a = (await postJson(ada, "create", { name: "A", slug: "org-a" })).body.organization.id as string;
    const b = (await postJson(ada, "create", { name: "B", slug: "org-b" })).body.organization.id as string;
    await postJson(ada, "update", { organizationId: a, policy: JSON.stringify({ allowedSignInMethods: ["password", "passkey"] }) });
    await postJson(ada, "update", { organizationId: b, policy: JSON.stringify({ allowedSignInMethods: ["sso"] }) });
    expect((await getJson(ada, "get", { organizationId: a })).status).toBe(200);
    expect((await postJson(ada, "active", { organizationId: a })).status).toBe(200);
    expect((await getJson(ada, "get", { organizationId: b })).body).toMatchObject({
      error: "OrganizationPolicy",
      missing: ["signInMethod"],
    });
    expect((await postJson(ada, "active", { organizationId: b })).body).toMatchObject({ error: "OrganizationPolicy" });
    expect(await ada.session()).toMatchObject({ activeOrganizationId: a });
    // A permission check in B is refused as acting there is.
    expect((await getJson(ada, "permission", { organizationId: b, permission: "organization:read" })).body.error).toBe(
      "OrganizationPolicy",
    );
  });

  it("refuses a sign-in older than the organization's sessionMaxAge", async () => {
    const app = organizationsApp();
    const ada = await app.signedUp("ada@example.com");
    const a = (await postJson(ada, "create", { name: "A", slug: "org-a" })).body.organization.id as string;
    await postJson(ada, "update", { organizationId: a, policy: JSON.stringify({ sessionMaxAge: 600 }) });
    expect((await getJson(ada, "get", { organizationId: a })).status).toBe(200);
    vi.useFakeTimers({ now: Date.now() + 601 * 1000, toFake: ["Date"] });
    expect((await getJson(ada, "get", { organizationId: a })).body).toMatchObject({
      error: "OrganizationPolicy",
      missing: ["recentSignIn"],
    });
  });

  it("refuses a policy that is not one", async () => {
    const app = organizationsApp();
    const ada = await app.signedUp("ada@example.com");
    const a = (await postJson(ada, "create", { name: "A", slug: "org-a" })).body.organization.id as string;
    for (const policy of [
      "not json",
      "[]",
      '{"requireSecondFactor":"yes"}',
      '{"allowedSignInMethods":["telepathy"]}',
      '{"sessionMaxAge":5}',
    ])
      expect([policy, await postJson(ada, "update", { organizationId: a, policy })]).toEqual([
        policy,
        { status: 400, body: { error: "InvalidOrganization" } },
      ]);
  });
});
