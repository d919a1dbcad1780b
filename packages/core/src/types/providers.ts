/**
 * The shapes of provider objects. A provider is data: an id, a type and the options of its kind.
 * Public as `@authlib/core/providers/types` (`providers/types.ts` re-exports every name) and through
 * `@authlib/core`. Declared out of `providers/`, whose presets build on the OAuth code, so that the modules
 * below the providers (http, rate limits, email) can name a provider without reaching up to them.
 *
 * @module provider-types
 */
import type { Adapter } from "./adapters.js";
import type { ClientAuthMethod } from "./authorization-server.js";
import type { Account, Awaitable, Profile, ProviderType, Theme, User } from "./base.js";
import type { Translator } from "./i18n.js";
import type { EmailRateLimit } from "./rate-limit.js";

export type { ProviderType };

/** What every provider has. */
export interface CommonProviderOptions {
  /** Unique id, used in URLs (`/auth/signin/<id>`) and env variable names (`AUTH_<ID>_ID`). */
  id: string;
  /** Name shown on the sign-in page. */
  name: string;
  type: ProviderType;
  /**
   * The provider's own start-up check, run by `createAuth` after the general ones: the configuration
   * error it finds (`Password()` without an adapter or a way to send mail, an email provider's `code` out
   * of range), or `undefined`. `provider` is the provider as configured. An `AuthError` is thrown as it
   * is; any other error as `InvalidProvider` with its message.
   */
  checkConfig?: (context: {
    provider: ProviderConfig;
    providers: readonly ProviderConfig[];
    adapter: Adapter | undefined;
  }) => Error | undefined;
}

/** Token endpoint response of an OAuth provider (the fields authlib reads, plus any other). */
export interface TokenSet {
  access_token?: string;
  token_type?: string;
  id_token?: string;
  refresh_token?: string;
  expires_in?: number;
  expires_at?: number;
  scope?: string;
  [key: string]: unknown;
}

/** An endpoint: its URL, or the URL with extra parameters. */
export type EndpointConfig = string | { url?: string; params?: Record<string, unknown> };

// How the client authenticates at the token endpoint: one union with the authorization server's clients.
export type { ClientAuthMethod };

/**
 * A documented deviation of a provider's token endpoint response that `oauth/conform.ts` rewrites into
 * the standard form before validation (presets set these; nothing relaxes a security check):
 * - `"token-type-missing"`: the response omits `token_type` for what is a Bearer token (Atlassian,
 *   Figma, Instagram, VK, WeChat, WorkOS); `bearer` is added only when absent, so a `DPoP` answer is
 *   still refused;
 * - `"data-envelope"`: the token fields come wrapped as `{ "data": [ { ... } ] }` (Instagram API with
 *   Instagram Login); the single entry is unwrapped;
 * - `"json-as-text"`: the JSON body comes as `text/plain`, and errors as HTTP 200 `{ errcode, errmsg }`
 *   (WeChat); the body is read as JSON and such an error becomes RFC 6749's HTTP 400 `invalid_grant`.
 */
export type TokenResponseQuirk = "token-type-missing" | "data-envelope" | "json-as-text";

/**
 * How a provider's authorization and token *requests* depart from OAuth 2 (`oauth/conform-quirks.ts`
 * rewrites them; presets set these; none relaxes a security check).
 */
export interface OAuthRequestQuirks {
  /**
   * Name the provider gives the client id parameter, in the authorization request and in the body of a
   * `client_secret_post` token request (TikTok `client_key`, WeChat `appid`).
   */
  clientIdParam?: string;
  /** Name the provider gives the client secret parameter of a `client_secret_post` token request (WeChat `secret`). */
  clientSecretParam?: string;
  /** The token endpoint takes its parameters in the query of a GET instead of a POSTed form (WeChat). */
  tokenRequestMethod?: "GET";
  /** A fragment the authorization URL must end with (WeChat `wechat_redirect`). */
  authorizationFragment?: string;
}

