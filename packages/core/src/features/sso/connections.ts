/**
 * Connections as data (`createSsoConnection`, `updateSsoConnection`, `deleteSsoConnection`,
 * `listSsoConnections`): an organization's member whose role grants `sso:manage` (owner, admin) manages its
 * connections; anyone else learns nothing (a connection of another organization is `SsoConnectionNotFound`,
 * as one that does not exist). Secrets are encrypted before they are stored (`secrets.ts`) and never
 * answered, not even encrypted. Every change is audited (who, which organization, which connection).
 *
 * @module features/sso/connections
 */
import { recordAuditEvent } from "../../audit/index.js";
import { InvalidSsoConnection, OrganizationNotFound, SsoConnectionNotFound } from "../../errors.js";
import { noStoreHeaders } from "../../http/response.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import type { Roles } from "../../types/organizations.js";
import type { ListedSsoConnection, SsoConnection, SsoOidcSettings, SsoSamlSettings } from "../../types/sso.js";
import { defaultRoles, organizationAccess } from "../organizations/public.js";
import {
  type connectionInput,
  type createInput,
  idpFromMetadata,
  type organizationInput,
  type SamlGiven,
  type updateInput,
} from "./input.js";
import { newSpSigningKey } from "./saml/sp-key.js";
import { sealSecret } from "./secrets.js";
import { storeOf } from "./store.js";

/** The permission that manages an organization's connections. */
export const SSO_MANAGE = "sso:manage";

/** How many connections one organization may have (what one admin can make us store). */
const MAX_CONNECTIONS = 20;

const json = { "Content-Type": "application/json", ...noStoreHeaders };
const answer = <Body>(body: Body): ResponseInternal<Body> => ({ body, headers: json });

/** A connection as its organization's admins see it: never a secret, not even encrypted. */
export function listed(connection: SsoConnection): ListedSsoConnection {
  const { saml, oidc, ...rest } = connection;
  const shown: ListedSsoConnection = { ...rest, attributeMapping: { ...rest.attributeMapping } };
  if (rest.groupRoles) shown.groupRoles = { ...rest.groupRoles };
  if (saml) {
    const { spPrivateKey: _key, ...published } = saml;
    shown.saml = { ...published, idpCertificates: [...saml.idpCertificates] };
  }
  if (oidc) shown.oidc = { issuer: oidc.issuer, clientId: oidc.clientId };
  return shown;
}

/** The instance's roles (`organizations.roles`, else the built-in three). */
function rolesOf(options: InternalOptions): Roles<string> {
  return options.config.organizations?.roles ?? defaultRoles;
}

/**
 * True when a member of `actorRole` may make a connection that gives `role`: a role of the app that grants
 * nothing `actorRole` does not (an admin cannot make a connection that signs its users in as owners).
 */
function mayGive(roles: Roles<string>, role: string, actorRole: string): boolean {
  if (!Object.hasOwn(roles.map, role)) return false;
  if (actorRole === "owner") return true;
  return role !== "owner" && (roles.map[role] ?? []).every((permission) => roles.can({ role: actorRole }, permission));
}

/** The roles a member of `actorRole` may have a connection give (the organization page's choice). */
export function givableRoles(options: InternalOptions, actorRole: string): string[] {
  const roles = rolesOf(options);
  return Object.keys(roles.map).filter((role) => mayGive(roles, role, actorRole));
}

/** `InvalidSsoConnection` unless a member of `actorRole` may give `role` (`mayGive`). */
function assertGivable(options: InternalOptions, role: string, actorRole: string, field: string): void {
  const roles = rolesOf(options);
  if (!Object.hasOwn(roles.map, role)) throw new InvalidSsoConnection(`\`${field}\`: "${role}" is not a role of this app.`);
  if (!mayGive(roles, role, actorRole))
    throw new InvalidSsoConnection(`\`${field}\`: "${role}" grants more than your own role; an owner may give it.`);
}

/** Checks every role a connection gives (its default and its groups'). */
function assertRoles(options: InternalOptions, connection: Pick<SsoConnection, "defaultRole" | "groupRoles">, actorRole: string): void {
  assertGivable(options, connection.defaultRole, actorRole, "defaultRole");
  for (const [group, role] of Object.entries(connection.groupRoles ?? {})) assertGivable(options, role, actorRole, `groupRoles.${group}`);
}

