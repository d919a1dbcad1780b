/**
 * The typed input of the admin operations: user ids, search text, a cursor, addresses, names, roles and
 * durations, each refused with `InvalidUser` (HTTP 400) when it is not one.
 *
 * @module features/admin/input
 */
import { InvalidUser } from "../../errors.js";
import type { FieldParser } from "../../http/input.js";
import { field, inputSchema } from "../../http/input.js";

const refuse = InvalidUser;
const userId = field.string({ max: 128, refuse });

/** The longest ban: 10 years, in seconds. */
export const MAX_BAN_SECONDS = 10 * 365 * 24 * 60 * 60;

/** Yes, no, or absent: a JSON boolean, or a form's `true`/`false` (empty or `any`: absent). */
function tristate(): FieldParser<boolean | undefined> {
  return (value, name) => {
    if (value === undefined || value === null || value === "" || value === "any") return undefined;
    if (value === true || value === "true") return true;
    if (value === false || value === "false") return false;
    throw new InvalidUser(`\`${name}\` must be true or false.`);
  };
}

/** One line of text of at most `max` characters, trimmed; empty is `null`. */
function line(max: number): FieldParser<string | null> {
  const text = field.string({ max, refuse });
  return (value, name, fields) => {
    const given = text(value, name, fields).normalize("NFC").trim();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
    if (/[\u0000-\u001f\u007f\u2028\u2029]/.test(given)) throw new InvalidUser(`\`${name}\` must be one line of text.`);
    return given === "" ? null : given;
  };
}

/** A role: a lower-case name, or empty for none. */
function role(): FieldParser<string | null> {
  const text = field.string({ max: 32, refuse });
  return (value, name, fields) => {
    const given = text(value, name, fields).trim();
    if (given === "") return null;
    if (!/^[a-z][a-z0-9_-]{0,31}$/.test(given))
      throw new InvalidUser(`\`${name}\` is not a role name (lower-case letters, digits, - and _).`);
    return given;
  };
}

export const listUsersInput = inputSchema({
  search: field.optional(line(200)),
  banned: tristate(),
  cursor: field.optional(field.string({ max: 200, refuse })),
  limit: field.optional(field.number({ min: 1, max: 100, refuse })),
});
export const userInput = inputSchema({ userId });
export const createUserInput = inputSchema({
  email: field.string({ max: 320, refuse }),
  name: field.optional(line(100)),
  emailVerified: field.flag({ refuse }),
  password: field.optional(field.string({ max: 1024, refuse })),
  role: field.optional(role()),
});
export const updateUserInput = inputSchema({
  userId,
  name: field.optional(line(100)),
  email: field.optional(field.string({ max: 320, refuse })),
  role: field.optional(role()),
});
export const setPasswordInput = inputSchema({ userId, password: field.string({ max: 1024, refuse }) });
export const banInput = inputSchema({
  userId,
  reason: field.optional(line(500)),
  expiresIn: field.optional(field.number({ min: 60, max: MAX_BAN_SECONDS, refuse })),
});