/** Options of an OAuth 2 or OpenID Connect provider. */
export interface OAuthConfig<P = Profile> extends CommonProviderOptions {
  type: "oauth" | "oidc";
  /** Issuer URL; endpoints are discovered from it when not given. */
  issuer?: string;
  authorization?: EndpointConfig;
  token?: EndpointConfig;
  /**
   * The userinfo endpoint, or `{ request }`: a function that fetches the profile itself (from the token
   * response) in place of the standard userinfo request.
   */
  userinfo?:
    | EndpointConfig
    | {
        url?: string;
        /** Fetches the provider's profile with the tokens of the sign-in. */
        request?: (context: { tokens: TokenSet; provider: OAuthConfig<P> }) => Awaitable<P>;
      };
  clientId?: string;
  clientSecret?: string;
  /** Client metadata; `token_endpoint_auth_method` selects client authentication (default `client_secret_basic`). */
  client?: { token_endpoint_auth_method?: ClientAuthMethod; [key: string]: unknown };
  /** Private key for `private_key_jwt` client authentication. */
  clientPrivateKey?: CryptoKey | { key: CryptoKey; kid?: string };
  /**
   * Which checks protect the flow. Default `["pkce", "state"]`, and `["pkce", "state", "nonce"]` for
   * `oidc` providers. `"state"` is added when a redirect proxy is used, and when the provider's metadata
   * does not list `S256` in `code_challenge_methods_supported` (PKCE alone is trusted only when the
   * provider says it enforces it). See `oauth/checks.ts`.
   */
  checks?: Array<"pkce" | "state" | "nonce" | "none">;
  /** Documented deviations of this provider's token response, rewritten before validation (see {@link TokenResponseQuirk}). */
  tokenResponseQuirks?: TokenResponseQuirk[];
  /**
   * The largest response body authlib reads from this provider, in bytes: discovery, token, userinfo,
   * refresh, and the preset's own API calls. Enforced while the body streams (a `Content-Length` above
   * it is refused before reading); a larger body fails the sign-in with `ProviderResponseTooLarge`.
   * Default 1 MiB (1048576).
   */
  maxResponseBytes?: number;
  /**
   * `oidc` only: where the profile comes from. Unset (the default): the ID token's claims, completed from
   * the userinfo endpoint when they lack `email` or `name` (if that request fails, the sign-in goes on
   * with the ID token's claims and logs `userinfo-unavailable`); `true`: the ID token's claims only, never
   * a userinfo request; `false`: the userinfo response merged over the ID token's claims at every
   * sign-in, and its failure fails the sign-in (as with a configured `userinfo`). The ID token's `sub`
   * always wins: a userinfo response about another `sub` fails the sign-in (OIDC Core 5.3.2).
   */
  idToken?: boolean;
  /** Maps the provider's profile to a `User`. Its `id` becomes `providerAccountId`. */
  profile?: (profile: P, tokens: TokenSet) => Awaitable<User>;
  /** Picks what is stored of the token response in the account row. */
  account?: (tokens: TokenSet) => Partial<Account> | undefined | null;
  /**
   * Links this account to an existing user with the same email. Only ever on a proven address: the
   * provider must vouch for the profile's email, and the existing user's email must be verified.
   */
  allowDangerousEmailAccountLinking?: boolean;
  /**
   * Whether the provider guarantees that the profile's email is verified when it sends no
   * `email_verified` claim (a flag, or a function of the raw profile). Without it, and without
   * `email_verified: true`, the email is not stored as the user's email. An explicit
   * `email_verified: false` always wins. Presets set it only where the provider guarantees it.
   *
   * `"never"`: the provider's email is never proof, whatever its claims say (a provider whose
   * `email_verified` claim can be set by someone other than the address's owner).
   */
  trustEmail?: boolean | "never" | ((profile: P) => boolean);
  /** Base URL of a redirect proxy; overrides `config.redirectProxyUrl` for this provider. */
  redirectProxyUrl?: string;
  /** Refresh the access token with the refresh token when it is about to expire. */
  refreshAccessToken?: boolean;
  /** Look and feel of the provider's button on the built-in sign-in page. */
  style?: { logo?: string; brandColor?: string; text?: string };
  /** Documented deviations of this provider's authorization and token requests (see {@link OAuthRequestQuirks}). */
  requestQuirks?: OAuthRequestQuirks;
  /** The options the user passed to the preset, kept for merging. */
  options?: Partial<OAuthConfig<P>>;
}

