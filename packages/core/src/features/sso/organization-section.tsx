/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The organization page's SSO section (`FeatureDefinition.organizationSection`), for a member whose role
 * grants `sso:manage`: the organization's connections (an OIDC one with the redirect URI to register at the
 * identity provider; a SAML one with the service provider's entity id, ACS URL and certificate), each with
 * a delete button; a form that adds an OIDC connection and one that adds a SAML connection from the IdP's
 * pasted metadata; and the SCIM tokens (`scim/token-section.tsx`). The forms post to
 * `sso/form-*?organizationId=…` and come back to this page with `?done=<notice>`, or `?error=<type>` said
 * here in words. Secrets are never shown, not even encrypted.
 *
 * @module features/sso/organization-section
 */

import { InvalidSsoConnection } from "../../errors.js";
import { HiddenFields } from "../../pages/layout.js";
import { toSafeNavigationUrl } from "../../pages/theme.js";
import type { AuthErrorShape } from "../../types/errors.js";
import type { MessageKey, Translator } from "../../types/i18n.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import type { ListedSsoConnection } from "../../types/sso.js";
import { defaultRoles } from "../organizations/public.js";
import { createSsoConnection, deleteSsoConnection, givableRoles, listed, SSO_MANAGE } from "./connections.js";
import type { connectionInput, formSamlInput } from "./input.js";
import { samlEndpoints } from "./saml-flow.js";
import { scimTokensPart } from "./scim/token-section.js";
import { ReadOnlyField, SECTION_PARAMETER, type SectionPage, sectionDone, sectionRefusal } from "./section-parts.js";
import { storeOf } from "./store.js";

/** The refusals of the section's forms it says in its own words (`?error=`), connections' and SCIM tokens'. */
const ERRORS: Readonly<Record<string, MessageKey>> = Object.freeze({
  InvalidSsoConnection: "sso.invalid",
  InvalidIdpMetadata: "sso.invalidMetadata",
  SsoConnectionNotFound: "sso.notFound",
  OrganizationForbidden: "sso.forbidden",
  ScimTokenNotFound: "sso.scimNotFound",
  ScimInvalidRequest: "sso.scimNotFound",
  RecentSignInRequired: "sso.recentSignIn",
});

/** The refusals that come back to the page: the section's own, and the policy's (the page says it, with its step-up). */
const SECTION_REFUSALS: ReadonlySet<string> = new Set([...Object.keys(ERRORS), "OrganizationPolicy"]);

/** The notices of `?done=`. */
const NOTICES: Readonly<Record<string, MessageKey>> = Object.freeze({
  ssoConnectionCreated: "sso.created",
  ssoConnectionDeleted: "sso.deleted",
  scimTokenRevoked: "sso.scimRevoked",
});

/** The error of this section's own form the request's `?error=` names (with `?section=sso`), when the section says it. */
function ownError(request: RequestInternal): string | undefined {
  const { error } = request.query;
  return request.query[SECTION_PARAMETER] === "sso" && error !== undefined && Object.hasOwn(ERRORS, error) ? error : undefined;
}

/** The section's notice or alert for the request's `?done=` / `?error=`. */
function Messages({ request, text }: { request: RequestInternal; text: Translator }) {
  const { done } = request.query;
  const error = ownError(request);
  return (
    <>
      {done !== undefined && Object.hasOwn(NOTICES, done) && (
        <p class="notice" role="status">
          {text.t(NOTICES[done] as MessageKey)}
        </p>
      )}
      {error !== undefined && (
        <p class="alert" role="alert">
          {text.t(ERRORS[error] as MessageKey)} <code>{error}</code>
        </p>
      )}
    </>
  );
}

/** A SAML connection's service provider values, what the IT admin registers at their identity provider. */
function SamlValues({ options, connection, text }: { options: InternalOptions; connection: ListedSsoConnection; text: Translator }) {
  const id = `sso-connection-${connection.id}`;
  const endpoints = samlEndpoints(options, connection.id);
  return (
    <div class="field">
      <p>
        {text.t("sso.idpEntityId")}: <code>{connection.saml?.idpEntityId}</code>
      </p>
      <ReadOnlyField id={`${id}-entity`} label={text.t("sso.spEntityId")} value={endpoints.entityId} />
      <ReadOnlyField id={`${id}-acs`} label={text.t("sso.acsUrl")} value={endpoints.acsUrl} />
      <label for={`${id}-certificate`}>{text.t("sso.spCertificate")}</label>
      <textarea id={`${id}-certificate`} readOnly rows={4} spellcheck={false}>
        {connection.saml?.spCertificate}
      </textarea>
    </div>
  );
}

