/**
 * GET|POST /callback/:provider: finishes a sign-in. OAuth/OIDC providers come back here with a code
 * (GET, or POST for `response_mode=form_post`); the credentials form posts here (CSRF-checked); email
 * sign-in links land here (GET).
 */
import type { AdapterUser } from "../adapters.js";
import { AuthError, CallbackRouteError, CredentialsSignin, InvalidProvider } from "../errors.js";
import { assertCsrf } from "../http/csrf.js";
import { requestBinding } from "../http/flow-binding.js";
import type { InternalOptions, InternalProvider, RequestInternal, ResponseInternal } from "../internal-types.js";
import { finishAuthorization } from "../oauth/index.js";
import type { CredentialsConfig, OAuthConfig } from "../providers/types.js";
import type { Account, User } from "../types.js";
import { webAuthnRoutes } from "../webauthn/routes-loader.js";
import { findOrCreateOAuthUser } from "./link-account.js";
import { oauthContext } from "./oauth-context.js";
import { askSignInCallback, completeSignIn } from "./sign-in-flow.js";
import { withProvenEmail } from "./unproven-email.js";

export async function callbackAction(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const { provider } = options;
  if (!provider) throw new InvalidProvider(`Unknown provider "${request.providerId ?? ""}".`);
  try {
    if (provider.type === "oauth" || provider.type === "oidc") return await oauthCallback(options, request, provider);
    if (provider.type === "credentials" && request.method === "POST") return await credentialsCallback(options, request, provider);
    if (provider.type === "email" && request.method === "GET")
      return await (await import("./email.js")).emailCallback(options, request, provider);
    if (provider.type === "webauthn" && request.method === "POST")
      return await (await webAuthnRoutes(options)).webAuthnCallback(options, request);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new CallbackRouteError(`The ${provider.id} callback failed.`, { cause: { err: error as Error, provider: provider.id } });
  }
  throw new InvalidProvider(`The provider "${provider.id}" does not accept a ${request.method} callback.`);
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
  const result = await finishAuthorization(oauthContext(options, request, provider, flow), params);
  if (result.kind === "proxy-redirect") return { redirect: result.url };
  const { profile, account, cookies } = result;
  // From here on the user's email is the one the provider vouched for, or null (see unproven-email.ts).
  const profileUser = withProvenEmail(provider, profile, result.user);
  const userByAccount = options.adapter
    ? await options.adapter.getUserByAccount!({ provider: account.provider, providerAccountId: account.providerAccountId })
    : null;
  // The check cookies proved that this browser and this session started the flow as a link.
  const linkTo = result.link && !userByAccount && options.adapter ? await options.sessionStrategy.currentUser(options, request) : null;
  const link = linkTo?.id ? { user: linkTo } : undefined;
  const redirect = await askSignInCallback(options, { user: userByAccount ?? profileUser, account, profile, ...(link ? { link } : {}) });
  if (redirect) return { redirect, cookies };
  const { user, isNewUser } = await findOrCreateOAuthUser(options, request, provider, profileUser, account, result.link);
  return completeSignIn(options, request, { user, account, profile, isNewUser }, cookies);
}

const formFields = new Set(["csrfToken", "callbackUrl"]);

async function credentialsCallback(
  options: InternalOptions,
  request: RequestInternal,
  provider: InternalProvider & CredentialsConfig,
): Promise<ResponseInternal> {
  assertCsrf("credentials callback", options.csrfTokenVerified);
  const credentials = Object.fromEntries(Object.entries(request.body).filter(([key]) => !formFields.has(key)));
  const authorized = await provider.authorize(credentials, request.request);
  if (!authorized) throw new CredentialsSignin("authorize() returned no user.");

  const fromAuthorize = { ...authorized, id: String(authorized.id ?? crypto.randomUUID()) };
  const user: User | AdapterUser = options.session.strategy === "database" ? await adapterUserFor(options, fromAuthorize) : fromAuthorize;
  const account: Account = { providerAccountId: fromAuthorize.id, type: "credentials", provider: provider.id };

  const redirect = await askSignInCallback(options, { user, account, credentials: credentials as Record<string, never> });
  if (redirect) return { redirect };
  return completeSignIn(options, request, { user, account, isNewUser: false });
}

/**
 * With database sessions, a credentials user must exist in the adapter (by id, else by email) so that a
 * session row can point at it. An unknown user is a sign-in failure, not a crash.
 */
async function adapterUserFor(options: InternalOptions, user: User & { id: string }): Promise<AdapterUser> {
  const adapter = options.adapter!;
  const found = (await adapter.getUser!(user.id)) ?? (user.email ? await adapter.getUserByEmail!(user.email.toLowerCase()) : null);
  if (!found) throw new CredentialsSignin("authorize() returned a user the adapter does not know (neither its id nor its email).");
  return found;
}
