/**
 * Types shared by the request pipeline: the parsed request, the response an action returns (with its
 * cookies), the options of a request (its configuration's part and its own part), and the one interface
 * both session strategies implement, so that actions never branch on the strategy. The strategy and the
 * options name each other, so they are declared together.
 */

import type { AdapterCapabilities } from "./adapter-capabilities.js";
import type { Adapter, AdapterUser } from "./adapters.js";
import type { Audit } from "./audit.js";
import type { Account, Profile, Session, SessionAssurance, Theme, User } from "./base.js";
import type {
  AuthConfig,
  CallbacksOptions,
  CookieOption,
  CookiesOptions,
  EventCallbacks,
  LoggerInstance,
  PagesOptions,
  SessionOptions,
} from "./config.js";
import type { AuthErrorShape } from "./errors.js";
import type { FeatureTexts, MessageKey, Translator } from "./i18n.js";
import type { JWT, JWTOptions } from "./jwt.js";
import type { PasswordConfig, ProviderConfig } from "./providers.js";
import type { FeatureRateLimits, RateLimitConfig, RateLimitStore, ResolvedRateLimits } from "./rate-limit.js";
import type { SessionRecord, SessionRegistry } from "./session-registry.js";

/** Whether a used passkey challenge was claimed now (`webauthn/used-challenges.ts`), and if not, why. */
export type ClaimResult = { claimed: true } | { claimed: false; reason: "used" } | { claimed: false; reason: "full"; retryAt: number };

/** The used-challenge memory of an instance (`webauthn/used-challenges.ts`). */
export interface UsedChallenges {
  /** How many challenges it holds. */
  readonly size: number;
  /** Claims `key` until `expiresAt` (ms): once per key while it lives. */
  claim(key: string, expiresAt: number, now?: number): ClaimResult;
}

/** Decoded session tokens of one secret set (`session/token-cache.ts`). */
export interface DecodedTokenCache {
  /** How many tokens it holds. */
  readonly size: number;
  /** Empties it when `secrets` is not the set its entries were decoded under. */
  useSecrets(secrets: readonly string[]): void;
  /** The stored payload of `token` read under `salt`, if held and not expired at `now` (ms). Not a copy: never hand it out. */
  get(salt: string, token: string, now: number): JWT | undefined;
  /** Remembers `payload` (already a private copy) as the decoding of `token` under `salt`. */
  set(salt: string, token: string, payload: JWT): void;
}

/** What an instance keeps for the features whose code loads on first use (see `ConfigOptions.instanceState`). */
export interface InstanceState {
  /** The passkey answers verified without adapter token methods. */
  usedChallenges?: UsedChallenges;
  /** Session tokens the built-in `decode` decoded, made by the first session check. */
  tokenCache?: DecodedTokenCache;
  /** JWT sessions: this instance's last registry read of each (eventual revocation, `session/registry.ts`). */
  sessionVerdicts?: Map<string, { record: SessionRecord | null; checkedAt: number }>;
}

/**
 * The first segment of a route under the base path (`session`, `signin`, or a feature's own): the operations of the instance declare them (`kernel/router.ts`).
 */
export type AuthAction = string;

/** The part of a request's span authlib writes to outside `telemetry/runtime.ts`. */
export interface TraceSpan {
  setAttribute(key: string, value: string): unknown;
}

/** What a traced request's span learns while the request runs (its failure, noted by the pipeline). */
export interface RequestTrace {
  span: TraceSpan;
  errorType?: string;
  rateLimited?: boolean;
}

