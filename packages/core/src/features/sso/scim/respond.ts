/**
 * How SCIM answers (RFC 7644 §3.1, §3.12): `application/scim+json` bodies, never cached, and every refusal as
 * a SCIM error body (`urn:ietf:params:scim:api:messages:2.0:Error` with `status` and, where there is one,
 * `scimType`), a 401 with `WWW-Authenticate: Bearer`. An error that is the operator's is a 500 that names no
 * detail (the log has it).
 *
 * @module features/sso/scim/respond
 */
import type { AuthErrorShape } from "../../../types/errors.js";
import type { ResponseInternal } from "../../../types/internal.js";
import { ERROR_SCHEMA } from "./schema.js";

/** The content type of every SCIM answer. */
export const SCIM_CONTENT_TYPE = "application/scim+json";

/** A SCIM answer of `status` with `body`, and `headers` beside the content type. */
export function scimAnswer(status: number, body: object | null, headers: Record<string, string> = {}): ResponseInternal<string> {
  return {
    status,
    headers: { "Content-Type": SCIM_CONTENT_TYPE, "Cache-Control": "no-store", ...headers },
    ...(body === null ? {} : { body: JSON.stringify(body) }),
  };
}

/** The SCIM error body and status of a refusal (an operation's presentation: `OperationDeclaration.presentation`). */
export function scimRefusal(error: AuthErrorShape): ResponseInternal<string> {
  const status = error.status ?? 500;
  const scimType = (error as AuthErrorShape & { scimType?: unknown }).scimType;
  const detail = error.status === undefined ? "The server could not answer: its log says why." : error.message;
  const body = {
    schemas: [ERROR_SCHEMA],
    status: String(status),
    ...(typeof scimType === "string" ? { scimType } : error.type === "ScimConflict" ? { scimType: "uniqueness" } : {}),
    detail,
  };
  const headers: Record<string, string> = status === 401 ? { "WWW-Authenticate": 'Bearer realm="SCIM"' } : {};
  return { ...scimAnswer(status, body, headers), failure: error as Error };
}
