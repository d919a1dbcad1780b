/**
 * What authlib checks of a token endpoint response beyond oauth4webapi's validation.
 *
 * oauth4webapi (`processAuthorizationCodeResponse`) already checks, for an ID token: `iss` equals the
 * issuer, `aud` contains the client id, `exp` is not past (minus the clock tolerance), `nbf` is not in the
 * future (plus the tolerance), `iat` and `sub` are present, `nonce` equals the expected one (or is absent
 * when none was sent), and with several audiences, `azp` is present and equals the client id. It accepts
 * `token_type` `bearer` and `dpop` (case-insensitive, lowercased).
 *
 * authlib adds, here:
 * - `azp`, when present, equals the client id, also with a single audience (OIDC Core §3.1.3.7 item 5
 *   leaves this to the client; a token issued to another party is not ours to accept);
 * - `iat` is not further in the future than the clock tolerance (a token "issued" an hour from now comes
 *   from a broken or forged clock);
 * - `token_type` is `bearer`: authlib does not send DPoP proofs, so a DPoP-bound token must not be used
 *   as a Bearer token.
 *
 * @module oauth/token-response
 */
import * as oauth from "oauth4webapi";
import { InvalidIdTokenClaim, UnsupportedTokenType } from "../errors.js";

/** Seconds of clock difference tolerated in ID token times; also given to oauth4webapi (`clockTolerance`). */
export const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * Throws `UnsupportedTokenType` for a `token_type` other than `bearer`, and `InvalidIdTokenClaim` for an
 * ID token whose `azp` is not the client id or whose `iat` lies beyond the clock tolerance.
 */
export function assertTokenResponse(providerId: string, client: oauth.Client, response: oauth.TokenEndpointResponse): void {
  // oauth4webapi lowercases token_type; compare case-insensitively anyway.
  const tokenType = String(response.token_type).toLowerCase();
  if (tokenType !== "bearer") {
    throw new UnsupportedTokenType(
      `Provider "${providerId}" issued a "${tokenType}" token; authlib uses access tokens as Bearer tokens only (no DPoP).`,
      { cause: { providerId, tokenType } },
    );
  }
  const claims = oauth.getValidatedIdTokenClaims(response);
  if (!claims) return;
  if (claims.azp !== undefined && claims.azp !== client.client_id) {
    throw new InvalidIdTokenClaim(`The ID token of provider "${providerId}" was issued to another party (azp).`, {
      cause: { providerId, claim: "azp" },
    });
  }
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.iat === "number" && claims.iat > now + CLOCK_TOLERANCE_SECONDS) {
    throw new InvalidIdTokenClaim(`The ID token of provider "${providerId}" is issued in the future (iat).`, {
      cause: { providerId, claim: "iat", iat: claims.iat, now },
    });
  }
}