/** A request, parsed once. */
export interface RequestInternal {
  /** The request; when authlib read its body, a copy with the same body (made on first access). */
  request: Request;
  /** The request's span and what it learns, when the instance's telemetry traces it (`telemetry/`). */
  trace?: RequestTrace;
  url: URL;
  /** GET or POST; PUT, PATCH and DELETE only on a route that declares them (SCIM). */
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  action: AuthAction;
  /**
   * The route template of the operation the request runs (`sessions/revoke`, `signin/:provider`), as the
   * router matched it; `undefined` when the path exists but not for this method.
   */
  route?: string;
  /** The path under the base path, as sent (`/password/change`), for messages. */
  path: string;
  /** A provider's id, from a route that names one (`signin/:provider`): never anything else. */
  providerId?: string;
  /** The decoded path segments below the first one, on a subtree route (`scim/*`): `["v2", "Users", "<id>"]`. */
  subPath?: readonly string[];
  query: Record<string, string>;
  /** The parsed form or JSON body of a POST; `{}` when absent. */
  body: Record<string, unknown>;
  cookies: Record<string, string | undefined>;
  headers: Headers;
  /**
   * The address of the connection the request came on, as the framework integration gave it
   * (`Auth(request, config, { clientAddress })`); the per-client rate limits start from it.
   */
  connectionAddress?: string;
  /**
   * True for an operation of `auth.api` (the app's own server code, in process): there is no form to
   * carry a CSRF token, so the check is that the browser did not send the request from another site.
   */
  inProcess?: boolean;
  /**
   * The user a failure of this request concerns, set once the route knows them (the signed-in user of an
   * account change, the user whose sign-in waits at the second step): the audit row of the failure names
   * them, as it would a success.
   */
  auditUserId?: string;
  /** The request's `currentPassword` was checked and right (the owner-present rule checked it): not checked twice. */
  currentPasswordProven?: boolean;
  /** The second factor a two-step sign-in proved (its `amr` value: `otp`, `recovery`, `hwk`), for its audit row. */
  secondFactor?: string;
  /**
   * The admin acting in this request's session (its `act.sub`), set when the session strategy reads an
   * impersonated session: every audit row of the request names them beside the user, and its span
   * carries `authlib.impersonator`.
   */
  impersonatorId?: string;
}

/** A cookie to write on the response. A `maxAge` of 0 deletes it. */
export interface Cookie {
  name: string;
  value: string;
  options: CookieOption["options"];
}

/** What an action answers. `redirect` makes a 302 (or `{url}` JSON for fetch clients). */
export interface ResponseInternal<Body = unknown> {
  status?: number;
  headers?: Record<string, string>;
  /** The data a JSON operation answers: `auth.api` returns it as it is; over HTTP it is the JSON body. */
  body?: Body;
  redirect?: string;
  cookies?: Cookie[];
  /**
   * The request failed, and the action answers it as a page (e.g. back to a form with `?error=`) instead of
   * throwing: the pipeline logs, traces and audits it as it does a thrown error. (An `AuthError`; typed
   * `Error` so this types-only module imports no runtime one.)
   */
  failure?: Error;
}

/** A provider with the URLs of its routes. */
export type InternalProvider = ProviderConfig & {
  /** `<origin><basePath>/signin/<id>` */
  signinUrl: string;
  /** `<origin><basePath>/callback/<id>` */
  callbackUrl: string;
  /**
   * What spans and metrics name this provider by when its id is not one of the configuration's: a feature's
   * provider made per customer (an SSO connection's is `sso`), so that no span names a customer's connection.
   */
  spanLabel?: string;
};

/** What a feature's section of the built-in account page gives the page (`AccountSection.render`). */
export interface AccountSectionView {
  /** The section: an element of the feature's own Preact component, placed after the page's own sections. */
  content: unknown;
  /** The section shows the request's `?error=` next to its own field: the page does not repeat it at the top. */
  errorShownInPlace?: boolean;
  /** The `?done=` notice of a form of the section that answered the page itself (no redirect: a secret shown once). */
  done?: string;
}

/**
 * What a feature tells an admin about one user (`getUser` of the admin feature): a named part (`grants`,
 * `organizations`, `apiKeys`), read from its own store. Never a secret (a token, a key, a hash).
 */
export interface UserDetailsPart {
  /** The part's name in `getUser`'s `features`. */
  name: string;
  /** The part for `userId` (`undefined`: nothing to show). */
  read(options: InternalOptions, userId: string): Promise<unknown>;
}

/** A feature's section of the built-in account page (`GET <basePath>/account`), with its forms' messages. */
export interface AccountSection {
  /** The notice's text for each `?done=` value of the section's forms. */
  notices?: Readonly<Record<string, MessageKey>>;
  /** The alert's text for each error type the section's forms are refused with. */
  errors?: Readonly<Record<string, MessageKey>>;
  /** The section for the request's signed-in user, or `undefined` for none. Its code should load with it (`import()`). */
  render: (
    options: InternalOptions,
    request: RequestInternal,
    page: { text: Translator; csrfToken: string },
  ) => Promise<AccountSectionView | undefined>;
}

/**
 * A feature's section of the built-in organization page (`GET <basePath>/organization`), shown under the
 * organization the page shows (API keys' organization keys): the organizations feature renders the
 * sections it is given without knowing whose they are.
 */
export interface OrganizationSection {
  /** The section for the organization and the request's member (`role`), or `undefined` for none. Its code should load with it. */
  render: (
    options: InternalOptions,
    request: RequestInternal,
    page: { text: Translator; csrfToken: string; organizationId: string; role: string },
  ) => Promise<{ content: unknown; errorShownInPlace?: boolean } | undefined>;
}

