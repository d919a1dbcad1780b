/**
 * The `path` of a SCIM PATCH operation (RFC 7644 §3.5.2, the `PATH` rule of Figure 1): an attribute, its
 * sub-attribute, or the elements of a multi-valued attribute a value filter selects, with an optional
 * sub-attribute of them: `userName`, `name.givenName`, `emails[type eq "work"].value`,
 * `members[value eq "2819c223"]`, `urn:…:enterprise:2.0:User:manager.value`. The filter is parsed by
 * `filter.ts` (`scim2-parse-filter`).
 *
 * @module features/sso/scim/patch-path
 */
import { ScimInvalidRequest } from "../../../errors.js";
import { type Filter, parseFilter } from "./filter.js";
import { attributePath } from "./schema.js";

/** A parsed path: where in the resource, which attribute, which of its elements, which sub-attribute. */
export interface PatchPath {
  /** The extension schema whose object holds the attribute, or `undefined` for the resource itself. */
  extension?: string;
  attribute: string;
  /** The value filter that selects elements of a multi-valued attribute. */
  filter?: Filter;
  subAttribute?: string;
}

/** An attribute name (RFC 7643 §2.1: a letter, then letters, digits, `_` or `-`; and `$ref`). */
const NAME = /^(?:[A-Za-z][\w-]*|\$ref)$/;

/** An `invalidPath` refusal. */
export function invalidPath(message: string): ScimInvalidRequest {
  const error = new ScimInvalidRequest(message);
  error.scimType = "invalidPath";
  return error;
}

/** The index of the `]` that closes the `[` at `open`, past quoted strings; -1 when there is none. */
function closingBracket(text: string, open: number): number {
  let quoted = false;
  for (let i = open + 1; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === "\\") i++;
    else if (char === '"') quoted = !quoted;
    else if (char === "]" && !quoted) return i;
  }
  return -1;
}

/** The path `text` names, or `ScimInvalidRequest` (`invalidPath`; `invalidFilter` for its filter). */
export function parsePatchPath(text: string): PatchPath {
  if (text.length === 0 || text.length > 1000) throw invalidPath("A PATCH path must be 1 to 1000 characters.");
  const open = text.indexOf("[");
  const head = open === -1 ? text : text.slice(0, open);
  const steps = attributePath(head);
  const extension = steps[0]?.startsWith("urn:") ? steps.shift() : undefined;
  let filter: Filter | undefined;
  if (open !== -1) {
    const close = closingBracket(text, open);
    const tail = close === -1 ? undefined : text.slice(close + 1);
    if (close === -1 || steps.length !== 1 || !(tail === "" || tail?.startsWith(".")))
      throw invalidPath(`"${text}" is not a path: a value filter is \`attribute[filter]\`, then at most \`.subAttribute\`.`);
    filter = parseFilter(text.slice(open + 1, close));
    if (tail !== "") steps.push(tail.slice(1));
  }
  const [attribute, subAttribute, ...more] = steps;
  if (attribute === undefined || more.length > 0 || !NAME.test(attribute) || (subAttribute !== undefined && !NAME.test(subAttribute)))
    throw invalidPath(`"${text}" is not a path this server knows: an attribute, at most one sub-attribute deep.`);
  return { ...(extension ? { extension } : {}), attribute, ...(filter ? { filter } : {}), ...(subAttribute ? { subAttribute } : {}) };
}
