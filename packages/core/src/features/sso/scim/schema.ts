/**
 * The schema URNs of SCIM 2.0 (RFC 7643, RFC 7644) and how an attribute path names an attribute: a core
 * schema's URN prefix is dropped (`urn:ietf:params:scim:schemas:core:2.0:User:userName` is `userName`), an
 * extension's URN is the first step (`urn:…:enterprise:2.0:User:manager.value` is the extension, then
 * `manager`, then `value`).
 *
 * @module features/sso/scim/schema
 */

export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const ENTERPRISE_USER_SCHEMA = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
export const LIST_RESPONSE = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
export const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";
export const SERVICE_PROVIDER_CONFIG_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig";
export const RESOURCE_TYPE_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ResourceType";
export const SCHEMA_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Schema";

/** The core schemas, whose URN a path may start with and which then names nothing more. */
const CORE_SCHEMAS = [USER_SCHEMA, GROUP_SCHEMA];
/** The extension schemas, whose attributes live in an object under their URN. */
export const EXTENSION_SCHEMAS = [ENTERPRISE_USER_SCHEMA];

/** The schema URN `path` starts with (`urn:…:User:`), matched without case, or `undefined`. */
function schemaPrefix(path: string, schemas: readonly string[]): string | undefined {
  const lower = path.toLowerCase();
  return schemas.find((schema) => lower.startsWith(`${schema.toLowerCase()}:`));
}

/**
 * The steps of an attribute path: `name.givenName` is `["name", "givenName"]`; a core URN prefix is dropped,
 * an extension's URN is the first step.
 */
export function attributePath(path: string): string[] {
  const core = schemaPrefix(path, CORE_SCHEMAS);
  if (core) return path.slice(core.length + 1).split(".");
  const extension = schemaPrefix(path, EXTENSION_SCHEMAS);
  if (extension) return [extension, ...path.slice(extension.length + 1).split(".")];
  return path.split(".");
}

/** The extension schema `key` names (an attribute of a resource whose value holds the extension), or `undefined`. */
export function extensionSchema(key: string): string | undefined {
  return EXTENSION_SCHEMAS.find((schema) => schema.toLowerCase() === key.toLowerCase());
}