/** How the owner-present rule names and weighs an operation of a feature (`FeatureDefinition.ownerOperations`). */
export interface OwnerOperationRule {
  /** The operation as its refusals name it (`"passkey removal"`). */
  label: string;
  /** The request proves the second factor itself (it takes one of its codes): a recent session of any level will do. */
  provesSecondFactor?: boolean;
}

/**
 * What an action needs that depends only on the configuration object: resolved once per object
 * (`resolve.ts`) and shared by every request made with it.
 */
export interface ConfigOptions {
  /** The audit trail of this configuration (`audit/`), absent without `config.audit`. */
  audit?: Audit;
  /** The sign-in hooks of the enabled features (`kernel/features.ts`): the sign-in core calls them, never a feature by name. */
  hooks?: SignInHooks;
  /** The features' error types logged at `debug` (`FeatureDefinition.quietErrors`). */
  quietErrors?: ReadonlySet<string>;
  /** The features' owner-present operations (`FeatureDefinition.ownerOperations`), by name. */
  ownerOperations?: Readonly<Record<string, OwnerOperationRule>>;
  /** The texts the features carry (`FeatureDefinition.messages`), merged into each request's catalog. */
  featureMessages?: readonly FeatureTexts[];
  /** The sign-in page's messages for the features' error types (`FeatureDefinition.signInErrors`). */
  signInErrors?: Readonly<Record<string, MessageKey>>;
  /** The account page's sections of the enabled features (`FeatureDefinition.accountSection`), in the list's order. */
  accountSections?: readonly AccountSection[];
  /** The organization page's sections of the enabled features (`FeatureDefinition.organizationSection`). */
  organizationSections?: readonly OrganizationSection[];
  /** What the enabled features tell an admin about a user (`FeatureDefinition.userDetails`), in the list's order. */
  userDetails?: readonly UserDetailsPart[];
  /**
   * The handler of the operation named `name`, when a feature of the configuration declares it: how one
   * feature's page runs another feature's operation (the account page's second-factor forms) without
   * importing it. Its owner-present need is the caller's to declare (the calling operation's own).
   */
  handlerOf?: (
    name: string,
  ) => ((options: InternalOptions, request: RequestInternal) => ResponseInternal | Promise<ResponseInternal>) | undefined;
  /** Base path of the routes, without a trailing slash. */
  basePath: string;
  /** Secrets, newest first. */
  secret: string[];
  callbacks: CallbacksOptions;
  /** Events, wrapped so a failing handler is logged and never breaks the flow. */
  events: EventCallbacks;
  /** The adapter, wrapped so its failures become `AdapterError`. */
  adapter?: Adapter;
  /** What the adapter can do, per feature (the start-up check proved the features in use). */
  capabilities: AdapterCapabilities;
  session: SessionOptions;
  /** The session strategy in use. */
  sessionStrategy: SessionStrategyHandler;
  /** Where session records live (`session/registry.ts`); absent when sessions cannot be listed. */
  sessionRegistry?: SessionRegistry;
  jwt: JWTOptions & { secret: string[] };
  pages: Partial<PagesOptions>;
  theme: Theme;
  logger: LoggerInstance;
  /** Keys of the warnings this instance has said: each is said once per instance, not per request. */
  warned: Set<string>;
  /** State of features whose code loads on first use, kept per instance (one object, shared by its requests). */
  instanceState: InstanceState;
  skipCSRFCheck: boolean;
  redirectProxyUrl?: string;
  experimental: NonNullable<AuthConfig["experimental"]>;
  /**
   * The rate limits: the configuration's `rateLimit`, resolved (with the limiter's code loaded) by the
   * first request a limit applies to, and kept here for every later one.
   */
  /**
   * The `rateLimit` setting, resolved on first use with the features' sections (`features`, their
   * defaults); `codeStore` counts mailed-code tries when the limits are off.
   */
  rateLimits: {
    config: RateLimitConfig | false | undefined;
    features?: FeatureRateLimits;
    resolved?: ResolvedRateLimits | false;
    codeStore?: RateLimitStore;
  };
  /** The configuration as given. */
  config: AuthConfig;
}

/**
 * What depends on the request: computed per request (`request-context.ts`). CSRF state and the
 * callback URL are computed only for the routes that declare they need them (`actions/index.ts`);
 * elsewhere they are `""` / unverified and the origin's root.
 */
