/**
 * The typed input of the organization operations: ids, names, slugs, roles, addresses and domains, each
 * refused with `InvalidOrganization` when it is not one.
 *
 * @module features/organizations/input
 */
import { InvalidOrganization } from "../../errors.js";
import type { FieldParser } from "../../http/input.js";
import { field, inputSchema } from "../../http/input.js";

const refuse = InvalidOrganization;
const id = field.string({ max: 128, refuse });

/** A slug: lower-case letters and digits, single hyphens inside, 2 to 48 characters. */
const SLUG = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){1,47}$/;

function matching(pattern: RegExp, max: number, what: string): FieldParser<string> {
  const text = field.string({ max, refuse });
  return (value, name, fields) => {
    const given = text(value, name, fields);
    if (!pattern.test(given)) throw new InvalidOrganization(`\`${name}\` is not ${what}.`);
    return given;
  };
}

/** A display name: 1 to 100 characters, not only spaces, no control characters. */
function displayName(): FieldParser<string> {
  const text = field.string({ max: 100, refuse });
  return (value, name, fields) => {
    const given = text(value, name, fields).trim();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
    if (given === "" || /[\u0000-\u001f\u007f]/.test(given))
      throw new InvalidOrganization(`\`${name}\` must be 1 to 100 visible characters.`);
    return given;
  };
}

const slug = matching(SLUG, 48, "a slug (2 to 48 lower-case letters, digits and single hyphens)");
const role = matching(/^[a-z][a-z0-9_-]{0,31}$/, 32, "a role name");
const domainJoin = field.oneOf(["auto", "suggest", "off"], { refuse });

export const createInput = inputSchema({ name: displayName(), slug });
export const organizationInput = inputSchema({ organizationId: id });
export const updateInput = inputSchema({
  organizationId: id,
  name: field.optional(displayName()),
  slug: field.optional(slug),
  domainJoin: field.optional(domainJoin),
  policy: field.optional(field.value()),
});
export const memberInput = inputSchema({ organizationId: id, userId: id });
export const roleInput = inputSchema({ organizationId: id, userId: id, role });
export const inviteInput = inputSchema({ organizationId: id, email: field.string({ max: 320, refuse }), role });
export const invitationInput = inputSchema({ organizationId: id, invitationId: id });
export const acceptInput = inputSchema({ invitationId: id, token: field.string({ max: 128, refuse }) });
export const domainInput = inputSchema({ organizationId: id, domain: field.string({ max: 253, refuse }) });
export const domainIdInput = inputSchema({ organizationId: id, domainId: id });
export const activeInput = inputSchema({ organizationId: field.optional(id) });
export const permissionInput = inputSchema({ organizationId: field.optional(id), permission: field.string({ max: 128, refuse }) });
