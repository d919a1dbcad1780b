/**
 * What the server says of itself (RFC 7644 §4): `ServiceProviderConfig` (PATCH, filter and ETag supported;
 * bulk, sort and password change not), `ResourceTypes` (`User` with the enterprise extension, `Group`) and
 * `Schemas` (the attributes this server reads; every other attribute a client sends is kept as sent).
 *
 * @module features/sso/scim/discovery
 */
import { ScimResourceNotFound } from "../../../errors.js";
import type { ResponseInternal } from "../../../types/internal.js";
import type { ScimObject } from "../../../types/scim.js";
import type { ScimContext } from "./resource.js";
import { scimAnswer } from "./respond.js";
import {
  ENTERPRISE_USER_SCHEMA,
  GROUP_SCHEMA,
  LIST_RESPONSE,
  RESOURCE_TYPE_SCHEMA,
  SCHEMA_SCHEMA,
  SERVICE_PROVIDER_CONFIG_SCHEMA,
  USER_SCHEMA,
} from "./schema.js";
import { maxResultsOf } from "./store.js";

/** One attribute of a schema (RFC 7643 §7). */
function attribute(name: string, type: string, extra: Partial<Record<string, unknown>> = {}): ScimObject {
  return {
    name,
    type,
    multiValued: false,
    required: false,
    caseExact: false,
    mutability: "readWrite",
    returned: "default",
    uniqueness: "none",
    ...extra,
  } as ScimObject;
}

const USER_ATTRIBUTES = [
  attribute("userName", "string", { required: true, uniqueness: "server" }),
  attribute("externalId", "string", { caseExact: true }),
  attribute("name", "complex", {
    subAttributes: ["formatted", "familyName", "givenName", "middleName"].map((name) => attribute(name, "string")),
  }),
  attribute("displayName", "string"),
  attribute("active", "boolean"),
  attribute("emails", "complex", {
    multiValued: true,
    subAttributes: [attribute("value", "string"), attribute("type", "string"), attribute("primary", "boolean")],
  }),
  attribute("groups", "complex", {
    multiValued: true,
    mutability: "readOnly",
    subAttributes: [attribute("value", "string", { mutability: "readOnly" }), attribute("display", "string", { mutability: "readOnly" })],
  }),
];

const GROUP_ATTRIBUTES = [
  attribute("displayName", "string", { required: true, uniqueness: "server" }),
  attribute("externalId", "string", { caseExact: true }),
  attribute("members", "complex", {
    multiValued: true,
    subAttributes: [attribute("value", "string", { mutability: "immutable" }), attribute("display", "string", { mutability: "readOnly" })],
  }),
];

const ENTERPRISE_ATTRIBUTES = [
  attribute("employeeNumber", "string"),
  attribute("department", "string"),
  attribute("manager", "complex", { subAttributes: [attribute("value", "string")] }),
];

/** The schemas, by id. */
function schemas(context: ScimContext): ScimObject[] {
  const schema = (id: string, name: string, attributes: ScimObject[]): ScimObject => ({
    schemas: [SCHEMA_SCHEMA],
    id,
    name,
    attributes,
    meta: { resourceType: "Schema", location: `${context.options.authUrl}/scim/v2/Schemas/${id}` },
  });
  return [
    schema(USER_SCHEMA, "User", USER_ATTRIBUTES),
    schema(GROUP_SCHEMA, "Group", GROUP_ATTRIBUTES),
    schema(ENTERPRISE_USER_SCHEMA, "EnterpriseUser", ENTERPRISE_ATTRIBUTES),
  ];
}

/** The resource types, by id. */
function resourceTypes(context: ScimContext): ScimObject[] {
  const type = (id: string, schema: string, extensions: ScimObject[]): ScimObject => ({
    schemas: [RESOURCE_TYPE_SCHEMA],
    id,
    name: id,
    endpoint: `/${id}s`,
    schema,
    schemaExtensions: extensions,
    meta: { resourceType: "ResourceType", location: `${context.options.authUrl}/scim/v2/ResourceTypes/${id}` },
  });
  return [type("User", USER_SCHEMA, [{ schema: ENTERPRISE_USER_SCHEMA, required: false }]), type("Group", GROUP_SCHEMA, [])];
}

/** `GET /ServiceProviderConfig`. */
export function serviceProviderConfig(context: ScimContext): ResponseInternal<string> {
  return scimAnswer(200, {
    schemas: [SERVICE_PROVIDER_CONFIG_SCHEMA],
    documentationUri: "https://github.com/authlib/authlib/blob/main/docs/sso.md",
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: maxResultsOf(context.options) },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "Bearer token",
        description: "A SCIM token of the organization (`scim_…`), made by its admin: `Authorization: Bearer <token>`.",
        primary: true,
      },
    ],
    meta: { resourceType: "ServiceProviderConfig", location: `${context.options.authUrl}/scim/v2/ServiceProviderConfig` },
  });
}

/** `GET /Schemas[/{id}]` or `GET /ResourceTypes[/{id}]`: the list, or one by its id. */
export function discoveryList(context: ScimContext, kind: "Schemas" | "ResourceTypes", id: string | undefined): ResponseInternal<string> {
  const all = kind === "Schemas" ? schemas(context) : resourceTypes(context);
  if (id === undefined)
    return scimAnswer(200, { schemas: [LIST_RESPONSE], totalResults: all.length, itemsPerPage: all.length, startIndex: 1, Resources: all });
  const one = all.find((resource) => resource.id === id);
  if (!one) throw new ScimResourceNotFound(`No ${kind === "Schemas" ? "schema" : "resource type"} has the id "${id}".`);
  return scimAnswer(200, one);
}
