/**
 * Public types: the shapes of users, sessions, accounts and profiles (declared in `base-types.ts`,
 * re-exported here), the configuration, its callbacks and events. `Session`, `User` (here) and `JWT` (in
 * `@authlib/core/jwt`) are interfaces so that an app can extend them by module augmentation:
 *
 * ```ts
 * declare module "@authlib/core/types" {
 *   interface Session { user: { role: string } & DefaultSession["user"] }
 * }
 * ```
 *
 * @module types
 */

import type { Adapter, AdapterSession, AdapterUser } from "./adapters.js";
import type { AdminConfig } from "./admin.js";
import type { ApiKeysConfig } from "./api-keys.js";
import type { AuthorizationServerConfig } from "./authorization-server.js";
import type {
  Account,
  AuthorizationDetails,
  Awaitable,
  DefaultSession,
  Profile,
  ProviderType,
  Session,
  SessionActor,
  SessionAssurance,
  SessionImpersonator,
  SessionSso,
  Theme,
  User,
} from "./base.js";
import type { ErrorType } from "./errors.js";
import type { MessageOverrides } from "./i18n.js";
import type { JWT, JWTOptions } from "./jwt.js";
import type { AccountUnlinkedMessage } from "./linked-accounts.js";
import type { OrganizationChangedMessage, OrganizationsConfig } from "./organizations.js";
import type { PasskeyChangedMessage } from "./passkeys.js";
import type { CredentialInput, Provider } from "./providers.js";
import type { RateLimitConfig } from "./rate-limit.js";
import type { SessionRegistry, SessionRevokedMessage } from "./session-registry.js";
import type { SsoConfig } from "./sso.js";
import type { AuditConfig, TelemetryConfig } from "./telemetry.js";

export type {
  Account,
  AuthorizationDetails,
  Awaitable,
  CredentialInput,
  DefaultSession,
  ErrorType,
  JWT,
  JWTOptions,
  Profile,
  Provider,
  ProviderType,
  Session,
  SessionActor,
  SessionAssurance,
  SessionImpersonator,
  SessionSso,
  Theme,
  User,
};

/**
 * The type of the exported `skipCSRFCheck` symbol (`symbols.ts` gives it its value). Declared here, with
 * no value, so that the configuration's type needs no runtime module. Not exported: the documented
 * name is the value, `skipCSRFCheck` of `@authlib/core` (typedoc.json lists this one as intentionally
 * not exported).
 */
declare const skipCSRFCheck: unique symbol;

/**
 * The `session` the `session` callback gets with database sessions: the session row (`expires` is a
 * `Date`) with its user.
 */
export type DatabaseSessionParam = Omit<Session, "expires"> & AdapterSession;

/** What the `session` callback may return: the session, with `expires` as an ISO string or a Date. */
export type SessionCallbackResult = Omit<Session, "expires"> & { expires: string | Date };

/** What `getSession` resolves to: the cookies to set, and the session or `null`. */
export type GetSessionResult = Promise<{ cookie: any; data: Session | null }>;

/** Options of one cookie. */
export interface CookieOption {
  name: string;
  options: {
    httpOnly?: boolean;
    sameSite?: "lax" | "strict" | "none";
    path?: string;
    secure?: boolean;
    domain?: string;
    maxAge?: number;
    expires?: Date;
    partitioned?: boolean;
  };
}

/** Every cookie authlib writes. */
export interface CookiesOptions {
  sessionToken: CookieOption;
  callbackUrl: CookieOption;
  csrfToken: CookieOption;
  pkceCodeVerifier: CookieOption;
  state: CookieOption;
  nonce: CookieOption;
  webauthnChallenge: CookieOption;
  /**
   * The device token of credentials sign-in (see SECURITY.md, "Lockout"): long-lived, kept across
   * sign-out, so failures from elsewhere never lock this browser out of an account it signed in to.
   */
  deviceToken: CookieOption;
  /**
   * The email sign-in flow of this browser (sealed: the address, a hash of the link's token): it lets the
   * link sign in at once where it was asked for, and the mailed code be entered here only.
   */
  emailFlow: CookieOption;
  /**
   * A sign-in waiting for its second factor (sealed, bound to this browser, short-lived): the first
   * factor's result, and nothing that signs in by itself.
   */
  twoFactor: CookieOption;
  /** Database sessions: how the session was signed in to (sealed, bound to the session's token). */
  sessionAssurance: CookieOption;
}

