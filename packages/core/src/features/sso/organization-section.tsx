/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The organization page's SSO section (`FeatureDefinition.organizationSection`), for a member whose role
 * grants `sso:manage`: the organization's connections (an OIDC one with the redirect URI to register at the
 * identity provider; a SAML one with the service provider's certificate), and a form that adds an OIDC
 * connection. The form posts to `sso/form-create?organizationId=…` and comes back to this page with
 * `?done=ssoConnectionCreated`, or `?error=<type>`. Secrets are never shown, not even encrypted.
 *
 * @module features/sso/organization-section
 */
import { HiddenFields } from "../../pages/layout.js";
import { toSafeNavigationUrl } from "../../pages/theme.js";
import type { AuthErrorShape } from "../../types/errors.js";
import type { Translator } from "../../types/i18n.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { ListedSsoConnection } from "../../types/sso.js";
import { defaultRoles } from "../organizations/public.js";
import { createSsoConnection, listed, SSO_MANAGE } from "./connections.js";
import { samlEndpoints } from "./saml-flow.js";
import { storeOf } from "./store.js";

/** The refusals this section says in its own words (any other goes to the general policy). */
const REFUSALS = new Set(["InvalidSsoConnection", "SsoConnectionNotFound", "OrganizationForbidden", "OrganizationPolicy"]);

/** The organization page of `organizationId`, with `query`. */
function pageUrl(options: InternalOptions, organizationId: string, query: Record<string, string> = {}): string {
  return `${options.authUrl}/organization?${new URLSearchParams({ organizationId, ...query })}`;
}

/** A value the customer's IT admin copies into their identity provider. */
function ReadOnlyField({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <>
      <label for={id}>{label}</label>
      <input id={id} type="text" readOnly value={value} autocomplete="off" spellcheck={false} />
    </>
  );
}

/** One connection as the section lists it. */
function ConnectionItem({ options, connection, text }: { options: InternalOptions; connection: ListedSsoConnection; text: Translator }) {
  const id = `sso-connection-${connection.id}`;
  return (
    <li>
      <strong>{connection.name}</strong> ({connection.protocol.toUpperCase()})
      {connection.ssoRequired ? ` · ${text.t("sso.requiredBadge")}` : ""}
      {connection.oidc && (
        <div class="field">
          <p>
            {text.t("sso.issuer")}: <code>{connection.oidc.issuer}</code>
          </p>
          <label for={`${id}-redirect`}>{text.t("sso.redirectUri")}</label>
          <input
            id={`${id}-redirect`}
            type="text"
            readOnly
            value={`${options.authUrl}/sso-callback/${connection.id}`}
            autocomplete="off"
            spellcheck={false}
          />
        </div>
      )}
      {connection.saml && (
        <div class="field">
          <p>
            {text.t("sso.idpEntityId")}: <code>{connection.saml.idpEntityId}</code>
          </p>
          <ReadOnlyField id={`${id}-entity`} label={text.t("sso.spEntityId")} value={samlEndpoints(options, connection.id).entityId} />
          <ReadOnlyField id={`${id}-acs`} label={text.t("sso.acsUrl")} value={samlEndpoints(options, connection.id).acsUrl} />
          <label for={`${id}-certificate`}>{text.t("sso.spCertificate")}</label>
          <textarea id={`${id}-certificate`} readOnly rows={4} spellcheck={false}>
            {connection.saml.spCertificate}
          </textarea>
        </div>
      )}
    </li>
  );
}

/** The section for `organizationId` and the request's member of role `role`, or `undefined` when they may not manage SSO. */
export async function ssoOrganizationSection(
  options: InternalOptions,
  request: RequestInternal,
  page: { text: Translator; csrfToken: string; organizationId: string; role: string },
): Promise<{ content: unknown } | undefined> {
  const roles = options.config.organizations?.roles ?? defaultRoles;
  if (!roles.can({ role: page.role }, SSO_MANAGE)) return undefined;
  const { text, csrfToken, organizationId } = page;
  const connections = (await storeOf(options).listSsoConnections(organizationId)).map(listed);
  const action = `${options.authUrl}/sso/form-create?${new URLSearchParams({ organizationId })}`;
  const error = request.query.error;
  return {
    content: (
      <section class="stack" aria-labelledby="org-sso-heading">
        <h2 id="org-sso-heading">{text.t("sso.title")}</h2>
        {request.query.done === "ssoConnectionCreated" && (
          <p class="notice" role="status">
            {text.t("sso.created")}
          </p>
        )}
        {error !== undefined && REFUSALS.has(error) && (
          <p class="alert" role="alert">
            {text.t("sso.invalid")}
          </p>
        )}
        {connections.length === 0 ? (
          <p class="muted">{text.t("sso.none")}</p>
        ) : (
          <ul>
            {connections.map((connection) => (
              <ConnectionItem key={connection.id} options={options} connection={connection} text={text} />
            ))}
          </ul>
        )}
        <form action={toSafeNavigationUrl(action)} method="post" class="stack" aria-labelledby="org-sso-add-heading">
          <h3 id="org-sso-add-heading">{text.t("sso.addOidc")}</h3>
          <HiddenFields csrfToken={csrfToken} />
          <label for="org-sso-name">{text.t("sso.name")}</label>
          <input id="org-sso-name" name="name" type="text" required maxLength={100} autocomplete="off" />
          <label for="org-sso-issuer">{text.t("sso.issuer")}</label>
          <input id="org-sso-issuer" name="issuer" type="url" required placeholder="https://" autocomplete="off" />
          <label for="org-sso-client-id">{text.t("sso.clientId")}</label>
          <input id="org-sso-client-id" name="clientId" type="text" required autocomplete="off" />
          <label for="org-sso-client-secret">{text.t("sso.clientSecret")}</label>
          <input id="org-sso-client-secret" name="clientSecret" type="password" required autocomplete="off" />
          <label>
            <input type="checkbox" name="ssoRequired" /> {text.t("sso.requiredLabel")}
          </label>
          <button type="submit" class="button">
            {text.t("sso.addOidc")}
          </button>
        </form>
      </section>
    ),
  };
}

/** The handler of `POST sso/form-create?organizationId=…`: a new OIDC connection, back to the organization page. */
export async function createOidcConnectionForm(
  options: InternalOptions,
  request: RequestInternal,
  input: { name: string; issuer: string; clientId: string; clientSecret: string; ssoRequired: boolean },
): Promise<ResponseInternal> {
  const organizationId = request.query.organizationId ?? "";
  await createSsoConnection(options, request, {
    organizationId,
    protocol: "oidc",
    name: input.name,
    ssoRequired: input.ssoRequired,
    oidc: { issuer: input.issuer, clientId: input.clientId, clientSecret: input.clientSecret },
    attributeMapping: undefined,
    groupRoles: undefined,
    defaultRole: undefined,
    saml: undefined,
  });
  return { redirect: pageUrl(options, organizationId, { done: "ssoConnectionCreated" }) };
}

/** A refused form: back to the organization page with `?error=<type>` (the section says it), or the general policy. */
export function ssoFormRefusal(options: InternalOptions, request: RequestInternal, error: AuthErrorShape): ResponseInternal | undefined {
  const organizationId = request.query.organizationId;
  if (!organizationId || !REFUSALS.has(error.type)) return undefined;
  return { redirect: pageUrl(options, organizationId, { error: error.type }), failure: error as unknown as Error };
}
