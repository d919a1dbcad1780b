/**
 * GET|POST /callback/:provider: finishes a sign-in. OAuth/OIDC providers come back here with a code
 * (GET, or POST for `response_mode=form_post`); the credentials form posts here (CSRF-checked); email
 * sign-in links land here (GET), and their confirmation page and mailed codes post here. Their fields are
 * parsed once by the declarations' schemas (`actions/sign-in-input.ts`).
 */

import { AuthError, CallbackRouteError, CredentialsSignin, InvalidProvider } from "../errors.js";
import { assertCsrf } from "../http/csrf.js";
import { requestBinding } from "../http/flow-binding.js";
import { isOAuthProvider, isPasswordProvider } from "../provider-kind.js";
import { malformedCredentialFields } from "../providers/credentials.js";
import { askSignInCallback, completeSignIn } from "../sign-in/flow.js";
import { oauthContext } from "../sign-in/oauth-context.js";
import { withProvenEmail } from "../sign-in/unproven-email.js";
import type { AdapterUser } from "../types/adapters.js";
import type { Account, User } from "../types/config.js";
import type { InternalOptions, InternalProvider, RequestInternal, ResponseInternal } from "../types/internal.js";
import type { CredentialsConfig, EmailConfig, OAuthConfig, PasswordConfig, ProviderConfig } from "../types/providers.js";
import { webAuthnRoutes } from "../webauthn/routes-loader.js";
import type { EmailCallbackFields } from "./email.js";
import type { CallbackFields, CallbackPostFields } from "./sign-in-input.js";

type CallbackHandler<I> = (
  options: InternalOptions,
  request: RequestInternal,
  provider: InternalProvider,
  input: I,
) => Promise<ResponseInternal>;

/** A provider type's callbacks: GET takes the query's fields, POST the posted ones (`actions/sign-in-input.ts`). */
interface CallbackMethods {
  GET?: CallbackHandler<CallbackFields>;
  POST?: CallbackHandler<CallbackPostFields>;
}

/**
 * The callback of each provider type, by method. A provider type or method missing here does not take a
 * callback that way (`InvalidProvider`).
 */
const callbacks: Record<ProviderConfig["type"], CallbackMethods> = {
  oauth: { GET: oauthCallbackOf, POST: formPostOf },
  oidc: { GET: oauthCallbackOf, POST: formPostOf },
  credentials: {
    POST: (options, request, provider, input) =>
      credentialsCallback(options, request, provider as InternalProvider & CredentialsConfig, input.fields),
  },
  // Email and passkey code load only when such a provider is used (see actions/webauthn-routes).
  email: { GET: emailCallbackOf, POST: emailCallbackOf },
  webauthn: {
    POST: async (options, request, _provider, input) => (await webAuthnRoutes(options)).webAuthnCallback(options, request, input),
  },
};

async function emailCallbackOf(options: InternalOptions, request: RequestInternal, provider: InternalProvider, input: EmailCallbackFields) {
  return (await import("./email.js")).emailCallback(options, request, provider as InternalProvider & EmailConfig, input);
}

function oauthProviderOf(provider: InternalProvider): InternalProvider & OAuthConfig {
  if (!isOAuthProvider(provider)) throw new InvalidProvider(`The provider "${provider.id}" is not an OAuth provider.`);
  return provider;
}

function oauthCallbackOf(options: InternalOptions, request: RequestInternal, provider: InternalProvider, input: CallbackFields) {
  return oauthCallback(options, request, oauthProviderOf(provider), new URLSearchParams(input.params));
}

/**
 * `response_mode=form_post`: the provider's page POSTs here from its own site, so the browser leaves out
 * our SameSite=Lax cookies (session, callback URL). Bounce to a GET of the same parameters, a top-level
 * navigation that carries them, and finish there.
 */
async function formPostOf(_options: InternalOptions, _request: RequestInternal, provider: InternalProvider, input: CallbackPostFields) {
  const posted = new URLSearchParams(Object.entries(input.fields).map(([key, value]) => [key, String(value)]));
  return { redirect: `${oauthProviderOf(provider).callbackUrl}?${posted}` };
}

/** GET /callback/:provider: an OAuth/OIDC response, or an email link. */
export function callbackAction(options: InternalOptions, request: RequestInternal, input: CallbackFields): Promise<ResponseInternal> {
  return finishCallback(options, request, (provider) => callbacks[provider.type]?.GET?.(options, request, provider, input));
}

/** POST /callback/:provider: credentials, a `form_post` response, an email link confirmed or a mailed code, a passkey. */
export function callbackPostAction(
  options: InternalOptions,
  request: RequestInternal,
  input: CallbackPostFields,
): Promise<ResponseInternal> {
  return finishCallback(options, request, (provider) => callbacks[provider.type]?.POST?.(options, request, provider, input));
}

/** Runs the provider's callback (`run`: `undefined` when its type takes none this way); an unexpected failure is a `CallbackRouteError`. */
async function finishCallback(
  options: InternalOptions,
  request: RequestInternal,
  run: (provider: InternalProvider) => Promise<ResponseInternal> | undefined,
): Promise<ResponseInternal> {
  const { provider } = options;
  if (!provider) throw new InvalidProvider(`Unknown provider "${request.providerId ?? ""}".`);
  try {
    const answer = run(provider);
    if (!answer) throw new InvalidProvider(`The provider "${provider.id}" does not accept a ${request.method} callback.`);
    return await answer;
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new CallbackRouteError(`The ${provider.id} callback failed.`, { cause: { err: error as Error, provider: provider.id } });
  }
}

