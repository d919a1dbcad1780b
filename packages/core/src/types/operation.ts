/**
 * The shapes of an operation and of a feature: what the kernel reads to route a request, run its checks,
 * present its answer and offer it to `auth.api`. They stand on the types floor, below every feature and
 * below the kernel, so that a feature (built in or the app's own) declares its operations without
 * importing the kernel, and the kernel's feature list imports the features without a circle.
 *
 * @module types/operation
 */
import type { Adapter } from "./adapters.js";
import type { RedirectResult, RequestLike } from "./api.js";
import type { FeatureAudit } from "./audit.js";
import type { AuthConfig, AuthFeature } from "./config.js";
import type { AuthErrorShape } from "./errors.js";
import type { FeatureTexts, MessageKey } from "./i18n.js";
import type {
  AccountSection,
  ConfigOptions,
  InternalOptions,
  OrganizationSection,
  OwnerOperationRule,
  RequestInternal,
  ResponseInternal,
  RouteNeeds,
  SignInHooks,
  UserDetailsPart,
} from "./internal.js";
import type { ProviderConfig } from "./providers.js";
import type { FeatureRateLimits } from "./rate-limit.js";

/**
 * The operations the owner-present rule guards, by name: the shared ones here, a feature's added by
 * declaration merging in its `types.ts` (their runtime labels: `FeatureDefinition.ownerOperations`).
 */
export interface OwnerOperations {
  addPasskey: true;
  removePasskey: true;
  changeEmail: true;
  changePassword: true;
  linkAccount: true;
  unlinkAccount: true;
  revokeSessions: true;
  deleteAccount: true;
}

/** The operations the owner-present rule guards (their names are in the refusal, the docs and SECURITY.md). */
export type OwnerOperation = keyof OwnerOperations;

/**
 * An operation's typed input: parses the fields of a form post, of a JSON body or of an `auth.api` call
 * (the same object, whichever way it came) into `I`, or throws an `AuthError` naming the field. Fields
 * it does not declare are ignored. Made with `inputSchema` (`@authlib/core`).
 */
export interface InputSchema<I> {
  /** The typed input of `fields` (their own properties); throws an `AuthError` naming the field it refuses. */
  parse(fields: object): I;
}

/** The input type a schema parses into: `InputOf<typeof schema>`. */
export type InputOf<S> = S extends InputSchema<infer I> ? I : never;

/**
 * Runs an operation over a parsed request and its parsed input (`undefined` for an operation that
 * declares none): returns the route's result, or throws an `AuthError`. A JSON operation's `body` is the
 * data `auth.api` answers.
 */
export type OperationHandler<I = unknown, Body = unknown> = (
  options: InternalOptions,
  request: RequestInternal,
  input: I,
) => ResponseInternal<Body> | Promise<ResponseInternal<Body>>;

/**
 * What an operation needs before its handler runs: the request context's CSRF state and callback URL,
 * and whether the owner must be present (`sign-in/owner-present.ts`): always (an operation name), or as
 * the request decides (a sign-in that links an account, a passkey registration).
 */
export interface OperationNeeds<I = unknown> extends RouteNeeds {
  /**
   * The owner-present operation this is (SECURITY.md), or a function of the request and its parsed input
   * that names it when it is one.
   */
  ownerPresent?: OwnerOperation | OwnerPresentRule<I>;
}

/** Holds the rule as a method, so a list of declarations holds rules of any input (as it holds their handlers). */
interface OwnerPresentRuleOf<I> {
  rule(options: InternalOptions, request: RequestInternal, input: I): OwnerOperation | undefined;
}

/** Names the owner-present operation a request is, from the request and its parsed input (`undefined`: none). */
export type OwnerPresentRule<I = unknown> = OwnerPresentRuleOf<I>["rule"];