/** Custom pages. Each is a path (or URL) of the app that replaces the built-in page. */
export interface PagesOptions {
  signIn: string;
  signOut: string;
  /** Receives `?error=<type>`. */
  error: string;
  verifyRequest: string;
  /** The second step of a sign-in (a TOTP or recovery code, or a passkey); receives `?error=<type>` after a refused code. */
  twoFactor: string;
  /** Where a user is sent after their first sign-in, if set. */
  newUser: string;
}

/** Where log lines go. Each level is optional; unset levels use the built-in logger. */
export interface LoggerInstance {
  /** An error, with its cause chain. The built-in logger adds a link to its troubleshooting entry. */
  error: (error: Error) => void;
  /** A warning about the configuration or the deployment, by code (see docs/troubleshooting.md). */
  warn: (code: WarningCode) => void;
  /** A debug message; only called when `debug: true`. Never holds secrets or tokens. */
  debug: (message: string, metadata?: unknown) => void;
}

/** Codes of the warnings authlib logs. */
export type WarningCode =
  | "debug-enabled"
  | "csrf-disabled"
  | "env-url-basepath-redundant"
  | "env-url-basepath-mismatch"
  | "env-url-alias-conflict"
  | "experimental-webauthn"
  | "invalid-env-url"
  | "generated-dev-secret"
  | "trust-host-unrestricted"
  | "pkce-unverified"
  | "sessions-not-ended"
  | "rate-limited"
  | "rate-limit-behind-proxy"
  | "rate-limit-memory-store"
  | "userinfo-unavailable"
  | "audit-write-failed"
  | "csrf-refused"
  | "check-failed"
  | "session-cookie-refused"
  | "untrusted-host"
  | "redirect-refused"
  | "callback-url-refused";

/** Where the session is kept. */
export type SessionStrategy = "jwt" | "database";

/** The `session` configuration. */
export interface SessionOptions {
  /** Default `"jwt"`, or `"database"` when an adapter is configured. */
  strategy: SessionStrategy;
  /** Idle lifetime in seconds. Default 30 days. */
  maxAge: number;
  /** How often (seconds) the session is refreshed; `0` refreshes on every access. Default 1 day. */
  updateAge: number;
  /** Makes database session tokens. Default: a random UUID. */
  generateSessionToken: () => string;
  /**
   * Where JWT sessions are registered so they can be listed and revoked (see docs/sessions.md):
   * `memorySessionStore()`, `redisSessionStore({ client })`, `hostedDbSessionStore(client)`. Without it:
   * the adapter when it has the session record methods, else none (JWT sessions then cannot be listed or
   * revoked before they expire; the session APIs throw `SessionRegistryMissing`). Database sessions
   * always live in the adapter (this option does not apply to them).
   */
  store?: SessionRegistry;
  /**
   * When a revoked JWT session stops working. `"strict"`: from the next check on every instance (one
   * registry read per check). `"eventual"` (default): at once on the instance that revoked it, within
   * `revalidateAfter` seconds on the others (one registry read per session and instance per
   * `revalidateAfter`). Database sessions are checked on every read either way.
   */
  revocation: "strict" | "eventual";
  /** With `revocation: "eventual"`: how long (seconds) an instance trusts its last registry read of a session. Default 60. */
  revalidateAfter: number;
  /** The most live sessions one user keeps; a new sign-in past it ends the least recently seen (`reason: "limit"`). Default 50. */
  maxPerUser: number;
}

