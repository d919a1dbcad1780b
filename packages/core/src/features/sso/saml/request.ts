/**
 * The SP-initiated sign-in request of a SAML connection: an AuthnRequest sent with the HTTP-Redirect
 * binding (deflated, base64, `SAMLRequest` and `RelayState` on the IdP's SSO URL), signed when the SP has a
 * signing key. The request id is returned so that the feature binds it to this browser: the response must
 * answer exactly this request (`validateSamlResponse`'s `expectedRequestId`).
 *
 * @module features/sso/saml/request
 */
import { loadNodeSaml } from "./library.js";
import type { SamlConnectionSettings } from "./types.js";

/** A request id: `_` (an XML ID must not start with a digit) and 160 random bits in hex. */
function newRequestId(): string {
  return `_${Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString("hex")}`;
}

/**
 * The RelayState a request may carry: at most 80 bytes (the binding's limit) of characters that node-saml's
 * signing (`querystring`) and the URL it returns (`URLSearchParams`) encode alike. Any other character would
 * make the signed octets differ from the URL's, and the IdP refuse the signature.
 */
const RELAY_STATE = /^[A-Za-z0-9._-]{1,80}$/;

/**
 * Builds the redirect to the IdP for a new sign-in. `relayState` comes back with the response (the feature
 * keeps there what it needs to finish, never a secret): 1 to 80 characters of `A-Z a-z 0-9 . _ -` (a
 * `RangeError` otherwise: it is the feature's value, not the user's). Throws `SamlLibraryMissing` when
 * `@node-saml/node-saml` is not installed.
 */
export async function samlSignInRequest(
  settings: SamlConnectionSettings,
  options: { relayState: string },
): Promise<{ redirectUrl: string; requestId: string }> {
  if (!RELAY_STATE.test(options.relayState)) throw new RangeError("A SAML RelayState is 1 to 80 characters of A-Z a-z 0-9 . _ -");
  const library = await loadNodeSaml();
  const requestId = newRequestId();
  const { sp, idp } = settings;
  const saml = new library.SAML({
    callbackUrl: sp.acsUrl,
    issuer: sp.entityId,
    entryPoint: idp.ssoUrl,
    idpCert: idp.certificates,
    generateUniqueId: () => requestId,
    // The IdP chooses the NameID format and the authentication context its admin set up for this app:
    // asking for one it is not set up for makes IdPs such as Entra refuse the sign-in.
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    authnRequestBinding: "HTTP-Redirect",
    ...(sp.signingKey ? { privateKey: sp.signingKey.privateKeyPem, signatureAlgorithm: "sha256" as const } : {}),
  });
  const redirectUrl = await saml.getAuthorizeUrlAsync(options.relayState, undefined, {});
  return { redirectUrl, requestId };
}