/**
 * How a refusal is answered to a browser or a script over HTTP (`auth.api` always gets the typed error):
 * - `"page"`: a page a browser navigates to; a refusal before any handler runs is the error page;
 * - `"json"`: a route scripts call with `fetch`; a refusal is `{ error: <type> }` with the error's HTTP
 *   status (`Configuration` and 500 for an error that is the operator's);
 * - a function: a form that goes back to its page with `?error=<type>`: it answers the refusal
 *   (`undefined`: the general policy, the sign-in or the error page).
 * Default: the general policy (`http/error-response.ts`).
 */
export type Presentation =
  | "page"
  | "json"
  | ((
      options: InternalOptions,
      request: RequestInternal,
      error: AuthErrorShape,
    ) => ResponseInternal | undefined | Promise<ResponseInternal | undefined>);

/**
 * One operation: its route, what it needs, its typed input, how its refusals are answered, and its
 * handler. `I` is the input its handler takes, `Body` the data it answers.
 */
export interface OperationDeclaration<I = unknown, Body = unknown> {
  /** A name unique in the instance: how `auth.api` and the integrations reach it (`listSessions`). */
  name: string;
  /** GET or POST; PUT, PATCH and DELETE for a protocol that needs them (SCIM), on a subtree route. */
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /**
   * Its path under the base path: a fixed one (`sessions`, `sessions/revoke`), one whose last segment
   * is a provider's id (`signin/:provider`), or a subtree (`scim/*`: every deeper path below its first
   * segment that no fixed route names, in `RequestInternal.subPath`).
   */
  path: string;
  needs?: OperationNeeds<I>;
  presentation?: Presentation;
  /**
   * A script of any origin may call it, without credentials (an OAuth endpoint a browser-based client
   * calls with `fetch`): its answer says so, and the router answers the browser's CORS preflight
   * (`OPTIONS`) for its path with the request headers listed here.
   */
  crossOrigin?: { headers: readonly string[] };
  /** True when the configuration has this operation (default: whenever its feature is on); its own answer wins over its feature's. */
  enabled?: (config: AuthConfig) => boolean;
  /**
   * The fields it takes (`inputSchema({ … })`), parsed once by the pipeline, before the owner-present
   * rule and the handler: from the form or JSON body of a POST, the query of a GET, or the object given to
   * `auth.api`. Without one, the handler reads the request itself and gets `undefined`.
   */
  input?: InputSchema<I>;
  /**
   * The fields its input is parsed from over HTTP, when they are not just the form or JSON body of a POST
   * or the query of a GET (a sign-in's authorization parameters come in the query of its POST).
   */
  httpFields?: (request: RequestInternal) => object;
  /** Runs it (declared as a method so a list of declarations holds handlers of any input). */
  handler(options: InternalOptions, request: RequestInternal, input: I): ResponseInternal<Body> | Promise<ResponseInternal<Body>>;
}

/**
 * How a feature's `auth.api` methods run its operations in process (`FeatureDefinition.api`): through the
 * same pipeline as every other one (`kernel/api.ts`).
 */
export interface ApiRunner {
  /** The operation's result for the caller's request and its typed `input` (`UnknownAction` when it is off). */
  call<Body>(request: RequestLike, operation: OperationDeclaration<unknown, Body>, input?: object): Promise<ResponseInternal<Body>>;
  /** The data a JSON operation answers. */
  data<Body>(request: RequestLike, operation: OperationDeclaration<unknown, Body>, input?: object): Promise<Body>;
  /** Where a form operation sends the browser, and its cookies. */
  redirect(request: RequestLike, operation: OperationDeclaration<unknown>, input?: object): Promise<RedirectResult>;
  /** Server work with the instance's options and no request (a re-check the app schedules); a failure is logged and thrown typed. */
  server<T>(work: (options: ConfigOptions) => Promise<T>): Promise<T>;
}

/**
 * A capability of authlib as one module: its operations, turned on by its part of the configuration.
 * The kernel keeps a list of them and names none.
 */
