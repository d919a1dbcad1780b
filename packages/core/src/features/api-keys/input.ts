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

/** Scopes: a list of names, or one string of names separated by spaces (a form's field); at most 64, no repeats. */
const scopes: FieldParser<string[] | undefined> = (value, fieldName) => {
  if (value === undefined || value === null || value === "") return undefined;
  const list = typeof value === "string" ? value.split(/\s+/).filter(Boolean) : value;
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
