/**
 * The typed input of the API-key operations: a key's name, scopes, lifetime and ids, each refused with
 * `InvalidApiKeyRequest` when it is not one.
 *
 * @module features/api-keys/input
 */
import { InvalidApiKeyRequest } from "../../errors.js";
import type { FieldParser } from "../../http/input.js";
import { field, inputSchema } from "../../http/input.js";
import { isKeyId } from "./key-format.js";

const refuse = InvalidApiKeyRequest;

/** A key's name: 1 to 64 visible characters. */
const name: FieldParser<string> = (value, fieldName, fields) => {
  const given = field.string({ max: 64, refuse })(value, fieldName, fields).trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
  if (given === "" || /[\u0000-\u001f\u007f]/.test(given))
    throw new InvalidApiKeyRequest(`\`${fieldName}\` must be 1 to 64 visible characters.`);
  return given;
};

/**
 * Scopes: a list of names, one string of names separated by spaces, or (a page's checkboxes, one field per
 * scope: a form repeats no field name) the fields named `scope.<name>`; at most 64, no repeats.
 */
const scopes: FieldParser<string[] | undefined> = (value, fieldName, fields) => {
  const checked = Object.keys(fields).filter((key) => key.startsWith("scope.") && Reflect.get(fields, key) === "on");
  if ((value === undefined || value === null || value === "") && checked.length === 0) return undefined;
  const given = value === undefined || value === null || value === "" ? [] : value;
  const list = typeof given === "string" ? given.split(/\s+/).filter(Boolean) : given;
  if (Array.isArray(list) && checked.length > 0) list.push(...checked.map((key) => key.slice("scope.".length)));
  if (!Array.isArray(list) || list.length > 64 || list.some((scope) => typeof scope !== "string" || scope === "" || scope.length > 128))
    throw new InvalidApiKeyRequest(`\`${fieldName}\` must be a list of at most 64 scope names.`);
  return [...new Set(list as string[])];
};

/** A lifetime in seconds (a number or a decimal string); `undefined` for the app's default. */
const lifetime: FieldParser<number | undefined> = (value, fieldName) => {
  if (value === undefined || value === null || value === "") return undefined;
  const seconds = typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : value;
  if (typeof seconds !== "number" || !Number.isInteger(seconds) || seconds < 60)
    throw new InvalidApiKeyRequest(`\`${fieldName}\` must be a whole number of seconds, at least 60.`);
  return seconds;
};

/** A key's public id (16 base62 characters). */
const keyId: FieldParser<string> = (value, fieldName) => {
  if (!isKeyId(value)) throw new InvalidApiKeyRequest(`\`${fieldName}\` is not an API key id.`);
  return value;
};

const organizationId = field.optional(field.string({ max: 128, refuse }));

export const createInput = inputSchema({ name, scopes, expiresIn: lifetime, organizationId });
export const listInput = inputSchema({ organizationId });
export const keyInput = inputSchema({ keyId });
export const verifyInput = inputSchema({ scopes });
export const revokeFormInput = inputSchema({ keyId, organizationId });
