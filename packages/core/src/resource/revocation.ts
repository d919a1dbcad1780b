/**
 * Revocation checks for `protectResource`: `revocationWithin` bounds what a check costs (each grant's
 * answer is kept for a number of seconds, so a revoked grant's tokens stop working within that bound),
 * and `introspectionRevocation` asks the issuer's RFC 7662 introspection endpoint.
 *
 * @module resource/revocation
 */
import type { RevocationCheck } from "./types.js";

/** How many grants' answers `revocationWithin` keeps by default; the oldest is forgotten first. */
const DEFAULT_MAX_GRANTS = 10_000;

interface Answer {
  revoked: boolean;
  /** When it was given (ms since the epoch). */
  at: number;
}

/**
 * `check`, with each grant's answer kept for `seconds`: a grant revoked now is seen within `seconds`, and
 * `check` is asked at most once per grant per `seconds` (concurrent requests of one grant share one call).
 * A revoked answer is kept for good (a grant is not unrevoked). At most `maxGrants` answers are kept
 * (default 10 000), the oldest forgotten first. A failing `check` is not kept: the next request asks again.
 */
export function revocationWithin(check: RevocationCheck, seconds: number, { maxGrants = DEFAULT_MAX_GRANTS } = {}): RevocationCheck {
  const answers = new Map<string, Answer>();
  const pending = new Map<string, Promise<boolean>>();
  const remember = (grantId: string, revoked: boolean) => {
    answers.delete(grantId);
    answers.set(grantId, { revoked, at: Date.now() });
    if (answers.size > maxGrants) answers.delete(answers.keys().next().value as string);
  };
  return {
    isRevoked(grantId, token) {
      const known = answers.get(grantId);
      if (known && (known.revoked || Date.now() - known.at < seconds * 1000)) return Promise.resolve(known.revoked);
      let asking = pending.get(grantId);
      if (asking === undefined) {
        asking = check.isRevoked(grantId, token).then(
          (revoked) => {
            pending.delete(grantId);
            remember(grantId, revoked);
            return revoked;
          },
          (error: unknown) => {
            pending.delete(grantId);
            throw error;
          },
        );
        pending.set(grantId, asking);
      }
      return asking;
    },
  };
}

/** Where and as whom `introspectionRevocation` asks. */
export interface IntrospectionRevocationOptions {
  /** The issuer's introspection endpoint (RFC 7662). */
  endpoint: string;
  /** The resource's client id at the issuer, and its secret (`client_secret_basic`). */
  clientId: string;
  clientSecret: string;
  /** Give up after this many milliseconds (the request then fails). Default 5000. */
  timeout?: number;
}

/** `client_secret_basic` (RFC 6749 §2.3.1): the id and secret form-encoded, then Base64. */
function basicCredentials(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");
  return `Basic ${btoa(`${encode(clientId)}:${encode(clientSecret)}`)}`;
}

/**
 * A revocation check that introspects the token at the issuer (RFC 7662): `active: false` is revoked.
 * Each call is a request to the issuer: wrap it in `revocationWithin` so that a grant is asked about once
 * per bound. An answer other than 200 with a JSON `active` boolean throws (the request fails, closed).
 */
export function introspectionRevocation(options: IntrospectionRevocationOptions): RevocationCheck {
  const authorization = basicCredentials(options.clientId, options.clientSecret);
  return {
    async isRevoked(_grantId, token) {
      const response = await fetch(options.endpoint, {
        method: "POST",
        headers: { authorization, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }),
        signal: AbortSignal.timeout(options.timeout ?? 5000),
      });
      if (response.status !== 200) throw new Error(`The introspection endpoint answered ${response.status}`);
      const answer = (await response.json()) as { active?: unknown } | null;
      if (typeof answer?.active !== "boolean") throw new Error("The introspection endpoint's answer has no active boolean");
      return !answer.active;
    },
  };
}