/** The caller acting in `organizationId` with `sso:manage` (organizations' own check: membership, policy, role). */
async function managing(options: InternalOptions, request: RequestInternal, organizationId: string) {
  const { actingIn } = await organizationAccess();
  return actingIn(options, request, organizationId, SSO_MANAGE);
}

/** The stored connection `connectionId` of an organization the caller manages, or `SsoConnectionNotFound`. */
async function manageable(options: InternalOptions, request: RequestInternal, connectionId: string) {
  const connection = await storeOf(options).getSsoConnection(connectionId);
  if (!connection) throw new SsoConnectionNotFound("No connection of your organizations has this id.");
  try {
    return { connection, acting: await managing(options, request, connection.organizationId) };
  } catch (error) {
    // Not a member: the connection is not theirs to know of.
    if (error instanceof OrganizationNotFound) throw new SsoConnectionNotFound("No connection of your organizations has this id.");
    throw error;
  }
}

/**
 * The SAML settings given, the IdP's metadata document (pasted, or fetched from its URL, which is kept) read
 * into its entity id, SSO URL and certificates. The SAML core (and its XML parser) loads only here.
 */
async function withMetadata(options: InternalOptions, saml: SamlGiven): Promise<Omit<SamlGiven, "metadataXml">> {
  const { metadataXml, metadataUrl, ...fields } = saml;
  if (metadataXml === undefined && metadataUrl === undefined) return fields;
  let xml = metadataXml as string;
  if (metadataUrl !== undefined) {
    const { fetchIdpMetadata } = await import("./metadata-url.js");
    xml = await fetchIdpMetadata(metadataUrl, options.config.sso?.metadataUrls);
  }
  const { parseIdpMetadata } = await import("./saml/metadata.js");
  const idp = idpFromMetadata(parseIdpMetadata(xml), metadataUrl === undefined ? "saml.metadataXml" : "saml.metadataUrl");
  return metadataUrl === undefined ? { ...fields, ...idp } : { ...fields, ...idp, metadataUrl };
}

/**
 * A connection's SAML settings after a change: the IdP's metadata URL is kept while the IdP's settings are
 * the URL's (a change of `signatureOn` keeps it), and dropped when they are given another way.
 */
function changedSaml(before: SsoSamlSettings, given: Omit<SamlGiven, "metadataXml">): SsoSamlSettings {
  const { metadataUrl: _previous, ...kept } = before;
  const idpChanged = given.idpEntityId !== undefined || given.idpSsoUrl !== undefined || given.idpCertificates !== undefined;
  const source = given.metadataUrl ?? (idpChanged ? undefined : before.metadataUrl);
  const after: SsoSamlSettings = { ...kept, ...given };
  if (source === undefined) delete after.metadataUrl;
  else after.metadataUrl = source;
  return after;
}

/** The protocol's settings of a new connection, the secrets encrypted for it. */
async function protocolSettings(
  options: InternalOptions,
  id: string,
  input: InputOf<typeof createInput>,
): Promise<{ saml?: SsoSamlSettings; oidc?: SsoOidcSettings }> {
  if (input.protocol === "oidc") {
    const oidc = input.oidc;
    if (!oidc || input.saml)
      throw new InvalidSsoConnection("An OIDC connection takes `oidc` (issuer, clientId, clientSecret) and no `saml`.");
    const { issuer, clientId, clientSecret } = oidc as Required<typeof oidc>;
    return { oidc: { issuer, clientId, clientSecret: await sealSecret(options.secret, id, "oidc.clientSecret", clientSecret) } };
  }
  if (!input.saml || input.oidc)
    throw new InvalidSsoConnection(
      "A SAML connection takes `saml` (metadataXml, metadataUrl, or idpEntityId, idpSsoUrl, idpCertificates) and no `oidc`.",
    );
  const saml = await withMetadata(options, input.saml);
  const pair = await newSpSigningKey(`authlib SSO ${id}`);
  return {
    saml: {
      idpEntityId: saml.idpEntityId as string,
      idpSsoUrl: saml.idpSsoUrl as string,
      idpCertificates: saml.idpCertificates as string[],
      signatureOn: saml.signatureOn ?? "assertion",
      allowIdpInitiated: saml.allowIdpInitiated ?? false,
      spPrivateKey: await sealSecret(options.secret, id, "saml.spPrivateKey", pair.privateKeyPem),
      spCertificate: pair.certificatePem,
      ...(saml.metadataUrl === undefined ? {} : { metadataUrl: saml.metadataUrl }),
    },
  };
}

