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
 * Builds the redirect to the IdP for a new sign-in. `relayState` comes back with the response (the feature
 * keeps there what it needs to finish, never a secret). Throws `SamlLibraryMissing` when
 * `@node-saml/node-saml` is not installed.
 */
export async function samlSignInRequest(
  settings: SamlConnectionSettings,
  options: { relayState: string },
): Promise<{ redirectUrl: string; requestId: string }> {
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
