/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * What the parts of the organization page's SSO section (connections, SCIM tokens) share: the page they
 * render in, a value to copy, and where their forms come back to: the page of the organization in the
 * form's action (`?organizationId=`), with `?done=<notice>` or `?error=<type>` for the section to say in
 * its own words.
 *
 * @module features/sso/section-parts
 */
import type { AuthErrorShape } from "../../types/errors.js";
import type { Translator } from "../../types/i18n.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";

/** The page a part renders in: the request's texts, the page's CSRF token, the organization, the member's role. */
export interface SectionPage {
  text: Translator;
  csrfToken: string;
  organizationId: string;
  role: string;
}

/** A value the customer's IT admin copies into their identity provider. */
export function ReadOnlyField({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <>
      <label for={id}>{label}</label>
      <input id={id} type="text" readOnly value={value} autocomplete="off" spellcheck={false} />
    </>
  );
}

/** The organization page of `organizationId`, with `query`. */
export function sectionPageUrl(options: InternalOptions, organizationId: string, query: Record<string, string> = {}): string {
  return `${options.authUrl}/organization?${new URLSearchParams({ organizationId, ...query })}`;
}

/** A form's success: back to its organization's page with the notice `done`. */
export function sectionDone(options: InternalOptions, request: RequestInternal, done: string): ResponseInternal {
  return { redirect: sectionPageUrl(options, request.query.organizationId ?? "", { done }) };
}

/** The query parameter that says a refusal came from this section's form (`?section=sso`), not the page's own. */
export const SECTION_PARAMETER = "section";

/**
 * A refused form: back to its organization's page with `?error=<type>&section=sso` when the section says
 * `error` in its own words (`shown`), else `undefined` (the general policy answers it).
 */
export function sectionRefusal(
  options: InternalOptions,
  request: RequestInternal,
  error: AuthErrorShape,
  shown: ReadonlySet<string>,
): ResponseInternal | undefined {
  const organizationId = request.query.organizationId;
  if (!organizationId || !shown.has(error.type)) return undefined;
  const query = { error: error.type, [SECTION_PARAMETER]: "sso" };
  return { redirect: sectionPageUrl(options, organizationId, query), failure: error as unknown as Error };
}
