/**
 * An app with organizations and SCIM provisioning (`sso: {}`) on the in-memory adapter: `Password()`
 * accounts, mails, logs and audit rows kept in memory, browsers that sign up and sign in, organizations
 * with a proven domain, SCIM tokens made through `auth.api`, and a SCIM client that sends requests through
 * `auth.handler` with the bearer token, as an identity provider does.
 */
import { expect } from "vitest";
import { createAuth } from "../../../src/kernel/instance.js";
import Password from "../../../src/providers/password.js";
import type { Adapter } from "../../../src/types/adapters.js";
import type { AuthConfig } from "../../../src/types/config.js";
import type { MailMessage } from "../../../src/types/providers.js";
import type { AuditEvent } from "../../../src/types/telemetry.js";
import { authClient } from "../../helpers/auth-client.js";
import { memoryAdapter, withVerificationTokens } from "../../helpers/memory-adapter.js";
import { memoryApiKeys } from "../../helpers/memory-api-keys.js";
import { memoryOrganizations } from "../../helpers/memory-organizations.js";
import { memoryScim } from "../../helpers/memory-scim.js";
import { memorySso } from "../../helpers/memory-sso.js";

export const ORIGIN = "http://localhost:3000";
export const secret = "scim-secret-0123456789abcdef-0123456789";
export const PASSWORD = "a long password 1234";
export const SCIM_JSON = "application/scim+json";

export type Browser = ReturnType<typeof authClient>;
/** A SCIM answer's body, read as the test's JSON. */
export type Json = Record<string, any>;

/** The app; `overrides` replace parts of the configuration (`apiKeys: { prefix }` turns on the API keys it stores too). */
export function scimApp(overrides: Partial<AuthConfig> = {}) {
  const memory = memoryAdapter({ sessionRecords: true });
  const orgs = memoryOrganizations();
  const scim = memoryScim();
  const sso = memorySso();
  const keys = memoryApiKeys();
  const mails: MailMessage[] = [];
  const logs: string[] = [];
  const audit: AuditEvent[] = [];
  const log =
    (level: string) =>
    (...args: unknown[]) =>
      void logs.push(
        `${level} ${args.map((arg) => (arg instanceof Error ? `${arg.name}: ${arg.message}` : JSON.stringify(arg))).join(" ")}`,
      );
  const store: Adapter = { ...withVerificationTokens(memory.adapter), ...orgs.methods, ...sso.methods, ...scim.methods, ...keys.methods };
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: store,
    providers: [Password({ sendMail: (mail) => void mails.push(mail) })],
    organizations: {},
    sso: {},
    audit: { store: { write: (event) => void audit.push(event) } },
    logger: { error: log("error"), warn: log("warn"), debug: log("debug") },
    debug: true,
    ...overrides,
  };
  const auth = createAuth(config);
  /** A second instance of the same app (its own configuration object, the same stores): another server. */
  const secondInstance = () => createAuth({ ...config });
  const linkTo = (to: string, path: string) => {
    const mail = [...mails].reverse().find((m) => m.to === to);
    const link = mail?.text.match(new RegExp(`${ORIGIN}${path}\\?\\S+`))?.[0];
    if (!link) throw new Error(`no ${path} link to ${to}`);
    return new URL(link);
  };
  const browser = () => authClient(config, ORIGIN);
  const post = async (b: Browser, path: string, form: Record<string, string>) =>
    b.send(path, { form: { csrfToken: await b.csrf(), ...form } });
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
  /** An organization `owner` made, with `domains` proven (the DNS proof's outcome written as the store keeps it). */
  async function organization(owner: Browser, slug: string, domains: string[] = []): Promise<string> {
    const made = await auth.api.createOrganization(as(owner), { name: slug, slug });
    for (const name of domains) {
      const claim = await orgs.methods.createDomain({
        organizationId: made.organization.id,
        name,
        token: "t",
        verifiedAt: null,
        createdAt: new Date(),
      });
      await orgs.methods.updateDomain({ id: claim.id, verifiedAt: new Date() });
    }
    return made.organization.id;
  }
  /** A new SCIM token of `organizationId`, made by `admin`. */
  async function token(admin: Browser, organizationId: string): Promise<string> {
    return (await auth.api.createScimToken(as(admin), { organizationId })).token;
  }
  /** A SCIM client of `bearer`: each call is one request through `auth.handler`; it answers status, headers and JSON body. */
  function client(bearer: string | undefined) {
    return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const init: RequestInit = {
        method,
        headers: {
          accept: SCIM_JSON,
          ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
          ...(body === undefined ? {} : { "content-type": SCIM_JSON }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      };
      const response = await auth.handler(new Request(`${ORIGIN}/auth/scim/v2${path}`, init));
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: (text === "" ? null : JSON.parse(text)) as Json };
    };
  }
  return {
    config,
    auth,
    secondInstance,
    store,
    memory,
    orgs,
    scim,
    keys,
    mails,
    logs,
    audit,
    browser,
    signedUp,
    as,
    organization,
    token,
    client,
  };
}

/** Checks that `answer` is a SCIM error of `status` (and `scimType`), served as SCIM JSON. */
export function expectScimError(answer: { status: number; headers: Headers; body: Json }, status: number, scimType?: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get("content-type")).toBe(SCIM_JSON);
  expect(answer.body).toMatchObject({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: String(status) });
  if (scimType === undefined) expect(answer.body.scimType).toBeUndefined();
  else expect(answer.body.scimType).toBe(scimType);
}
