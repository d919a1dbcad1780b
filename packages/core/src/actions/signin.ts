/**
 * POST /signin/:provider (CSRF): starts a sign-in. OAuth/OIDC providers redirect to the provider; the
 * email provider sends a sign-in link. The credentials form posts to /callback/:provider instead, so other
 * types go back to the sign-in page.
 */
import { AuthError, InvalidProvider, OAuthSignInError } from "../errors.js";
import { assertCsrf } from "../http/csrf.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../internal-types.js";
import { startAuthorization } from "../oauth/index.js";
import { emailSignIn } from "./email.js";
import { oauthContext } from "./oauth-context.js";

export async function signInAction(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  assertCsrf("signin", options.csrfTokenVerified);
  const { provider } = options;
  if (!provider) {
    if (request.providerId) throw new InvalidProvider(`Unknown provider "${request.providerId}".`);
    return { redirect: `${options.authUrl}/signin` };
  }
  if (provider.type === "oauth" || provider.type === "oidc") {
    const { callbackUrl: _callbackUrl, ...authorizationParams } = request.query;
    try {
      const { url, cookies } = await startAuthorization(oauthContext(options, request, provider), authorizationParams);
      return { redirect: url, cookies };
    } catch (error) {
      if (error instanceof AuthError) throw error;
      throw new OAuthSignInError(`Could not start the sign-in with ${provider.name}.`, { cause: error as Error });
    }
  }
  if (provider.type === "email") return emailSignIn(options, request, provider);
  return { redirect: `${options.authUrl}/signin` };
}
