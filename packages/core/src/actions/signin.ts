/**
 * POST /signin/:provider (CSRF): starts a sign-in. OAuth/OIDC providers redirect to the provider; the
 * email provider sends a sign-in link. The credentials form posts to /callback/:provider instead, so other
 * types go back to the sign-in page.
 *
 * Its input (`actions/sign-in-input.ts`) is parsed once, from the form (or JSON body) and the query's
 * authorization parameters, or from `auth.api.signIn`'s object.
 *
 * Linking: an OAuth/OIDC sign-in posted with the form field `link=true` by a signed-in user is an
 * explicit request to link the provider's account to that user. The intent and the user are sealed into
 * the flow's check cookies; only the callback of that flow, in the same browser and session, links.
 */
import { AuthError, InvalidProvider, OAuthAccountNotLinked, OAuthSignInError } from "../errors.js";
import { assertCsrf } from "../http/csrf.js";
import { ANONYMOUS, bindingOf, currentSubject } from "../http/flow-binding.js";
import { isOAuthProvider } from "../provider-kind.js";
import { oauthContext } from "../sign-in/oauth-context.js";
import type { InternalOptions, InternalProvider, RequestInternal, ResponseInternal } from "../types/internal.js";
import type { EmailConfig, ProviderConfig } from "../types/providers.js";
import type { SignInFields } from "./sign-in-input.js";

type SignInHandler = (
  options: InternalOptions,
  request: RequestInternal,
  provider: InternalProvider,
  input: SignInFields,
) => Promise<ResponseInternal>;

/**
 * How each provider type starts a sign-in. Credentials and WebAuthn are not started here (their forms post
 * to /callback/:provider, the passkey script asks /webauthn-options): they go back to the sign-in page.
 */
const starters: Partial<Record<ProviderConfig["type"], SignInHandler>> = {
  oauth: oauthSignIn,
  oidc: oauthSignIn,
  // Email code loads only when an email provider is used.
  email: async (options, request, provider, input) =>
    (await import("./email.js")).emailSignIn(options, request, provider as InternalProvider & EmailConfig, input.email),
};

export async function signInAction(options: InternalOptions, request: RequestInternal, input: SignInFields): Promise<ResponseInternal> {
  assertCsrf("signin", options.csrfTokenVerified);
  const { provider } = options;
  if (!provider) {
    if (request.providerId) throw new InvalidProvider(`Unknown provider "${request.providerId}".`);
    return { redirect: `${options.authUrl}/signin` };
  }
  const start = starters[provider.type];
  return start ? start(options, request, provider, input) : { redirect: `${options.authUrl}/signin` };
}

async function oauthSignIn(
  options: InternalOptions,
  request: RequestInternal,
  provider: InternalProvider,
  { link, authorizationParams = {} }: SignInFields,
): Promise<ResponseInternal> {
  if (!isOAuthProvider(provider)) return { redirect: `${options.authUrl}/signin` };
  const subject = await currentSubject(options, request);
  if (link && subject === ANONYMOUS) throw new OAuthAccountNotLinked("Sign in first, then link another account.");
  const flow = { binding: await bindingOf(options.csrfToken, subject), link };
  try {
    const { startAuthorization } = await import("../oauth/index.js");
    const { url, cookies } = await startAuthorization(oauthContext(options, request, provider, flow), authorizationParams);
    return { redirect: url, cookies };
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new OAuthSignInError(`Could not start the sign-in with ${provider.name}.`, { cause: error as Error });
  }
}