/** One connection as the section lists it, with its delete button. */
function ConnectionItem(props: { options: InternalOptions; connection: ListedSsoConnection; page: SectionPage }) {
  const { options, connection, page } = props;
  const { text } = page;
  const action = `${options.authUrl}/sso/form-delete?${new URLSearchParams({ organizationId: page.organizationId })}`;
  return (
    <li>
      <strong>{connection.name}</strong> ({connection.protocol.toUpperCase()})
      {connection.ssoRequired ? ` · ${text.t("sso.requiredBadge")}` : ""}
      {connection.oidc && (
        <div class="field">
          <p>
            {text.t("sso.issuer")}: <code>{connection.oidc.issuer}</code>
          </p>
          <ReadOnlyField
            id={`sso-connection-${connection.id}-redirect`}
            label={text.t("sso.redirectUri")}
            value={`${options.authUrl}/sso-callback/${connection.id}`}
          />
        </div>
      )}
      {connection.saml && <SamlValues options={options} connection={connection} text={text} />}
      <form action={toSafeNavigationUrl(action)} method="post">
        <HiddenFields csrfToken={page.csrfToken} />
        <input type="hidden" name="connectionId" value={connection.id} />
        <button type="submit" class="button button-neutral" aria-label={`${text.t("sso.delete")}: ${connection.name}`}>
          {text.t("sso.delete")}
        </button>
      </form>
    </li>
  );
}

/** The form that adds an OIDC connection. */
function OidcForm({ options, page }: { options: InternalOptions; page: SectionPage }) {
  const { text } = page;
  const action = `${options.authUrl}/sso/form-create?${new URLSearchParams({ organizationId: page.organizationId })}`;
  return (
    <form action={toSafeNavigationUrl(action)} method="post" class="stack" aria-labelledby="org-sso-add-heading">
      <h3 id="org-sso-add-heading">{text.t("sso.addOidc")}</h3>
      <HiddenFields csrfToken={page.csrfToken} />
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
  );
}

/** The roles every app has, named in the page's language (organizations' texts); an app's own role by its name. */
const BUILT_IN_ROLES: ReadonlySet<string> = new Set(["owner", "admin", "member"]);
const roleName = (text: Translator, role: string) => (BUILT_IN_ROLES.has(role) ? text.t(`organization.role.${role}` as MessageKey) : role);

/** The form that adds a SAML connection: the IdP's metadata pasted, and a role the member may give. */
function SamlForm({ options, page }: { options: InternalOptions; page: SectionPage }) {
  const { text } = page;
  const action = `${options.authUrl}/sso/form-create-saml?${new URLSearchParams({ organizationId: page.organizationId })}`;
  const roles = givableRoles(options, page.role);
  return (
    <form action={toSafeNavigationUrl(action)} method="post" class="stack" aria-labelledby="org-sso-saml-heading">
      <h3 id="org-sso-saml-heading">{text.t("sso.addSaml")}</h3>
      <HiddenFields csrfToken={page.csrfToken} />
      <label for="org-sso-saml-name">{text.t("sso.name")}</label>
      <input id="org-sso-saml-name" name="name" type="text" required maxLength={100} autocomplete="off" />
      <label for="org-sso-saml-metadata">{text.t("sso.metadataXml")}</label>
      <textarea id="org-sso-saml-metadata" name="metadataXml" rows={8} spellcheck={false} aria-describedby="org-sso-saml-metadata-hint" />
      <p id="org-sso-saml-metadata-hint" class="muted">
        {text.t("sso.metadataHint")}
      </p>
      <label for="org-sso-saml-metadata-url">{text.t("sso.metadataUrl")}</label>
      <input id="org-sso-saml-metadata-url" name="metadataUrl" type="url" placeholder="https://" autocomplete="off" />
      <label for="org-sso-saml-role">{text.t("sso.defaultRole")}</label>
      <select id="org-sso-saml-role" name="defaultRole">
        {roles.map((role) => (
          <option key={role} value={role} selected={role === "member"}>
            {roleName(text, role)}
          </option>
        ))}
      </select>
      <label>
        <input type="checkbox" name="ssoRequired" /> {text.t("sso.requiredLabel")}
      </label>
      <button type="submit" class="button">
        {text.t("sso.addSaml")}
      </button>
    </form>
  );
}

