/**
 * The typed input of the connection operations, each field refused with `InvalidSsoConnection` naming it:
 * names, roles, the attribute mapping, group roles, and the protocol's settings (an OIDC issuer over https,
 * or plain http only on a loopback host; SAML URLs and certificates).
 *
 * @module features/sso/input
 */
import { InvalidSsoConnection, SsoSignInFailed } from "../../errors.js";
import type { FieldParser } from "../../http/input.js";
import { field, inputSchema } from "../../http/input.js";
import { checkPublicUrl } from "../../http/public-fetch.js";
import { isLoopbackHost } from "../../oauth/http.js";
import type { SamlSignatureOn, SsoAttributeMapping } from "../../types/sso.js";

const refuse = InvalidSsoConnection;
const id = field.string({ max: 128, refuse });

/** A plain object of the input (a JSON object, an `auth.api` argument), or `InvalidSsoConnection`. */
function objectOf(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new InvalidSsoConnection(`\`${name}\` must be an object.`);
  return value as Record<string, unknown>;
}

/** Visible text of 1 to `max` characters (trimmed). */
function text(max: number): FieldParser<string> {
  const given = field.string({ max, refuse });
  return (value, name, fields) => {
    const trimmed = given(value, name, fields).trim();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
    if (trimmed === "" || /[\u0000-\u001f\u007f]/.test(trimmed))
      throw new InvalidSsoConnection(`\`${name}\` must be 1 to ${max} visible characters.`);
    return trimmed;
  };
}

/** A role name (whether the organization has it is checked with the roles). */
const role: FieldParser<string> = (value, name, fields) => {
  const given = field.string({ max: 32, refuse })(value, name, fields);
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(given)) throw new InvalidSsoConnection(`\`${name}\` is not a role name.`);
  return given;
};

/** An https URL, or an http one on a loopback host (tests, local development): what the server will fetch or send browsers to. */
function secureUrl(value: unknown, name: string): string {
  const given = field.string({ max: 2048, refuse })(value, name, {});
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new InvalidSsoConnection(`\`${name}\` is not a URL.`);
  }
  const secure = url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
  if (!secure || url.username !== "" || url.password !== "" || url.hash !== "")
    throw new InvalidSsoConnection(`\`${name}\` must be an https URL (without credentials or fragment).`);
  return given;
}

/**
 * An OIDC issuer: an https URL (http only on a loopback host), no query or fragment (RFC 8414: discovery
 * appends its path to it, and the ID token's `iss` must equal it exactly).
 */
function issuerUrl(value: unknown, name: string): string {
  const given = secureUrl(value, name);
  if (new URL(given).search !== "") throw new InvalidSsoConnection(`\`${name}\` must be an issuer URL without a query.`);
  return given;
}