async function oauthCallback(
  options: InternalOptions,
  request: RequestInternal,
  provider: InternalProvider & OAuthConfig,
  params: URLSearchParams,
): Promise<ResponseInternal> {
  const flow = { binding: await requestBinding(options, request) };
  const { finishAuthorization } = await import("../oauth/index.js");
  const result = await finishAuthorization(oauthContext(options, request, provider, flow), params);
  if (result.kind === "proxy-redirect") return { redirect: result.url };
  const { profile, account, cookies } = result;
  // From here on the user's email is the one the provider vouched for, or null (see unproven-email.ts).
  const profileUser = withProvenEmail(provider, profile, result.user);
  const { users } = options.capabilities;
  const userByAccount = users
    ? await users.getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
    : null;
  // The check cookies proved that this browser and this session started the flow as a link.
  const linkTo = result.link && !userByAccount && users ? await options.sessionStrategy.currentUser(options, request) : null;
  const link = linkTo?.id ? { user: linkTo } : undefined;
  const redirect = await askSignInCallback(options, { user: userByAccount ?? profileUser, account, profile, ...(link ? { link } : {}) });
  if (redirect) return { redirect, cookies };
  // Finding or creating the user (and the address rules behind it) loads with the first OAuth sign-in.
  const { findOrCreateOAuthUser } = await import("../sign-in/link-account.js");
  const { user, isNewUser, linkedToSession } = await findOrCreateOAuthUser(options, request, {
    provider,
    profileUser,
    account,
    link: result.link,
    linked: userByAccount,
  });
  // A link is not a sign-in: the session that asked for it goes on exactly as it was (its authTime, amr and
  // aal neither raised nor reset, no second step for a user with a second factor, no signIn event), back to where the
  // link was asked from (the account page asks with `?done=linked`).
  if (linkedToSession) return { redirect: options.callbackUrl, cookies };
  return completeSignIn(options, request, { user, account, profile, isNewUser }, cookies);
}

/** The password provider with the password check (loaded with its first sign-in) as its `authorize`. */
async function passwordChecker(options: InternalOptions, provider: PasswordConfig): Promise<CredentialsConfig> {
  const check = options.hooks?.checkPassword;
  if (!check) throw new InvalidProvider(`The provider "${provider.id}" has no password feature to check it.`);
  return { ...provider, authorize: (credentials) => check(options, provider, credentials) };
}

async function credentialsCallback(
  options: InternalOptions,
  request: RequestInternal,
  provider: InternalProvider & CredentialsConfig,
  credentials: Record<string, unknown>,
): Promise<ResponseInternal> {
  assertCsrf("credentials callback", options.csrfTokenVerified);
  // The limiter's code loads with the first attempt, and only when limits are on.
  const limiter = options.rateLimits.config === false ? undefined : await import("../rate-limit/credentials.js");
  // authorize gets text only, as a form posts it: a JSON array or object in a named field would
  // slip past the per-account lockout (it counts strings) into an authorize that String()s it.
  const malformed = malformedCredentialFields(provider, credentials);
  if (malformed.length > 0) {
    await limiter?.countMalformedAttempt(options, request, provider);
    throw new CredentialsSignin(`The credential field(s) ${malformed.join(", ")} must be text.`);
  }
  // An address a feature refuses this way in (an SSO-only domain) is refused before any password is checked.
  const typed = typeof credentials.email === "string" ? credentials.email.trim().toLowerCase() : undefined;
  const early = typed ? await options.hooks?.addressRefusal?.(options, typed, "pwd") : undefined;
  if (early) throw early;
  // The Password() provider's accounts are authlib's own: it checks them where authorize would run.
  const checked = isPasswordProvider(provider) ? await passwordChecker(options, provider) : provider;
  // A refused attempt (RateLimited) never runs authorize.
  const authorized = limiter
    ? await limiter.authorizeLimited(options, request, checked, credentials)
    : await checked.authorize(credentials, request.request);
  if (!authorized) throw new CredentialsSignin("authorize() returned no user.");

  const fromAuthorize = { ...authorized, id: String(authorized.id ?? crypto.randomUUID()) };
  const user: User | AdapterUser = await options.sessionStrategy.credentialsUser(options, fromAuthorize);
  const account: Account = { providerAccountId: fromAuthorize.id, type: "credentials", provider: provider.id };

  const redirect = await askSignInCallback(options, { user, account, credentials: credentials as Record<string, never> });
  if (redirect) return { redirect };
  const response = await completeSignIn(options, request, { user, account, isNewUser: false });
  // Signed in: this browser becomes a known device of the account (see rate-limit/device-token.ts).
  const device = limiter ? await limiter.deviceCookies(options, request, provider, credentials) : [];
  return device.length > 0 ? { ...response, cookies: [...(response.cookies ?? []), ...device] } : response;
}