export interface RequestOptions {
  /** The app's origin (scheme + host) for this request: `config.url`'s, else the request's as `resolveOrigin` trusts it. */
  origin: string;
  /** `origin + basePath`. */
  authUrl: string;
  action: AuthAction;
  provider?: InternalProvider;
  providers: InternalProvider[];
  cookies: CookiesOptions;
  useSecureCookies: boolean;
  csrfToken: string;
  /** True when the POST carried the right CSRF token (or the check is skipped). */
  csrfTokenVerified: boolean;
  /** Where to go after the action, already validated by the redirect callback. */
  callbackUrl: string;
  /** Origin patterns the redirect proxy may forward to (the configured list, or the default origin family). */
  redirectProxyAllowedOrigins: string[];
}

/** Everything an action needs: the configuration's part and the request's part. */
export interface InternalOptions extends ConfigOptions, RequestOptions {}

/** What a successful sign-in hands to the strategy. */
/**
 * Named points of the sign-in flow where a feature takes part (the second factor does, through all three).
 * Each runs only when a feature of the configuration declares it.
 */
export interface SignInHooks {
  /**
   * After a first factor, before the session starts: hold the sign-in (its cookies and where the browser
   * goes next, e.g. the second step), or `undefined` to let the session start.
   */
  afterFirstFactor?(
    options: InternalOptions,
    request: RequestInternal,
    result: SignInResult,
    method: string,
  ): Promise<{ redirect: string; cookies: Cookie[] } | undefined>;
  /** The owner-present rule: true when the user's session must be of level 2 (signed in at `signedInAt`). */
  needsSecondLevel?(options: InternalOptions, userId: string, signedInAt: number | undefined): Promise<boolean>;
  /** The user whose sign-in waits in this browser for its second step; throws when none does. */
  pendingSecondStepUser?(options: InternalOptions, request: RequestInternal): Promise<string>;
  /** A password provider's sign-in: the user whose password `credentials` holds, or `null`. */
  checkPassword?(options: InternalOptions, provider: PasswordConfig, credentials: Record<string, unknown>): Promise<AdapterUser | null>;
  /**
   * The owner's way back into a mailbox whose anonymous allowance is spent (`rate-limit/email.ts`): sends
   * the recovery mail; `undefined` when the configuration has none.
   */
  mailboxRecovery?(options: InternalOptions, request: RequestInternal, address: string): (() => Promise<void>) | undefined;
  /**
   * The session's active organization (`session/active-organization.ts`): the user's role there, or `null`
   * when they are not a member (any more), read within the session-control bound. Answered without a
   * promise when this instance's last read is young enough (the session check then costs a map lookup).
   */
  organizationRole?(options: InternalOptions, userId: string, organizationId: string): string | null | Promise<string | null>;
  /**
   * Every session of the user ended (sign out everywhere, a password reset, an address taken back): what
   * else lets someone in ends with them (the authorization server's grants).
   */
  everySessionEnded?(options: Pick<ConfigOptions, "adapter" | "config" | "audit">, userId: string): Promise<void>;
  /**
   * The user was suspended (an operator's ban, a deprovisioning): their sessions ended already
   * (`session/suspend-user.ts`); every other credential that acts for them (API keys) ends too. A notice:
   * every feature that takes it hears it.
   */
  userSuspended?(
    options: Pick<ConfigOptions, "adapter" | "config" | "audit" | "instanceState">,
    userId: string,
    reason: SuspensionReason,
  ): Promise<void>;
  /**
   * The one gate every first factor passes (`sign-in/start-session.ts`), before any session starts: the
   * refusal of this user's sign-in by `method` (the first factor's `amr` name: `pwd`, `email`, `fed`,
   * `hwk`, `sso`), e.g. an operator's ban (`UserBanned`) or an organization's SSO-only rule for the user's
   * address (`SsoRequired`), or `undefined` to let it go on. Every feature that takes it is asked, in the
   * list's order; the first refusal wins.
   */
  signInRefusal?(options: InternalOptions, userId: string, method: string): Promise<AuthErrorShape | undefined>;
  /**
   * A sign-in form's typed address, before any work is done for it (a password checked, a mail sent): the
   * refusal of a sign-in to that address by `method` (`pwd`, `email`), or `undefined`. Every feature that
   * takes it is asked; the first refusal wins. The gate above still decides for the user the form finds.
   */
  addressRefusal?(options: InternalOptions, address: string, method: string): Promise<AuthErrorShape | undefined>;
  /**
   * The sign-in page asks for the address first (home realm discovery: enterprise SSO): the form's action
   * (a CSRF-checked POST of `email`) and the keys of its texts, or `undefined` for no such step.
   */
  signInEmailStep?(options: InternalOptions): SignInEmailStep | undefined;
  /**
   * A built-in page is answered: the banner to put at the top of its body (HTML the hook rendered, every
   * value escaped) and the cookies it needs (a CSRF token for its form), or `undefined` for none. The
   * admin feature's impersonation banner.
   */
  pageBanner?(options: InternalOptions, request: RequestInternal): Promise<{ html: string; cookies: Cookie[] } | undefined>;
}

