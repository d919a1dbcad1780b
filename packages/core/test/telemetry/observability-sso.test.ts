/**
 * OpenTelemetry traces over enterprise SSO (issue 49), with the real SDK and its in-memory exporters: an
 * OIDC connection's sign-in against a real OP (discovery by address, start, callback), a forged callback,
 * a SAML response refused (a request started, an answer that is not a SAML response), and SCIM changes
 * (provision, deactivate). Each request span carries its route, action, outcome and, on a refusal, the error
 * type and the SSO refusal's reason type; the audit rows name the same reason. No span or metric holds an
 * address, a subject, a client secret, a SAML response, a SCIM token or a cookie.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTxtServer, type TxtServer } from "../helpers/dns-server.js";
import { DEFAULT_USERS, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { certificateBody, createSigningIdentity } from "../helpers/saml-fixture.js";
import { oidcInput, post, ssoApp, ssoJson } from "../sso/helpers.js";
import { flowTelemetry, ORIGIN } from "./flow-telemetry.js";
import { registerInMemorySdk } from "./otel-sdk.js";

const sdk = registerInMemorySdk();
const secret = "sso-secret-0123456789abcdef-0123456789!!";
const { remember, rememberJar, lastRequestSpan, expectRequestSpan, describeScan } = flowTelemetry(sdk, secret);

const CLIENT_SECRET = "acme-client-secret-0123456789abcdef";
const ADA = { email: "ada@acme.test", subject: "ada-subject-0001" };
remember(CLIENT_SECRET, ADA.email, ADA.subject, "owner@owner.test");

let dns: TxtServer;
let op: TestOP;
let app: ReturnType<typeof ssoApp>;
let organizationId: string;
let owner: Awaited<ReturnType<ReturnType<typeof ssoApp>["signedUp"]>>;

beforeAll(async () => {
  dns = await startTxtServer();
  app = ssoApp(dns);
  owner = await app.signedUp("owner@owner.test");
  rememberJar(owner);
  organizationId = await app.organizationWithDomain(owner, "acme", "acme.test");
});
afterAll(async () => {
  await op?.close();
  await dns?.close();
  await sdk.shutdown();
});

describe("an OIDC connection's sign-in", () => {
  it("discovery, start and callback: request spans with their routes, the protocol, and success", async () => {
    const connection = await app.auth.api.createSsoConnection(
      app.as(owner),
      oidcInput(organizationId, "http://127.0.0.1:9", {
        oidc: { issuer: "http://127.0.0.1:9", clientId: "acme-app", clientSecret: CLIENT_SECRET },
      }),
    );
    op = await startTestOP({
      clients: [{ client_id: "acme-app", client_secret: CLIENT_SECRET, redirect_uris: [`${ORIGIN}/auth/sso-callback/${connection.id}`] }],
      users: { [ADA.subject]: { ...DEFAULT_USERS.alice, sub: ADA.subject, email: ADA.email, email_verified: true, name: "Ada" } },
    });
    await app.auth.api.updateSsoConnection(app.as(owner), { connectionId: connection.id, oidc: { issuer: op.issuer } });
    sdk.spans.reset();
    const browser = app.browser();
    const found = await ssoJson(browser, "discover", { email: ADA.email });
    expect(found.body.sso).toBe(true);
    const start = await post(browser, `/auth/sso-signin/${connection.id}`, { callbackUrl: `${ORIGIN}/home` });
    const back = await op.authorize(start.headers.get("location") as string, { user: ADA.subject });
    remember(back.searchParams.get("code"), back.searchParams.get("state"));
    const done = await browser.send(`${back.pathname}${back.search}`);
    expect(done.headers.get("location")).toBe(`${ORIGIN}/home`);
    rememberJar(browser);
    expect((await browser.session())?.activeOrganizationId).toBe(organizationId);

    expectRequestSpan(lastRequestSpan("POST", "/auth/sso/discover"), {
      route: "/auth/sso/discover",
      action: "sso",
      outcome: "success",
      status: 200,
    });
    const started = lastRequestSpan("POST", "/auth/sso-signin/:provider");
    expectRequestSpan(started, { route: "/auth/sso-signin/:provider", action: "sso-signin", outcome: "success", status: 302 });
    expect(started?.attributes["authlib.sso.protocol"]).toBe("oidc");
    const callback = lastRequestSpan("GET", "/auth/sso-callback/:provider");
    expectRequestSpan(callback, { route: "/auth/sso-callback/:provider", action: "sso-callback", outcome: "success", status: 302 });
    expect(callback?.attributes["authlib.sso.protocol"]).toBe("oidc");
    expect(app.audit.filter((row) => row.type === "ssoSignIn")).toHaveLength(1);

    // A callback whose state this browser never had: a failure, its error type and the refusal's reason.
    const other = app.browser();
    await other.send(`${back.pathname}${back.search}`);
    const forged = lastRequestSpan("GET", "/auth/sso-callback/:provider");
    expect(forged?.attributes["authlib.outcome"]).toBe("failure");
    expect(forged?.attributes["error.type"]).toBe("InvalidCheck");
    expect(forged?.attributes["authlib.sso.reason"]).toBe("oidc.InvalidCheck");
    expect(app.audit.filter((row) => row.type === "ssoSignInFailed").at(-1)?.detail).toBe(
      `organization=${organizationId} connection=${connection.id} reason=oidc.InvalidCheck`,
    );
  }, 60_000);
});

describe("a SAML response refused", () => {
  it("its span says SsoSignInFailed and the reason type; the audit row names the same reason", async () => {
    const idp = await createSigningIdentity("idp.acme.test");
    const connection = await app.auth.api.createSsoConnection(app.as(owner), {
      organizationId,
      protocol: "saml",
      name: "Acme SAML",
      saml: {
        idpEntityId: "https://idp.acme.test/saml",
        idpSsoUrl: "https://idp.acme.test/sso",
        idpCertificates: [certificateBody(idp.certificatePem)],
      },
    });
    const browser = app.browser();
    const start = await post(browser, `/auth/sso-signin/${connection.id}`, { callbackUrl: `${ORIGIN}/home` });
    expect(start.status).toBe(302);
    const answer = Buffer.from("<samlp:Response>not signed, not a response</samlp:Response>").toString("base64");
    remember(answer);
    sdk.spans.reset();
    const refused = await post(browser, `/auth/sso-acs-continue/${connection.id}`, { SAMLResponse: answer });
    rememberJar(browser);
    expect(refused.status).toBeGreaterThanOrEqual(300);
    const span = lastRequestSpan("POST", "/auth/sso-acs-continue/:provider");
    expect(span?.attributes).toMatchObject({
      "authlib.outcome": "failure",
      "error.type": "SsoSignInFailed",
      "authlib.sso.protocol": "saml",
    });
    const reason = String(span?.attributes["authlib.sso.reason"]);
    expect(reason).toMatch(/^saml\.[a-z][A-Za-z]*$/);
    expect(app.audit.filter((row) => row.type === "ssoSignInFailed").at(-1)?.detail).toContain(`reason=${reason}`);
  });
});

describe("SCIM changes", () => {
  it("provision and deactivate: request spans with their routes and success; a bad token's span is a failure", async () => {
    const token = await app.auth.api.createScimToken(app.as(owner), { organizationId });
    remember(token.token);
    const scim = (method: string, path: string, body?: unknown, bearer = token.token) =>
      app.auth.handler(
        new Request(`${ORIGIN}/auth/scim/v2${path}`, {
          method,
          headers: { authorization: `Bearer ${bearer}`, "content-type": "application/scim+json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
    sdk.spans.reset();
    const created = await scim("POST", "/Users", {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName: "hank@acme.test",
      emails: [{ value: "hank@acme.test", primary: true }],
    });
    remember("hank@acme.test");
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    const deactivated = await scim("PATCH", `/Users/${id}`, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "replace", path: "active", value: false }],
    });
    expect(deactivated.status).toBe(200);
    for (const [method, status] of [
      ["POST", 201],
      ["PATCH", 200],
    ] as const) {
      const span = lastRequestSpan(method, "/auth/scim/*");
      expect(span?.attributes, method).toMatchObject({
        "http.route": "/auth/scim/*",
        "authlib.outcome": "success",
        "http.response.status_code": status,
      });
    }
    expect((await scim("GET", "/Users", undefined, `${token.token.slice(0, -2)}xx`)).status).toBe(401);
    const refused = lastRequestSpan("GET", "/auth/scim/*");
    expect(refused?.attributes).toMatchObject({ "authlib.outcome": "failure", "error.type": "ScimUnauthorized" });
    expect(app.audit.map((row) => row.type)).toEqual(
      expect.arrayContaining(["scimTokenCreated", "scimUserCreated", "scimUserDeprovisioned"]),
    );
  });
});

describeScan(8);