/** The audit row of a connection change. */
function audited(
  options: InternalOptions,
  request: RequestInternal,
  type: "ssoConnectionCreated" | "ssoConnectionUpdated" | "ssoConnectionDeleted",
  userId: string,
  connection: SsoConnection,
) {
  const detail = `organization=${connection.organizationId} connection=${connection.id} protocol=${connection.protocol}`;
  recordAuditEvent(options, request, { type, userId, provider: null, detail });
}

/** POST sso/create: a new connection of the organization. */
export async function createSsoConnection(options: InternalOptions, request: RequestInternal, input: InputOf<typeof createInput>) {
  const { userId, member } = await managing(options, request, input.organizationId);
  const store = storeOf(options);
  if ((await store.listSsoConnections(input.organizationId)).length >= MAX_CONNECTIONS)
    throw new InvalidSsoConnection(`An organization has at most ${MAX_CONNECTIONS} connections.`);
  const id = crypto.randomUUID();
  const now = new Date();
  const connection: SsoConnection = {
    id,
    organizationId: input.organizationId,
    protocol: input.protocol,
    name: input.name,
    defaultRole: input.defaultRole ?? "member",
    attributeMapping: input.attributeMapping ?? {},
    ssoRequired: input.ssoRequired ?? false,
    createdAt: now,
    updatedAt: now,
  };
  if (input.groupRoles) connection.groupRoles = input.groupRoles;
  assertRoles(options, connection, member.role);
  Object.assign(connection, await protocolSettings(options, id, input));
  const stored = await store.createSsoConnection(connection);
  audited(options, request, "ssoConnectionCreated", userId, stored);
  return answer(listed(stored));
}

/** The connection `before` with the changes of `input` (a new OIDC secret encrypted; the SP key stays authlib's). */
async function changedConnection(
  options: InternalOptions,
  before: SsoConnection,
  input: InputOf<typeof updateInput>,
): Promise<SsoConnection> {
  const after: SsoConnection = { ...before, updatedAt: new Date() };
  if (input.name !== undefined) after.name = input.name;
  if (input.defaultRole !== undefined) after.defaultRole = input.defaultRole;
  if (input.attributeMapping !== undefined) after.attributeMapping = input.attributeMapping;
  if (input.groupRoles !== undefined) after.groupRoles = input.groupRoles;
  if (input.ssoRequired !== undefined) after.ssoRequired = input.ssoRequired;
  if (input.oidc !== undefined) {
    if (!before.oidc) throw new InvalidSsoConnection("`oidc` changes only an OIDC connection.");
    const { clientSecret, ...plain } = input.oidc;
    after.oidc = { ...before.oidc, ...plain };
    if (clientSecret !== undefined)
      after.oidc.clientSecret = await sealSecret(options.secret, before.id, "oidc.clientSecret", clientSecret);
  }
  if (input.saml !== undefined) {
    if (!before.saml) throw new InvalidSsoConnection("`saml` changes only a SAML connection.");
    after.saml = changedSaml(before.saml, await withMetadata(options, input.saml));
  }
  return after;
}

/** POST sso/update: changes a connection (the fields given). */
export async function updateSsoConnection(options: InternalOptions, request: RequestInternal, input: InputOf<typeof updateInput>) {
  const { connection, acting } = await manageable(options, request, input.connectionId);
  const after = await changedConnection(options, connection, input);
  assertRoles(options, after, acting.member.role);
  const stored = await storeOf(options).updateSsoConnection(after);
  audited(options, request, "ssoConnectionUpdated", acting.userId, stored);
  return answer(listed(stored));
}

/** POST sso/delete: deletes a connection and its identities (their users stay, with their memberships). */
export async function deleteSsoConnection(options: InternalOptions, request: RequestInternal, input: InputOf<typeof connectionInput>) {
  const { connection, acting } = await manageable(options, request, input.connectionId);
  await storeOf(options).deleteSsoConnection(connection.id);
  audited(options, request, "ssoConnectionDeleted", acting.userId, connection);
  return answer({ deleted: true as const });
}

/** GET sso/list: the organization's connections, without their secrets. */
export async function listSsoConnections(options: InternalOptions, request: RequestInternal, input: InputOf<typeof organizationInput>) {
  await managing(options, request, input.organizationId);
  return answer({ connections: (await storeOf(options).listSsoConnections(input.organizationId)).map(listed) });
}