/** Callbacks: hooks that change what authlib does. */
export interface CallbacksOptions<P = Profile, A = Account> {
  /**
   * Decides whether a sign-in may go on: `true` continues, `false` (or a throw) ends on the error page
   * with `AccessDenied`, a string redirects there.
   */
  signIn: (params: {
    user: User | AdapterUser;
    account: A | null;
    profile?: P;
    email?: { verificationRequest?: boolean };
    credentials?: Record<string, CredentialInput>;
    /**
     * Present only when this OAuth sign-in links a new account to the signed-in user `link.user`: the
     * flow was started by that same browser and session with `link=true` (POST /signin/:provider, CSRF
     * checked). Return `false` to refuse the link. Absent for every ordinary sign-in.
     */
    link?: { user: User | AdapterUser };
  }) => Awaitable<boolean | string>;
  /** Decides where to redirect. The default only allows URLs on the same origin as `baseUrl`. */
  redirect: (params: { url: string; baseUrl: string }) => Awaitable<string>;
  /**
   * Decides what the client sees of the session. The return value is exposed to the client (an `expires`
   * Date is sent as its ISO string). JWT strategy: `{ session, token }`. Database strategy:
   * `{ session, user }`, where `session.expires` is the `Date` of the session row (`AdapterSession`).
   */
  session: (
    params: ({ session: Session; token: JWT } | { session: DatabaseSessionParam; user: AdapterUser }) & {
      newSession?: any;
      trigger?: "update";
    },
  ) => Awaitable<Session | DefaultSession | SessionCallbackResult>;
  /**
   * Runs when a JWT is created (sign-in) or read (session check, update). What it returns is stored in
   * the token; `null` ends the session.
   */
  jwt: (params: {
    token: JWT;
    /** Present at sign-in (`trigger` "signIn" or "signUp"). */
    user?: User | AdapterUser;
    /** Present at sign-in (`trigger` "signIn" or "signUp"). */
    account?: A | null;
    profile?: P;
    trigger?: "signIn" | "signUp" | "update";
    /** @deprecated use `trigger === "signUp"` */
    isNewUser?: boolean;
    /** Data sent by the client's update; validate it before use. */
    session?: any;
  }) => Awaitable<JWT | null>;
}

/** Events: called after something happened, for audit logs. A failing handler is logged, never fatal. */
export interface EventCallbacks {
  /** A user signed in (`isNewUser` on their first sign-in, when an adapter created them). */
  signIn: (message: { user: User; account: Account | null; profile?: Profile; isNewUser?: boolean }) => Awaitable<void>;
  /** A user signed out: the ended database session, or the JWT's payload. */
  signOut: (message: { session: AdapterSession | null | undefined | void } | { token: JWT | null }) => Awaitable<void>;
  /** The adapter created a user (at their first sign-in). */
  createUser: (message: { user: User }) => Awaitable<void>;
  /** The adapter updated a user (e.g. the email address was proven). */
  updateUser: (message: { user: User }) => Awaitable<void>;
  /** An OAuth account was linked to a user (at their first sign-in with it, or an explicit link). */
  linkAccount: (message: { user: User | AdapterUser; account: Account; profile: User | AdapterUser }) => Awaitable<void>;
  /** A session was read (`GET /session`, `getSession`); it gets the session and, with JWTs, the token. */
  session: (message: { session: Session; token: JWT } | { session: Session }) => Awaitable<void>;
  /** A session was ended before its time by its user, by server code, or by the per-user limit (see `reason`). */
  sessionRevoked: (message: SessionRevokedMessage) => Awaitable<void>;
  /** The user unlinked one of their accounts (`unlinkAccount`, `POST /accounts/unlink`). */
  accountUnlinked: (message: AccountUnlinkedMessage) => Awaitable<void>;
  /** A signed-in user added a passkey to their account (a new user's first passkey is `createUser` and `linkAccount`). */
  passkeyAdded: (message: PasskeyChangedMessage) => Awaitable<void>;
  /** The user removed one of their passkeys (`removePasskey`, `POST /passkeys/remove`): it no longer signs in. */
  passkeyRemoved: (message: PasskeyChangedMessage) => Awaitable<void>;
  /**
   * A user's password was set or changed (`Password()` provider): `reason` is `"reset"` (through an
   * emailed link, which also sets a first password) or `"change"` (signed in, with the current one).
   * Their other sessions ended with it. Never carries the password or its hash.
   */
  passwordChanged: (message: { userId: string; reason: "reset" | "change" }) => Awaitable<void>;
  /** A user deleted their own account (`auth.api.deleteAccount`, `POST <basePath>/account/delete`): the user as it was. */
  userDeleted: (message: { user: User }) => Awaitable<void>;
  /**
   * A user turned their authenticator app (TOTP) on or off (`auth.api.confirmTotp`, `auth.api.disableTotp`),
   * or made new recovery codes (`"recoveryCodesCreated"`, `auth.api.regenerateRecoveryCodes`).
   */
  twoFactorChanged: (message: { userId: string; change: "enabled" | "disabled" | "recoveryCodesCreated" }) => Awaitable<void>;
  /** An organization, one of its members, invitations or domains changed (docs/organizations.md): who, where, what. */
  organizationChanged: (message: OrganizationChangedMessage) => Awaitable<void>;
}

