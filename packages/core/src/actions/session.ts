/**
 * GET /session reads the session; POST /session (with a CSRF token and `data`) updates it through the
 * `jwt` (JWT strategy) or `session` (database strategy) callback with `trigger: "update"`.
 *
 * The update's `data` is bounded before any callback sees it: at most {@link SESSION_DATA_MAX_DEPTH}
 * levels of nesting (`SessionDataTooDeep`, HTTP 400) and {@link SESSION_DATA_MAX_BYTES} bytes as JSON
 * (`SessionDataTooLarge`, HTTP 413). Apps copy it into the token, which travels in cookies on every
 * request and is serialised by `JSON.stringify`. Updates are limited per client address
 * (`rateLimit.sessionUpdate`, HTTP 429 with `Retry-After`).
 */
import { SessionDataTooDeep, SessionDataTooLarge } from "../errors.js";
import { assertCsrf } from "../http/csrf.js";
import { field, inputSchema } from "../http/input.js";
import { noStoreHeaders } from "../http/response.js";
import { nestsDeeperThan } from "../session/json-shape.js";
import { inSpan } from "../telemetry/index.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../types/internal.js";
import type { InputOf } from "../types/operation.js";

/** The deepest nesting of objects and arrays `POST /session` accepts in `data`. */
export const SESSION_DATA_MAX_DEPTH = 32;
/** The most bytes (UTF-8 JSON) `POST /session` accepts in `data`: four cookie chunks' worth once encrypted. */
export const SESSION_DATA_MAX_BYTES = 16 * 1024;

/** Throws `SessionDataTooDeep` / `SessionDataTooLarge` for `data` past the limits; never recurses. */
export function assertSessionData(data: unknown): void {
  if (nestsDeeperThan(data, SESSION_DATA_MAX_DEPTH)) {
    throw new SessionDataTooDeep(`The session update's data nests deeper than ${SESSION_DATA_MAX_DEPTH} levels.`);
  }
  // Safe now: the depth is bounded.
  const size = data === undefined ? 0 : new TextEncoder().encode(JSON.stringify(data) ?? "").byteLength;
  if (size > SESSION_DATA_MAX_BYTES) {
    throw new SessionDataTooLarge(`The session update's data is ${size} bytes; at most ${SESSION_DATA_MAX_BYTES} are accepted.`, {
      cause: { size, limit: SESSION_DATA_MAX_BYTES },
    });
  }
}

/** A session update's input: `data`, handed to the `jwt`/`session` callbacks as `session.update(data)` sent it. */
export const updateInput = inputSchema({ data: field.value() });

/** `GET /session` (no input: the hot path parses nothing), or `POST /session` with its {@link updateInput}. */
export async function sessionAction(
  options: InternalOptions,
  request: RequestInternal,
  input?: InputOf<typeof updateInput>,
): Promise<ResponseInternal> {
  const isUpdate = request.method === "POST";
  if (isUpdate) {
    assertCsrf("session update", options.csrfTokenVerified);
    if (options.rateLimits.config !== false) {
      // The limiter's code loads with the first update it limits.
      const { countClientRequest } = await import("../rate-limit/limiter.js");
      await countClientRequest(options, request, "session:ip", (limits) => limits.sessionUpdate);
    }
    assertSessionData(input?.data);
  }
  const update = isUpdate ? { data: input?.data } : undefined;
  const read = () => options.sessionStrategy.read(options, request, update);
  const strategy = options.session.strategy;
  // A session check's request span is the read itself: it gets the strategy, and no child span (the
  // hottest route's one span fewer). An update is more than a read: its read is a child step.
  if (!isUpdate) request.trace?.span.setAttribute("authlib.session.strategy", strategy);
  const reading = isUpdate ? inSpan("authlib.session.read", { "authlib.session.strategy": strategy }, read) : read();
  const { session, cookies } = await reading;
  return { body: session, cookies, headers: { "Content-Type": "application/json", ...noStoreHeaders } };
}
