/**
 * Types shared by the request pipeline: the parsed request, the response an action returns, and the
 * options resolved once per request.
 */
import type { Adapter } from "./adapters.js";
import type { Cookie } from "./http/cookies.js";
import type { JWTOptions } from "./jwt.js";
import type { ProviderConfig } from "./providers/types.js";
import type { SessionStrategyHandler } from "./session/types.js";
import type {
  AuthConfig,
  CallbacksOptions,
  CookiesOptions,
  EventCallbacks,
  LoggerInstance,
  PagesOptions,
  SessionOptions,
  Theme,
} from "./types.js";

/** The routes authlib answers under its base path. */
export type AuthAction =
  | "providers"
  | "csrf"
  | "session"
  | "signin"
  | "callback"
  | "signout"
  | "error"
  | "verify-request"
  | "webauthn-options"
  | "webauthn-script";

/** A request, parsed once. */
export interface RequestInternal {
  /** The original request (its body not consumed: a clone was read). */
  request: Request;
  url: URL;
  method: "GET" | "POST";
  action: AuthAction;
  providerId?: string;
  query: Record<string, string>;
  /** The parsed form or JSON body of a POST; `{}` when absent. */
  body: Record<string, unknown>;
  cookies: Record<string, string | undefined>;
  headers: Headers;
}

/** What an action answers. `redirect` makes a 302 (or `{url}` JSON for fetch clients). */
export interface ResponseInternal {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  redirect?: string;
  cookies?: Cookie[];
}

/** A provider with the URLs of its routes. */
export type InternalProvider = ProviderConfig & {
  /** `<origin><basePath>/signin/<id>` */
  signinUrl: string;
  /** `<origin><basePath>/callback/<id>` */
  callbackUrl: string;
};

/** Everything an action needs, resolved once per request. */
export interface InternalOptions {
  /** The app's origin (scheme + host) for this request: `config.url`'s, else the request's as `resolveOrigin` trusts it. */
  origin: string;
  /** Base path of the routes, without a trailing slash. */
  basePath: string;
  /** `origin + basePath`. */
  authUrl: string;
  action: AuthAction;
  provider?: InternalProvider;
  providers: InternalProvider[];
  /** Secrets, newest first. */
  secret: string[];
  cookies: CookiesOptions;
  useSecureCookies: boolean;
  callbacks: CallbacksOptions;
  /** Events, wrapped so a failing handler is logged and never breaks the flow. */
  events: EventCallbacks;
  /** The adapter, wrapped so its failures become `AdapterError`. */
  adapter?: Adapter;
  session: SessionOptions;
  /** The session strategy in use. */
  sessionStrategy: SessionStrategyHandler;
  jwt: JWTOptions & { secret: string[] };
  pages: Partial<PagesOptions>;
  theme: Theme;
  logger: LoggerInstance;
  csrfToken: string;
  /** True when the POST carried the right CSRF token (or the check is skipped). */
  csrfTokenVerified: boolean;
  skipCSRFCheck: boolean;
  /** Where to go after the action, already validated by the redirect callback. */
  callbackUrl: string;
  redirectProxyUrl?: string;
  /** Origin patterns the redirect proxy may forward to (the configured list, or the default origin family). */
  redirectProxyAllowedOrigins: string[];
  experimental: NonNullable<AuthConfig["experimental"]>;
  /** The configuration as given. */
  config: AuthConfig;
}
