/** GET /signin, /error and /verify-request: the built-in pages, or redirects to the app's own pages. */
import { inDevelopment } from "../env/read.js";
import { html } from "../pages/html.js";
import { loadPages } from "../pages/lazy.js";
import { isPasswordProvider } from "../provider-kind.js";
import { passwordUrl } from "../sign-in/urls.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../types/internal.js";

/** The app's custom page `path` (relative to the origin) with `params` appended to its query. */
function customPage(options: InternalOptions, path: string, params: Record<string, string | undefined>): ResponseInternal {
  const url = new URL(path, options.origin);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return { redirect: url.href };
}

export function signInPage(options: InternalOptions, request: RequestInternal): ResponseInternal | Promise<ResponseInternal> {
  const { error, code, provider } = request.query;
  if (options.pages.signIn) return customPage(options, options.pages.signIn, { callbackUrl: options.callbackUrl, error, code, provider });
  return loadPages(options.config, request.request, options.featureMessages).then(({ renderSignInPage, text }) =>
    html(
      renderSignInPage({
        text,
        providers: options.providers,
        csrfToken: options.csrfToken,
        callbackUrl: options.callbackUrl,
        error,
        errorMessages: options.signInErrors,
        code,
        provider,
        email: request.query.email,
        emailStep: options.hooks?.signInEmailStep?.(options),
        theme: options.theme,
      }),
    ),
  );
}

export function errorPage(options: InternalOptions, request: RequestInternal): ResponseInternal | Promise<ResponseInternal> {
  const { error } = request.query;
  if (options.pages.error) return customPage(options, options.pages.error, { error });
  return loadPages(options.config, request.request, options.featureMessages).then(({ renderErrorPage, text }) =>
    html(
      renderErrorPage({
        text,
        error,
        // Shown in development only, and only when it names an error type (see pages/error.tsx).
        cause: inDevelopment() ? request.query.cause : undefined,
        signinUrl: `${options.authUrl}/signin`,
        homeUrl: options.origin,
        theme: options.theme,
      }),
    ),
  );
}

export async function verifyRequestPage(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  if (options.pages.verifyRequest) return customPage(options, options.pages.verifyRequest, request.query);
  const { renderVerifyRequestPage, text } = await loadPages(options.config, request.request, options.featureMessages);
  return html(
    renderVerifyRequestPage({
      text,
      host: new URL(options.origin).host,
      theme: options.theme,
      homeUrl: options.origin,
      type: request.query.type,
      forgotUrl: options.providers.some(isPasswordProvider) ? passwordUrl(options, "forgot") : undefined,
      // The form of the mailed code: its code loads with the first verify-request page that has one.
      codeForm: request.query.provider ? await (await import("../email/code-form.js")).codeFormOf(options, request) : undefined,
    }),
  );
}
