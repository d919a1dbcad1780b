/**
 * The CORS preflight (`OPTIONS`) of a path whose operations any origin may call without credentials
 * (`OperationDeclaration.crossOrigin`: the OAuth endpoints a browser-based client calls with `fetch`).
 * A browser sends it before a request that carries `Authorization` or a JSON body; the answer allows any
 * origin, the path's methods and the headers its operations declare, and never credentials. Every other
 * path answers `OPTIONS` as before: `MethodNotAllowed`.
 *
 * @module kernel/preflight
 */
import { routeSegments } from "../http/request.js";
import type { AuthAnswer } from "../http/response.js";
import type { Router } from "./router.js";

/** How long a browser may keep the answer, in seconds. */
const MAX_AGE = 600;

/** The preflight's answer for `request`, or `undefined` when its path has no cross-origin operation. */
export function preflightAnswer(router: Router, basePath: string, request: Request): AuthAnswer | undefined {
  let segments: ReturnType<typeof routeSegments>;
  try {
    segments = routeSegments(new URL(request.url).pathname, basePath);
  } catch {
    return undefined;
  }
  const operations = segments ? router.crossOrigin(segments.action, segments.second) : [];
  if (operations.length === 0) return undefined;
  const headers = new Set(operations.flatMap((operation) => operation.crossOrigin?.headers ?? []));
  return {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": operations.map((operation) => operation.method).join(", "),
      "Access-Control-Allow-Headers": [...headers].join(", "),
      "Access-Control-Max-Age": String(MAX_AGE),
    },
    cookies: [],
    body: null,
  };
}
