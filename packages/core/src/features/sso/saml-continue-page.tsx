/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The page the assertion consumer answers (`saml-flow.ts`): a form of ours that posts the identity
 * provider's response on to `sso-acs-continue/<connectionId>`, a same-site POST that carries this browser's
 * cookies. The library's own script (`sso-continue-script`, allowed by the pages' `script-src 'self'`)
 * submits it; with scripts off, its button does. The response is a hidden field's value (escaped by the
 * renderer), never markup.
 *
 * @module features/sso/saml-continue-page
 */
import { html } from "../../pages/html.js";
import { renderDocument } from "../../pages/layout.js";
import { loadPages } from "../../pages/lazy.js";
import { resolveTheme } from "../../pages/theme.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";

/** What the page posts on, and where. */
export interface SamlContinueFields {
  action: string;
  samlResponse: string;
  relayState: string | undefined;
}

/** The id of the form the script submits. */
export const CONTINUE_FORM_ID = "saml-continue";

/** The page's response: the form, its button, the script. Never cached, never framed (`pages/html.ts`). */
export async function samlContinuePage(
  options: InternalOptions,
  request: RequestInternal,
  fields: SamlContinueFields,
): Promise<ResponseInternal> {
  const { text } = await loadPages(options.config, request.request, options.featureMessages);
  const title = text.t("sso.title");
  const page = renderDocument({
    title,
    text,
    theme: resolveTheme(options.theme),
    scripts: [`${options.authUrl}/sso-continue-script`],
    children: (
      <>
        <h1>{title}</h1>
        <form id={CONTINUE_FORM_ID} action={fields.action} method="post">
          <input type="hidden" name="SAMLResponse" value={fields.samlResponse} />
          {fields.relayState !== undefined ? <input type="hidden" name="RelayState" value={fields.relayState} /> : null}
          <button type="submit">{text.t("sso.continue")}</button>
        </form>
      </>
    ),
  });
  return html({ status: 200, html: page });
}

/** GET sso-continue-script: submits the continue form at once (served like the pages: never cached). */
export function samlContinueScript(): ResponseInternal {
  return {
    status: 200,
    body: `document.getElementById(${JSON.stringify(CONTINUE_FORM_ID)})?.submit();\n`,
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
  };
}