/** The section for `organizationId` and the request's member of role `role`, or `undefined` when they may not manage SSO. */
export async function ssoOrganizationSection(
  options: InternalOptions,
  request: RequestInternal,
  page: SectionPage,
): Promise<{ content: unknown; errorShownInPlace: boolean } | undefined> {
  const roles = options.config.organizations?.roles ?? defaultRoles;
  if (!roles.can({ role: page.role }, SSO_MANAGE)) return undefined;
  const { text, organizationId } = page;
  const connections = (await storeOf(options).listSsoConnections(organizationId)).map(listed);
  const tokens = await scimTokensPart(options, request, page);
  return {
    errorShownInPlace: ownError(request) !== undefined,
    content: (
      <section class="stack" aria-labelledby="org-sso-heading">
        <h2 id="org-sso-heading">{text.t("sso.title")}</h2>
        <Messages request={request} text={text} />
        {connections.length === 0 ? (
          <p class="muted">{text.t("sso.none")}</p>
        ) : (
          <ul>
            {connections.map((connection) => (
              <ConnectionItem key={connection.id} options={options} connection={connection} page={page} />
            ))}
          </ul>
        )}
        <OidcForm options={options} page={page} />
        <SamlForm options={options} page={page} />
        {tokens}
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
  await createSsoConnection(options, request, {
    organizationId: request.query.organizationId ?? "",
    protocol: "oidc",
    name: input.name,
    ssoRequired: input.ssoRequired,
    oidc: { issuer: input.issuer, clientId: input.clientId, clientSecret: input.clientSecret },
    attributeMapping: undefined,
    groupRoles: undefined,
    defaultRole: undefined,
    saml: undefined,
  });
  return sectionDone(options, request, "ssoConnectionCreated");
}

/** The IdP's metadata the SAML form gives: pasted or at a URL (a field left empty is not given); one of them. */
function samlMetadataGiven(input: InputOf<typeof formSamlInput>): { metadataXml: string } | { metadataUrl: string } {
  const metadataXml = input.metadataXml?.trim() || undefined;
  const metadataUrl = input.metadataUrl?.trim() || undefined;
  if ((metadataXml === undefined) === (metadataUrl === undefined))
    throw new InvalidSsoConnection("Paste your identity provider's metadata, or give the URL where it publishes it: one of the two.");
  return metadataXml === undefined ? { metadataUrl: metadataUrl as string } : { metadataXml };
}

/**
 * The handler of `POST sso/form-create-saml?organizationId=…`: a new SAML connection from the IdP's pasted
 * metadata or its URL (one of them: a field left empty is not given), made as the API makes it
 * (`createSsoConnection`), back to the organization page.
 */
export async function createSamlConnectionForm(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof formSamlInput>,
): Promise<ResponseInternal> {
  await createSsoConnection(options, request, {
    organizationId: request.query.organizationId ?? "",
    protocol: "saml",
    name: input.name,
    ssoRequired: input.ssoRequired,
    defaultRole: input.defaultRole,
    saml: samlMetadataGiven(input),
    oidc: undefined,
    attributeMapping: undefined,
    groupRoles: undefined,
  });
  return sectionDone(options, request, "ssoConnectionCreated");
}

/** The handler of `POST sso/form-delete?organizationId=…`: deletes the connection (`deleteSsoConnection`), back to the page. */
export async function deleteSsoConnectionForm(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof connectionInput>,
): Promise<ResponseInternal> {
  await deleteSsoConnection(options, request, input);
  return sectionDone(options, request, "ssoConnectionDeleted");
}

/** A refused form of the section: back to the organization page with `?error=<type>`, or the general policy. */
export function ssoFormRefusal(options: InternalOptions, request: RequestInternal, error: AuthErrorShape): ResponseInternal | undefined {
  return sectionRefusal(options, request, error, SECTION_REFUSALS);
}