/** An OpenID Connect provider. */
export interface OIDCConfig<P = Profile> extends OAuthConfig<P> {
  type: "oidc";
}

/** What `sendVerificationRequest` receives. */
export interface SendVerificationRequestParams {
  identifier: string;
  url: string;
  expires: Date;
  provider: EmailConfig;
  token: string;
  /**
   * The one-time code to show beside the link (digits; see {@link EmailConfig.code}), or `undefined`
   * when the provider sends no code. It is entered on the verify-request page of the browser that asked.
   */
  code?: string;
  theme: Theme;
  request: Request;
  /**
   * The texts of the request's language (see the configuration's `locale` and `messages`): authlib sets it;
   * the default sign-in mail is written with it. Absent when a test or app calls the function itself.
   */
  text?: Translator;
}

/** A mail authlib writes (the password provider's verification, reset and notice mails), ready to send. */
export interface MailMessage {
  /** The recipient's address. */
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Options of an email (magic link) provider. */
export interface EmailConfig extends CommonProviderOptions {
  type: "email";
  /** Sends the sign-in link. */
  sendVerificationRequest: (params: SendVerificationRequestParams) => Awaitable<void>;
  /**
   * Sends any other mail authlib writes (the `Password()` provider's verification and reset mails)
   * through this provider's transport, from its `from` address; throws when it was not sent. Nodemailer
   * and the mail-service providers (Resend, SendGrid, Postmark, Mailgun) have it.
   */
  sendMail?: (mail: MailMessage, provider: EmailConfig) => Awaitable<void>;
  /** Lifetime of the link in seconds. Default 24 hours. */
  maxAge?: number;
  /** Normalises the address typed by the user; throw to reject it. */
  normalizeIdentifier?: (identifier: string) => string;
  /** Makes the raw token sent in the link. Default: 32 random bytes, hex. */
  generateVerificationToken?: () => Awaitable<string>;
  /** Secret used to hash the stored token; defaults to `config.secret`. */
  secret?: string;
  /** Sender address. */
  from?: string;
  /** API key of a mail service, filled from `AUTH_<ID>_KEY`. */
  apiKey?: string;
  /** SMTP server (nodemailer): a connection URL or nodemailer transport options. */
  server?: unknown;
  /** Limit on sign-in mails per address (default 5 per 15 minutes); `false` switches it off. */
  rateLimit?: EmailRateLimit | false;
  /**
   * When opening the link signs in at once. `"other-browser"` (default): at once in the browser that
   * asked for the mail (it holds the flow's cookie); any other `GET` (a mail scanner, another device)
   * gets a page whose button signs in there, so a scanner's visit spends nothing. `"always"`: the page
   * every time. `"never"`: every `GET` signs in (a scanner's included: only for mail that no scanner reads).
   */
  confirm?: "always" | "other-browser" | "never";
  /**
   * A one-time code in the mail beside the link, entered on the verify-request page of the browser that
   * asked (`POST <basePath>/callback/<id>` with `code`). `length`: 6 to 8 digits (default 6). `false`:
   * no code. The code is never stored: it is derived from the stored token hash with the secret.
   */
  code?: { length?: number } | false;
  options?: Partial<EmailConfig>;
}

/** A field of the credentials form. */
export interface CredentialInput {
  label?: string;
  type?: string;
  placeholder?: string;
  autocomplete?: string;
  required?: boolean;
  [attribute: string]: unknown;
}

/** Options of the credentials provider. */
export interface CredentialsConfig<C extends Record<string, CredentialInput> = Record<string, CredentialInput>>
  extends CommonProviderOptions {
  type: "credentials";
  /** The form fields of the built-in sign-in page. */
  credentials: C;
  /**
   * Checks the submitted credentials. Return the user, or `null` (or throw `CredentialsSignin`) to
   * reject. The returned `id` becomes `providerAccountId`.
   */
  authorize: (credentials: Partial<Record<keyof C, unknown>>, request: Request) => Awaitable<User | null>;
  options?: Partial<CredentialsConfig<C>>;
}

/** The password provider's settings, resolved by `Password()` (see `@authlib/core/providers/password`). */
export interface PasswordSettings {
  /** Fewest characters (Unicode code points, after NFKC) a new password may have. Default 8. */
  minLength: number;
  /** Most characters a password may have. Default 128. */
  maxLength: number;
  /** Lifetime of the sign-up verification link, in seconds. Default 24 hours. */
  verificationMaxAge: number;
  /** Lifetime of a password-reset link, in seconds. Default 1 hour. */
  resetMaxAge: number;
  /**
   * The id of the email provider whose transport sends this provider's mails. Default: the first email
   * provider of the configuration that can send them (`sendMail`).
   */
  mailer?: string;
  /** Sends this provider's mails itself, instead of an email provider (throw when a mail was not sent). */
  sendMail?: (mail: MailMessage) => Awaitable<void>;
}

/**
 * The email-and-password provider (`Password()` from `@authlib/core/providers/password`): a credentials
 * provider whose accounts, hashes, sign-up, verification and reset authlib keeps in the adapter.
 */
export interface PasswordConfig extends CredentialsConfig<{ email: CredentialInput; password: CredentialInput }> {
  passwordAccounts: PasswordSettings;
}

/**
 * The WebAuthn relying party: the site passkeys are bound to. Each field defaults to a value of the
 * request URL (`id` the hostname, `name` the host, `origin` the origin).
 */
export interface WebAuthnRelyingParty {
  /** The domain passkeys are scoped to: the app's hostname or a registrable suffix of it. */
  id?: string;
  /** Shown by the browser and the authenticator when a passkey is created. */
  name?: string;
  /** Origin(s) the browser may report in a response (e.g. `https://example.com`). */
  origin?: string | string[];
}

/** Options of a WebAuthn (passkey) provider. */
export interface WebAuthnConfig extends CommonProviderOptions {
  type: "webauthn";
  /** Relying party; defaults come from the request URL. */
  relyingParty?: WebAuthnRelyingParty;
  /** Offer passkeys in the browser's autofill (conditional UI). Needs a form field with `autocomplete` containing `webauthn`. */
  enableConditionalUI?: boolean;
  /**
   * Fields of the registration form on the built-in sign-in page. Its script sends the `name` field, the
   * display name of a user registering while signed out (at most 64 characters, no `@`); keep one.
   */
  formFields?: Record<string, CredentialInput>;
  /** How long the browser waits for the authenticator, in milliseconds. Default 5 minutes. */
  timeout?: number;
  /** Whether the authenticator must verify the user (PIN, biometrics). Passkeys require it. */
  userVerification?: "required" | "preferred";
  /** Whether the credential must be discoverable (stored on the authenticator). Passkeys require it. */
  residentKey?: "required" | "preferred";
  /**
   * Whether `webauthn-options?action=authenticate&email=…` lists that user's credential ids in
   * `allowCredentials`. Off by default: it tells anyone which addresses have passkeys, and discoverable
   * credentials need no list.
   */
  allowCredentialsForEmail?: boolean;
  [option: string]: unknown;
}

/** Any provider object. */
export type ProviderConfig = OAuthConfig | OIDCConfig | EmailConfig | CredentialsConfig | WebAuthnConfig;

/** A provider as configured: an object, or a preset function called with no options. */
export type Provider = ProviderConfig | ((options?: Record<string, unknown>) => ProviderConfig);