/** A certificate: PEM, or base64 DER (as metadata carries it), normalised to its base64 body. */
function certificate(value: unknown, name: string): string {
  if (typeof value !== "string" || value.length > 16_384) throw new InvalidSsoConnection(`\`${name}\` must be a certificate (PEM).`);
  const body = value.replace(/-----BEGIN CERTIFICATE-----|-----END CERTIFICATE-----/g, "").replace(/\s+/g, "");
  if (body.length < 100 || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw new InvalidSsoConnection(`\`${name}\` must be a certificate (PEM).`);
  return body;
}

const ATTRIBUTE = /^[A-Za-z0-9:._/#-]{1,256}$/;

/** The attribute mapping: names of attributes (SAML) or claims (OIDC) for `email`, `name`, `groups`. */
const attributeMapping: FieldParser<SsoAttributeMapping | undefined> = (value, name) => {
  if (value === undefined || value === null || value === "") return undefined;
  const given = objectOf(value, name);
  const mapping: SsoAttributeMapping = {};
  for (const key of ["email", "name", "groups"] as const) {
    const attribute = given[key];
    if (attribute === undefined) continue;
    if (typeof attribute !== "string" || !ATTRIBUTE.test(attribute))
      throw new InvalidSsoConnection(`\`${name}.${key}\` must be an attribute name (letters, digits and : . _ / # -).`);
    mapping[key] = attribute;
  }
  const unknown = Object.keys(given).filter((key) => !["email", "name", "groups"].includes(key));
  if (unknown.length > 0) throw new InvalidSsoConnection(`\`${name}\` maps only email, name and groups.`);
  return mapping;
};

/** Group names to roles: at most 100 groups, each a name of at most 256 characters. */
const groupRoles: FieldParser<Record<string, string> | undefined> = (value, name) => {
  if (value === undefined || value === null || value === "") return undefined;
  const given = objectOf(value, name);
  const entries = Object.entries(given);
  if (entries.length > 100) throw new InvalidSsoConnection(`\`${name}\` maps at most 100 groups.`);
  const mapped: Record<string, string> = {};
  for (const [group, groupRole] of entries) {
    if (group === "" || group.length > 256) throw new InvalidSsoConnection(`\`${name}\` has a group name that is empty or too long.`);
    Object.defineProperty(mapped, group, { value: role(groupRole, `${name}.${group}`, given), enumerable: true, writable: true });
  }
  return mapped;
};

/** A clear secret given once (never echoed back). */
const clientSecret = field.string({ max: 1024, refuse });

/** The OIDC settings of a new connection (`partial`: of a change, every field optional). */
function oidcSettings(partial: boolean): FieldParser<{ issuer?: string; clientId?: string; clientSecret?: string } | undefined> {
  return (value, name) => {
    if (value === undefined || value === null) return undefined;
    const given = objectOf(value, name);
    const settings: { issuer?: string; clientId?: string; clientSecret?: string } = {};
    if (!partial || given.issuer !== undefined) settings.issuer = issuerUrl(given.issuer, `${name}.issuer`);
    if (!partial || given.clientId !== undefined) settings.clientId = text(256)(given.clientId, `${name}.clientId`, given);
    if (!partial || given.clientSecret !== undefined) {
      const secret = clientSecret(given.clientSecret, `${name}.clientSecret`, given);
      if (secret === "") throw new InvalidSsoConnection(`\`${name}.clientSecret\` must not be empty.`);
      settings.clientSecret = secret;
    }
    return settings;
  };
}

/** The SAML settings of a connection given by its admin (the service provider's key is authlib's own). */
export interface SamlGiven {
  /** The IdP's metadata document, pasted: its entity id, SSO URL and certificates (instead of the three fields). */
  metadataXml?: string;
  /** The https URL of the IdP's metadata document, fetched when the connection is created or updated with it. */
  metadataUrl?: string;
  idpEntityId?: string;
  idpSsoUrl?: string;
  idpCertificates?: string[];
  signatureOn?: SamlSignatureOn;
  allowIdpInitiated?: boolean;
}

/**
 * The identity provider as its metadata document describes it (`parseIdpMetadata`), held to the rules of
 * the three fields given one by one (an https SSO URL, certificates that are ones).
 */
export function idpFromMetadata(
  idp: { entityId: string; ssoUrl: string; certificates: string[] },
  name: string,
): Required<Pick<SamlGiven, "idpEntityId" | "idpSsoUrl" | "idpCertificates">> {
  const given = { entityId: idp.entityId };
  return {
    idpEntityId: text(1024)(idp.entityId, `${name}.entityID`, given),
    idpSsoUrl: secureUrl(idp.ssoUrl, `${name}.SingleSignOnService`),
    idpCertificates: idp.certificates.slice(0, 4).map((pem, index) => certificate(pem, `${name}.certificates[${index}]`)),
  };
}

/** An https URL the server may fetch (`http/public-fetch.ts` checks it the same way before it does). */
function metadataUrl(value: unknown, name: string): string {
  const given = field.string({ max: 2000, refuse })(value, name, {});
  checkPublicUrl(given, (why) => new InvalidSsoConnection(`\`${name}\` ${why}.`));
  return given;
}

/** The IdP given one way only: its metadata pasted, its metadata's URL, or its three fields. */
function idpSource(given: Record<string, unknown>, name: string, settings: SamlGiven): void {
  const fields = given.idpEntityId !== undefined || given.idpSsoUrl !== undefined || given.idpCertificates !== undefined;
  const ways = [given.metadataXml !== undefined, given.metadataUrl !== undefined, fields].filter(Boolean).length;
  if (ways > 1) throw new InvalidSsoConnection(`\`${name}\` takes the IdP's metadata, its URL or its three fields: one of them.`);
  if (given.metadataXml !== undefined)
    settings.metadataXml = field.string({ max: 262_144, refuse })(given.metadataXml, `${name}.metadataXml`, given);
  if (given.metadataUrl !== undefined) settings.metadataUrl = metadataUrl(given.metadataUrl, `${name}.metadataUrl`);
}

/** The SAML settings of a new connection (`partial`: of a change). */
function samlSettings(partial: boolean): FieldParser<SamlGiven | undefined> {
  return (value, name) => {
    if (value === undefined || value === null) return undefined;
    const given = objectOf(value, name);
    const settings: SamlGiven = {};
    idpSource(given, name, settings);
    // Metadata (pasted or by URL) stands for the three fields; without it, a new connection needs each of them.
    const each = !partial && settings.metadataXml === undefined && settings.metadataUrl === undefined;
    if (each || given.idpEntityId !== undefined) settings.idpEntityId = text(1024)(given.idpEntityId, `${name}.idpEntityId`, given);
    if (each || given.idpSsoUrl !== undefined) settings.idpSsoUrl = secureUrl(given.idpSsoUrl, `${name}.idpSsoUrl`);
    if (each || given.idpCertificates !== undefined) {
      const list = given.idpCertificates;
      if (!Array.isArray(list) || list.length < 1 || list.length > 4)
        throw new InvalidSsoConnection(`\`${name}.idpCertificates\` must list 1 to 4 certificates (two during a rotation).`);
      settings.idpCertificates = list.map((pem, index) => certificate(pem, `${name}.idpCertificates[${index}]`));
    }
    if (given.signatureOn !== undefined)
      settings.signatureOn = field.oneOf(["assertion", "response", "both"], { refuse })(given.signatureOn, `${name}.signatureOn`, given);
    if (given.allowIdpInitiated !== undefined)
      settings.allowIdpInitiated = field.flag({ refuse })(given.allowIdpInitiated, `${name}.allowIdpInitiated`, given);
    return settings;
  };
}

const optionalFlag: FieldParser<boolean | undefined> = (value, name, fields) =>
  value === undefined || value === null ? undefined : field.flag({ refuse })(value, name, fields);

export const createInput = inputSchema({
  organizationId: id,
  protocol: field.oneOf(["saml", "oidc"], { refuse }),
  name: text(100),
  defaultRole: field.optional(role),
  attributeMapping,
  groupRoles,
  ssoRequired: optionalFlag,
  saml: samlSettings(false),
  oidc: oidcSettings(false),
});

export const updateInput = inputSchema({
  connectionId: id,
  name: field.optional(text(100)),
  defaultRole: field.optional(role),
  attributeMapping,
  groupRoles,
  ssoRequired: optionalFlag,
  saml: samlSettings(true),
  oidc: oidcSettings(true),
});

/** The organization page's form that adds an OIDC connection (flat fields, as a form posts them). */
export const formCreateInput = inputSchema({
  name: text(100),
  issuer: (value, name) => issuerUrl(value, name),
  clientId: text(256),
  clientSecret: (value, name, fields) => {
    const secret = clientSecret(value, name, fields);
    if (secret === "") throw new InvalidSsoConnection(`\`${name}\` must not be empty.`);
    return secret;
  },
  ssoRequired: field.flag({ refuse }),
});

/** The organization page's form that adds a SAML connection: the IdP's metadata pasted or its URL, the role it gives. */
export const formSamlInput = inputSchema({
  name: text(100),
  metadataXml: field.optional(field.string({ max: 262_144, refuse })),
  metadataUrl: field.optional(field.string({ max: 2000, refuse })),
  defaultRole: role,
  ssoRequired: field.flag({ refuse }),
});

export const connectionInput = inputSchema({ connectionId: id });
export const organizationInput = inputSchema({ organizationId: id });
export const discoverInput = inputSchema({ email: field.string({ max: 320, refuse }) });
/**
 * What an identity provider posts to the assertion consumer: the base64 `SAMLResponse` (bounded: a signed
 * response with a certificate chain is some kilobytes, never a quarter of a megabyte) and its `RelayState`.
 */
export const acsInput = inputSchema({
  SAMLResponse: field.string({ max: 262_144, refuse: SsoSignInFailed }),
  RelayState: field.optional(field.string({ max: 1024, refuse: SsoSignInFailed })),
});
