/**
 * An app with organizations and enterprise SSO on the in-memory adapter: `Password()` accounts (addresses
 * proven by the mailed link), a real DNS server on 127.0.0.1 for the domain proofs, the audit rows kept in
 * memory, and an app feature that stands in for a protocol's last step: it hands `ssoSignIn` a connection
 * and the claims an identity provider's answer carried (the OIDC callback and the SAML assertion consumer
 * call it the same way, after their own validation).
 */
import { defineFeature } from "../../src/features/define.js";
import { ssoSignIn } from "../../src/features/sso/identity.js";
import { createAuth } from "../../src/kernel/instance.js";
import Password from "../../src/providers/password.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { MailMessage } from "../../src/types/providers.js";
import type { SsoConnection } from "../../src/types/sso.js";
import type { AuditEvent } from "../../src/types/telemetry.js";
import { authClient } from "../helpers/auth-client.js";
import type { TxtServer } from "../helpers/dns-server.js";
import { memoryAdapter, withVerificationTokens } from "../helpers/memory-adapter.js";
import { memoryOrganizations } from "../helpers/memory-organizations.js";
import { memoryScim } from "../helpers/memory-scim.js";
import { memorySso } from "../helpers/memory-sso.js";

export const ORIGIN = "http://localhost:3000";
export const secret = "sso-secret-0123456789abcdef-0123456789!!";
export const PASSWORD = "a long password 1234";

export type Browser = ReturnType<typeof authClient>;

/**
 * The stand-in for a protocol's last step: signs in `claims` through the stored connection `connectionId`;
 * what `ssoSignIn` throws is also put in `refused` (the protocol's view of a refusal, message and all).
 */
const protocolStandIn = (refused: unknown[]) =>
  defineFeature({
    name: "test-sso-protocol",
    operations: [
      {
        name: "testSsoSignIn",
        method: "POST",
        path: "test-sso-signin",
        handler: async (options, request) => {
          const body = request.body as Record<string, string>;
          const connection = (await options.adapter?.getSsoConnection?.(String(body.connectionId))) as SsoConnection;
          const claims = JSON.parse(String(body.claims));
          return ssoSignIn(options, request, connection, claims).catch((error: unknown) => {
            refused.push(error);
            throw error;
          });
        },
      },
    ],
  });

/** The app; `overrides` replace parts of the configuration, `providers` come after its `Password()`. */
export function ssoApp(dns: TxtServer, overrides: Partial<AuthConfig> = {}, adapter?: Adapter, providers: AuthConfig["providers"] = []) {
  const memory = memoryAdapter({ sessionRecords: true });
  const orgs = memoryOrganizations();
  const sso = memorySso();
  const scim = memoryScim();
  const mails: MailMessage[] = [];
  const audit: AuditEvent[] = [];
  const refused: unknown[] = [];
  const store: Adapter = adapter ?? {
    ...withVerificationTokens(memory.adapter),
    ...orgs.methods,
    ...sso.methods,
    ...scim.methods,
    deleteUser: async (userId: string) => {
      sso.deleteUser(userId);
      return memory.adapter.deleteUser?.(userId);
    },
  };
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: store,
    providers: [Password({ sendMail: (mail) => void mails.push(mail) }), ...providers],
    organizations: { resolveTxt: dns.resolveTxt },
    sso: {},
    features: [protocolStandIn(refused)],
    audit: { store: { write: (event) => void audit.push(event) } },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    ...overrides,
  };
  const auth = createAuth(config);
  const linkTo = (to: string, path: string) => {
    const mail = [...mails].reverse().find((m) => m.to === to);
    const link = mail?.text.match(new RegExp(`${ORIGIN}${path}\\?\\S+`))?.[0];
    if (!link) throw new Error(`no ${path} link to ${to}`);
    return new URL(link);
  };
  const browser = () => authClient(config, ORIGIN);
  /** A browser whose user signed up with `email` (proven by the mailed link) and is signed in. */
  async function signedUp(email: string): Promise<Browser & { userId: string }> {
    const b = browser();
    await post(b, "/auth/password/sign-up", { email, password: PASSWORD });
    await post(b, "/auth/password/verify", { token: linkTo(email, "/auth/password/verify").searchParams.get("token") as string });
    const user = await store.getUserByEmail?.(email);
    if (!user) throw new Error(`no user ${email}`);
    await post(b, "/auth/callback/password", { email, password: PASSWORD, callbackUrl: "/" });
    if (!(await b.session())?.user) throw new Error(`${email} is not signed in`);
    return Object.assign(b, { userId: user.id });
  }
  /** A request carrying `browser`'s cookies, for `auth.api`. */
  const as = (b: Browser) => new Request(`${ORIGIN}/app`, { headers: { cookie: b.jar.header() } });

  /** An organization of `owner`'s with `domain` proven through the DNS server; its id. */
  async function organizationWithDomain(owner: Browser, slug: string, domain: string | undefined): Promise<string> {
    const { organization } = await auth.api.createOrganization(as(owner), { name: slug, slug });
    if (domain) {
      const claimed = await auth.api.addDomain(as(owner), { organizationId: organization.id, domain });
      dns.records.set(claimed.record.name, [[claimed.record.value]]);
      await auth.api.verifyDomain(as(owner), { organizationId: organization.id, domainId: claimed.id });
    }
    return organization.id;
  }

  /** A browser that signs in `claims` through `connectionId` (the protocol stand-in); the response. */
  async function ssoSignInWith(b: Browser, connectionId: string, claims: Record<string, unknown>) {
    return post(b, "/auth/test-sso-signin", { connectionId, claims: JSON.stringify(claims) });
  }
  return {
    config,
    auth,
    store,
    memory,
    orgs,
    sso,
    scim,
    mails,
    audit,
    refused,
    browser,
    signedUp,
    as,
    organizationWithDomain,
    ssoSignInWith,
  };
}

/** A POST of `form` with the browser's CSRF token. */
export async function post(browser: Browser, path: string, form: Record<string, string>) {
  const csrfToken = await browser.csrf();
  return browser.send(path, { form: { csrfToken, ...form } });
}

/** A JSON POST to `<basePath>/sso/<path>` with the browser's CSRF token: its status and body. */
export async function ssoJson(browser: Browser, path: string, json: Record<string, unknown>) {
  const csrfToken = await browser.csrf();
  const response = await browser.send(`/auth/sso/${path}`, { json: { csrfToken, ...json } });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** An OIDC connection's input for `organizationId` at `issuer`. */
export function oidcInput(organizationId: string, issuer = "https://idp.example.com", over: Record<string, unknown> = {}) {
  return {
    organizationId,
    protocol: "oidc" as const,
    name: "Okta",
    oidc: { issuer, clientId: "authlib-client", clientSecret: "client-secret-value-1234567890" },
    ...over,
  };
}
