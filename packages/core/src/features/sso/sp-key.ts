/**
 * The service provider's signing key of a SAML connection: an RSA key (RSASSA-PKCS1-v1_5, SHA-256, what
 * every SAML identity provider verifies) and its self-signed certificate, made with WebCrypto and
 * `@peculiar/x509` (every runtime), one per connection so that a connection's metadata never names another's.
 *
 * @module features/sso/sp-key
 */

/** A new key pair: the private key as PKCS#8 PEM (to be encrypted before it is stored), the certificate as PEM. */
export async function newSpKeyPair(commonName: string): Promise<{ privateKey: string; certificate: string }> {
  // @peculiar/x509 needs a Reflect metadata polyfill loaded first (its README): reflect-metadata.
  await import("reflect-metadata");
  const x509 = await import("@peculiar/x509");
  const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256", publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
  const keys = (await crypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as CryptoKeyPair;
  const now = new Date();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join(""),
    // A common name of the form `CN=…`: the connection's name is no part of it (no escaping to get wrong).
    name: `CN=${commonName}`,
    notBefore: now,
    // Ten years: identity providers pin this certificate, and a rotation is the admin's to schedule.
    notAfter: new Date(now.valueOf() + 10 * 365 * 24 * 3600 * 1000),
    signingAlgorithm: algorithm,
    keys,
  });
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", keys.privateKey));
  const body = btoa(String.fromCharCode(...pkcs8)).replace(/.{64}/g, "$&\n");
  return {
    privateKey: `-----BEGIN PRIVATE KEY-----\n${body.trimEnd()}\n-----END PRIVATE KEY-----\n`,
    certificate: certificate.toString("pem"),
  };
}