/** The sign-in page's address step (`SignInHooks.signInEmailStep`): where it posts, and its texts' keys. */
export interface SignInEmailStep {
  action: string;
  label: MessageKey;
  hint: MessageKey;
  button: MessageKey;
}

/** Why a user was suspended: an operator banned or deleted them, or their organization's directory deprovisioned them. */
export type SuspensionReason = "banned" | "deprovisioned" | "deleted";

export interface SignInResult {
  user: User | AdapterUser;
  account: Account | null;
  profile?: Profile;
  isNewUser: boolean;
  /**
   * How the session is signed in to. Absent until the sign-in is complete: `completeSignIn` sets it from
   * the first factor, or holds the sign-in for its second step.
   */
  assurance?: SessionAssurance;
  /** The organization the new session acts in from its start (an SSO sign-in's), with the membership checked by the caller. */
  activeOrganizationId?: string;
}

/** A session strategy: JWT in a cookie, or a database row the cookie points to. */
export interface SessionStrategyHandler {
  /** GET /session (and POST /session with `update`): the session the client sees, and cookie changes. */
  read(
    options: InternalOptions,
    request: RequestInternal,
    update?: { data: unknown },
  ): Promise<{ session: Session | null; cookies: Cookie[] }>;
  /** After a successful sign-in: the cookies that carry the new session. */
  start(options: InternalOptions, request: RequestInternal, signIn: SignInResult): Promise<Cookie[]>;
  /** Sign-out: ends the session (firing `signOut`) and returns the cookies that clear it. */
  end(options: InternalOptions, request: RequestInternal): Promise<Cookie[]>;
  /**
   * The user a credentials sign-in (`authorize()`'s user) starts a session for. JWT: that user. Database:
   * the adapter's user with its id, else its email (a session row must point at a stored user); an
   * unknown user is `UnknownCredentialsUser` (a configuration error: the password was right).
   */
  credentialsUser(options: InternalOptions, user: User & { id: string }): Promise<User | AdapterUser>;
  /** The signed-in user of this request, or `null` (used to link accounts). */
  currentUser(options: InternalOptions, request: RequestInternal): Promise<User | AdapterUser | null>;
  /**
   * The live session of this request as the session APIs see it: its user and its record's id (`null`
   * when the session has no record: database sessions in an adapter without session records). `null`
   * when nobody is signed in. No callback runs and no cookie changes.
   */
  currentSession(
    options: InternalOptions,
    request: RequestInternal,
  ): Promise<{ userId: string; sessionId: string | null; activeOrganizationId?: string } | null>;
  /**
   * The cookies that make `organizationId` the active organization of the request's own session (`null`:
   * none); `[]` when nobody is signed in. The caller checked the membership.
   */
  setActiveOrganization(options: InternalOptions, request: RequestInternal, organizationId: string | null): Promise<Cookie[]>;
  /**
   * The live session's user and how it was signed in to (`undefined` for a session from before authlib
   * kept it), or `null` when nobody is signed in. No callback runs and no cookie changes.
   */
  currentAssurance(
    options: InternalOptions,
    request: RequestInternal,
  ): Promise<{ userId: string; assurance: SessionAssurance | undefined } | null>;
  /**
   * The cookies that carry `user`'s new name, email and picture in the request's own session (after the
   * address changed). JWT: the token re-issued with them (same session id, the rest of the payload kept);
   * database: none (the session reads the user each time).
   */
  refreshUser(options: InternalOptions, request: RequestInternal, user: User): Promise<Cookie[]>;
}

/**
 * What a route needs computed before its action runs.
 * - `csrf`: `"mint"` reads the CSRF cookie and makes one when there is none (forms, POSTs, the start of a
 *   flow); `"read"` only reads it (a flow's callback must not replace the cookie its flow is bound to: a
 *   `form_post` bounce arrives without cookies). The flow binding (`http/flow-binding.ts`) is made from
 *   the token, so every step of a sign-in flow reads it, even when an integration skips the POST check.
 * - `"prove"`: as `"mint"`, and the request must prove it (a POST's form token, or an in-process call not
 *   sent from another site): `MissingCSRF` otherwise, before the handler runs.
 * - `callbackUrl`: the validated callback URL (from the request, else the sealed cookie), and the
 *   cookie that remembers it.
 */
export interface RouteNeeds {
  csrf?: "mint" | "read" | "prove";
  callbackUrl?: boolean;
}
