/**
 * GET|POST /callback/:provider: finishes a sign-in. OAuth/OIDC providers come back here with a code
 * (GET, or POST for `response_mode=form_post`); the credentials form posts here (CSRF-checked); email
 * sign-in links land here (GET), and their confirmation page and mailed codes post here.
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

type CallbackHandler = (options: InternalOptions, request: RequestInternal, provider: InternalProvider) => Promise<ResponseInternal>;

/**
 * The callback of each provider type, by method. A provider type or method missing here does not take a
 * callback that way (`InvalidProvider`).
 */
const callbacks: Record<ProviderConfig["type"], Partial<Record<RequestInternal["method"], CallbackHandler>>> = {
  oauth: { GET: oauthCallbackOf, POST: oauthCallbackOf },
  oidc: { GET: oauthCallbackOf, POST: oauthCallbackOf },
  credentials: {
    POST: (options, request, provider) => credentialsCallback(options, request, provider as InternalProvider & CredentialsConfig),
  },
  // Email and passkey code load only when such a provider is used (see actions/webauthn-routes).
  email: { GET: emailCallbackOf, POST: emailCallbackOf },
  webauthn: { POST: async (options, request) => (await webAuthnRoutes(options)).webAuthnCallback(options, request) },
};

async function emailCallbackOf(options: InternalOptions, request: RequestInternal, provider: InternalProvider) {
  return (await import("./email.js")).emailCallback(options, request, provider as InternalProvider & EmailConfig);
}

function oauthCallbackOf(options: InternalOptions, request: RequestInternal, provider: InternalProvider): Promise<ResponseInternal> {
  if (!isOAuthProvider(provider)) throw new InvalidProvider(`The provider "${provider.id}" is not an OAuth provider.`);
  return oauthCallback(options, request, provider);
}

export async function callbackAction(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const { provider } = options;
  if (!provider) throw new InvalidProvider(`Unknown provider "${request.providerId ?? ""}".`);
  const handler = callbacks[provider.type]?.[request.method];
  if (!handler) throw new InvalidProvider(`The provider "${provider.id}" does not accept a ${request.method} callback.`);
  try {
    return await handler(options, request, provider);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new CallbackRouteError(`The ${provider.id} callback failed.`, { cause: { err: error as Error, provider: provider.id } });
  }
}

async function oauthCallback(
  options: InternalOptions,
  request: RequestInternal,
  provider: InternalProvider & OAuthConfig,
): Promise<ResponseInternal> {
  if (request.method === "POST") {
    // `response_mode=form_post`: the provider's page POSTs here from its own site, so the browser leaves
    // out our SameSite=Lax cookies (session, callback URL). Bounce to a GET of the same parameters, a
    // top-level navigation that carries them, and finish there.
    const posted = new URLSearchParams(Object.entries(request.body).map(([k, v]) => [k, String(v)]));
    return { redirect: `${provider.callbackUrl}?${posted}` };
  }
  const params = new URLSearchParams(Object.entries(request.query));
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

const formFields = new Set(["csrfToken", "callbackUrl"]);

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
): Promise<ResponseInternal> {
  assertCsrf("credentials callback", options.csrfTokenVerified);
  const credentials = Object.fromEntries(Object.entries(request.body).filter(([key]) => !formFields.has(key)));
  // The limiter's code loads with the first attempt, and only when limits are on.
  const limiter = options.rateLimits.config === false ? undefined : await import("../rate-limit/credentials.js");
  // authorize gets text only, as a form posts it: a JSON array or object in a named field would
  // slip past the per-account lockout (it counts strings) into an authorize that String()s it.
  const malformed = malformedCredentialFields(provider, credentials);
  if (malformed.length > 0) {
    await limiter?.countMalformedAttempt(options, request, provider);
    throw new CredentialsSignin(`The credential field(s) ${malformed.join(", ")} must be text.`);
  }
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