export interface FeatureDefinition extends AuthFeature {
  /** The feature's name (`sessions`, `passkeys`, or the app's own). */
  name: string;
  /** True when the configuration turns the feature on (default: always). */
  enabled?: (config: AuthConfig) => boolean;
  /** The option of the configuration that turns it on, named when one of its operations is called while it is off. */
  turnedOnBy?: string;
  /** The operations it adds. Their code should load with their first request (`lazyHandler`). */
  operations: readonly OperationDeclaration[];
  /** Where it takes part in the sign-in flow (`SignInHooks`). */
  hooks?: SignInHooks;
  /**
   * Hooks it keeps while it is off (`SignInHooks`): an answer the shared flow gives in its name either way
   * (a refusal of its own kind). A hook of an enabled feature wins.
   */
  hooksWhenOff?: SignInHooks;
  /** Its error types that are a user's own expected failure: logged at `debug` (any other type of its is an `error`). */
  quietErrors?: readonly string[];
  /** The events of `config.events` it fires, beyond the shared ones: each wrapped so a failing handler is only logged. */
  events?: readonly string[];
  /**
   * Its cookies, each by its key in the `cookies` option with its name after the `authlib.` prefix
   * (`{ inviteFlow: "invite-flow" }`): the same defaults and overrides as the shared ones.
   */
  cookies?: Readonly<Record<string, string>>;
  /** Its operations the owner-present rule guards (named by `needs.ownerPresent`), each with its label and rule. */
  ownerOperations?: Readonly<Record<string, OwnerOperationRule>>;
  /**
   * Its methods of `auth.api` (authlib's own features: `AuthApi` declares them), each made from the runner
   * that calls its operations in process.
   */
  api?: Readonly<Record<string, (run: ApiRunner) => (...args: never[]) => Promise<unknown>>>;
  /**
   * Its own texts (`FeatureMessages`), merged into the instance's catalog whether or not the feature is on
   * (a key of `Messages` always has a text), under the app's `messages`.
   */
  messages?: FeatureTexts;
  /** Its section of the built-in account page, when the feature is on. */
  accountSection?: AccountSection;
  /** Its section of the built-in organization page (under the organization shown), when the feature is on. */
  organizationSection?: OrganizationSection;
  /** What it tells an admin about a user (the admin feature's `getUser`), when the feature is on. */
  userDetails?: UserDetailsPart;
  /**
   * Its start-up check: the first error in its part of the configuration, or `undefined`. `createAuth`
   * throws it (`Auth()` answers it per request); it runs after the checks of the providers and sessions.
   */
  check?: (config: AuthConfig, providers: readonly ProviderConfig[]) => AuthErrorShape | undefined;
  /**
   * The adapter methods its part of the configuration needs (`undefined`: none), and the name the start-up
   * check's `MissingAdapter`/`MissingAdapterMethods` gives the feature.
   */
  adapterNeeds?: (config: AuthConfig) => { readonly feature: string; readonly methods: ReadonlyArray<keyof Adapter> } | undefined;
  /** What the audit trail records for it (with `config.audit`): its events' rows, its routes' failures. */
  audit?: FeatureAudit;
  /**
   * Its sections of `rateLimit`, each by its name with its defaults (`{ codes: { userMax: 10, … } }`):
   * checked and resolved with the rest, read with `limitsOf(options).features[name]` (`false`: switched off).
   */
  rateLimits?: FeatureRateLimits;
  /**
   * Texts its part of the configuration sets (the admin feature's `banMessage`), the same in every language:
   * they come before every feature's own texts; the app's `messages` still override them.
   */
  configuredMessages?: (config: AuthConfig) => Readonly<Partial<Record<MessageKey, string>>> | undefined;
  /** The sign-in page's message for error types of its own (`?error=<type>`), on or off: a key of its texts. */
  signInErrors?: Readonly<Record<string, MessageKey>>;
}