/** The `twoFactor` option: second factors for users who turn one on. */
export interface TwoFactorConfig {
  /** The name authenticator apps show beside the code. Default: the app's host. */
  issuer?: string;
  /**
   * A user's passkey counts as a second factor by itself: a user with a passkey and no TOTP is asked for
   * it after a password, email or OAuth sign-in. Default `false`: passkeys are offered at the second step
   * of users who turned TOTP on, and sign in by themselves as always.
   */
  passkeys?: boolean;
  /** How long the second step waits after the first factor, in seconds. Default 600 (10 min). */
  pendingMaxAge?: number;
}

/** A feature made with `defineFeature` (`@authlib/core`): its operations are the kernel's to read. */
export interface AuthFeature {
  readonly name: string;
  readonly operations: readonly object[];
}

/** The configuration of authlib. Only `providers` is required. */
export interface AuthConfig {
  /** Sign-in providers, in the order the sign-in page shows them. */
  providers: Provider[];
  /** Database adapter; sessions default to the database when it is set. */
  adapter?: Adapter;
  /**
   * Migrating from Auth.js v5: also accept sessions Auth.js issued, so nobody is signed out. When a request
   * has no authlib session cookie, the Auth.js one (`__Secure-authjs.session-token` on https,
   * `authjs.session-token` on http, chunks included) is read: a JWT is decoded with that name as salt (as
   * Auth.js encrypted it), a database session token is looked up as it is. The session is then re-issued
   * under authlib's own (`__Host-` on https) cookie and the Auth.js cookie cleared, so each browser moves
   * on its first request. authlib never writes Auth.js's names. The option also reads the
   * `__Secure-authlib.session-token` of authlib's own sessions from before `__Host-`; without it no legacy
   * name is read. A legacy cookie is never read when the request carries any `__Host-` cookie of authlib's
   * (a sibling subdomain may have planted it). Default false; remove it once the sessions Auth.js issued
   * have expired (`session.maxAge`). See docs/migrating-from-authjs.md.
   */
  acceptAuthjsSessions?: boolean;
  /** Path under which authlib answers. Default `/auth`. */
  basePath?: string;
  callbacks?: Partial<CallbacksOptions>;
  /**
   * Overrides of cookie names and options (deep-merged over the defaults). This weakens the defaults: on
   * https every default cookie is `__Host-` (no other host can set it); a cookie given a `domain` or a
   * `path` other than `/` cannot be, and falls back to `__Secure-`, which a sibling subdomain can plant.
   */
  cookies?: Partial<CookiesOptions>;
  /** Log debug messages. Never logs secrets or tokens. */
  debug?: boolean;
  events?: Partial<EventCallbacks>;
  /**
   * OpenTelemetry traces and metrics (docs/observability.md): on when `@opentelemetry/api` is installed
   * and the app registered an SDK; `false` turns them off. Attributes never hold personal data.
   */
  telemetry?: TelemetryConfig | boolean;
  /** The audit trail: sign-ins, sign-outs, revocations, links, failures and limit refusals, written to `store`. */
  audit?: AuditConfig;
  /** Experimental features; enabling one logs a warning. */
  experimental?: { enableWebAuthn?: boolean };
  jwt?: Partial<JWTOptions>;
  logger?: Partial<LoggerInstance>;
  pages?: Partial<PagesOptions>;
  /**
   * Second factors (docs/two-factor.md): users may turn on TOTP (with recovery codes) through
   * `auth.api.enrollTotp`; a user who has one finishes every sign-in but a passkey's with a second step at
   * `<basePath>/two-factor`. Needs an adapter that keeps accounts. Off when absent.
   */
  twoFactor?: TwoFactorConfig;
  /**
   * Organizations (docs/organizations.md): tenants with members, roles, invitations, verified domains and
   * their own sign-in policy, under `<basePath>/organization/*` and `auth.api`. Needs an adapter with the
   * organization methods. Off when absent.
   */
  organizations?: OrganizationsConfig;
  /**
   * The OAuth 2.1 authorization server (docs/authorization-server.md): authlib issues tokens to MCP clients,
   * CLIs, native apps and other services, under `<basePath>/oauth2/*`. Needs an adapter with the
   * authorization-server methods. Off when absent.
   */
  authorizationServer?: AuthorizationServerConfig;
  /**
   * The operator's tools (docs/admin.md): find, create, change, ban and delete users, and act as one with a
   * trail, under `<basePath>/admin/*` and `auth.api`; who is an admin is the app's `isAdmin`/`roles`. Off when
   * absent.
   */
  admin?: AdminConfig;
  /**
   * API keys for users and organizations (docs/api-keys.md): `<prefix>_…` keys with a checksum, stored
   * only as a keyed hash, verified with `auth.api.verifyApiKey`. Needs an adapter with the API-key methods.
   * Off when absent.
   */
  apiKeys?: ApiKeysConfig;
  /**
   * Enterprise SSO per organization (docs/sso.md): SAML 2.0 and OIDC connections as data, discovery by a
   * proven email domain, and SCIM provisioning. Needs `organizations`. Off when absent.
   */
  sso?: SsoConfig;
  /**
   * The app's own features, made with `defineFeature` (docs/architecture.md, "Where to add a feature"):
   * their operations are routed under the base path and reached through `auth.api.run`, with the same
   * checks as authlib's own (CSRF, session, owner present). Their names and routes must not collide with
   * authlib's.
   */
  features?: readonly AuthFeature[];
  /**
   * The owner-present rule (SECURITY.md): an operation that changes how the user signs in or recovers the
   * account (a passkey, the address, the password, a linked account, a second factor), ends other sessions
   * or deletes the account needs a sign-in in the last `maxAge` seconds (at level 2 when the user has a
   * second factor), or the current password. Default `{ maxAge: 600 }`; `maxAge` from 60 to 86400.
   */
  ownerPresent?: { maxAge?: number };
  /**
   * Rate limits on credentials sign-in, email sign-in requests, passkeys and session updates: on by
   * default (see {@link RateLimitConfig} for each default), `false` switches every one off. The default
   * store is in this process's memory; give every instance the same shared store (PostgreSQL or Redis) so
   * the limits hold across instances.
   */
  rateLimit?: RateLimitConfig | false;
  /** Base URL of a redirect proxy (default `AUTH_REDIRECT_PROXY_URL`), up to and including the base path. */
  redirectProxyUrl?: string;
  /**
   * On the redirect proxy: the origins it may forward a callback to, as `scheme://host-pattern[:port]`
   * (e.g. `https://*-team.preview.example`; host patterns as in {@link AuthConfig.trustedHosts}).
   * Default `AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS` (comma-separated), else the proxy's own origin family:
   * its own origin plus `https://` (and, for loopback hosts, `http://`) origins whose host matches
   * `trustedHosts`. A sealed state naming any other origin gets the error page (`UntrustedRedirectTarget`).
   */
  redirectProxyAllowedOrigins?: string[];
  /** Secret(s) for keys and hashes. Newest first: the first encrypts, all decrypt. Default `AUTH_SECRET`. */
  secret?: string | string[];
  session?: Partial<SessionOptions>;
  /** Set to the exported `skipCSRFCheck` to switch off the CSRF check. */
  skipCSRFCheck?: typeof skipCSRFCheck;
  theme?: Theme;
  /**
   * The language of the built-in pages and mails: a language tag (`"de"`), or a function of the request
   * that returns one (`undefined` to fall back). Without it, the request's `Accept-Language` decides. A tag
   * with no catalog falls back to its base language (`de-AT` → `de`), then English. Shipped: `en`, `de`,
   * `fr`, `es`, `pt`, `ja`, `zh`; `messages` adds more. See docs/languages.md.
   */
  locale?: string | ((request: Request) => string | null | undefined);
  /**
   * Texts of the built-in pages and mails by language tag: a new language (`ar: { ... }`), or single
   * strings over a shipped one (`de: { "signin.title": "Anmelden" }`). Keys are checked by the compiler;
   * a key left out falls back to the shipped text of the language, then English.
   */
  messages?: Readonly<Record<string, MessageOverrides>>;
  /**
   * Trust the request's `Host` / `X-Forwarded-Host` / `X-Forwarded-Proto` headers for the app's origin.
   * Ignored when {@link AuthConfig.url} is set. Without {@link AuthConfig.trustedHosts} any client can pick
   * the origin of the links authlib builds: use it only in development or behind a proxy that overwrites
   * those headers (in production it logs `trust-host-unrestricted` once).
   */
  trustHost?: boolean;
  /**
   * Hosts the app may be reached as, when {@link AuthConfig.url} is not set (default `AUTH_TRUSTED_HOSTS`,
   * comma-separated). Setting a list trusts forwarded headers (like `trustHost`) but only for these hosts:
   * a request whose `X-Forwarded-Host` (else `Host`) is not on it, or whose `X-Forwarded-Host` /
   * `X-Forwarded-Proto` hold several different values (a duplicated or comma-joined header) or a malformed
   * one, is refused with a 400 `UntrustedHost`. `Forwarded` (RFC 7239) is ignored.
   *
   * Each entry is `host[:port]` in lower-case ASCII (punycode for IDNs); without a port it matches the
   * scheme's default port only. The leftmost label may hold one `*`, matching one or more of `a-z0-9-`
   * (never a dot), with at least two labels after it: `*.preview.example` matches `pr-1.preview.example`,
   * not `preview.example` nor `a.b.preview.example`.
   */
  trustedHosts?: string[];
  /**
   * The canonical URL of the app, e.g. `https://app.example.com` (default `AUTHLIB_URL`; this field wins).
   * When set, its origin is the origin of every URL authlib builds (email links, OAuth `redirect_uri`,
   * redirects, page form actions, `callbackUrl` resolution, the WebAuthn RP ID and origin, the redirect
   * proxy's state) and of every same-origin check (CSRF `Origin`, the `redirect` callback's `baseUrl`);
   * `Host`, `X-Forwarded-Host`, `X-Forwarded-Proto` and `Forwarded` are then ignored. `useSecureCookies`
   * defaults from its scheme. Must be an absolute http(s) URL without credentials, query or fragment, else
   * every request fails with `InvalidOriginConfig`. Its path is used as `basePath` by `setEnvDefaults`
   * when `basePath` is unset. Setting it is the recommended production setup.
   */
  url?: string;
  /**
   * Secure, `__Host-` prefixed cookies (see `cookies` for what overrides weaken). Default: true when the
   * origin ({@link AuthConfig.url}, else the request's) is https.
   */
  useSecureCookies?: boolean;
}
