/**
 * The SP's signing key for one SAML connection: an RSA-2048 key and a self-signed SHA-256 certificate (the
 * SP metadata publishes it; the IdP checks signed requests with it), made with WebCrypto and
 * `@peculiar/x509` so that it works on every runtime. `@peculiar/x509` 2 needs a Reflect metadata polyfill
 * (its README); it is loaded, with `reflect-metadata`, only when a key is made, so that nothing else pays for
 * the global it installs.
 *
 * @module features/sso/saml/sp-key
 */
import { SamlLibraryMissing } from "../../../errors.js";

const RSA_SHA256: RsaHashedKeyGenParams = {
  name: "RSASSA-PKCS1-v1_5",
  hash: "SHA-256",
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};

/** How long the certificate is valid. SAML peers trust it by pinning, not by date; ten years spares a rotation. */
const VALID_YEARS = 10;

/** `@peculiar/x509`, after the Reflect metadata polyfill its dependency injection needs. */
async function loadX509(): Promise<typeof import("@peculiar/x509")> {
  try {
    if (typeof (Reflect as unknown as Record<string, unknown>).getMetadata !== "function") await import("reflect-metadata");
    return await import("@peculiar/x509");
  } catch (error) {
    throw new SamlLibraryMissing(
      "Making a SAML signing key needs @peculiar/x509 and reflect-metadata: run `npm install reflect-metadata`.",
      {
        cause: error as Error,
      },
    );
  }
}

/**
 * Makes a new SP signing key: the private key (PKCS #8 PEM) and a self-signed certificate (PEM) whose subject
 * is `CN=<commonName>`.
 */
export async function newSpSigningKey(commonName: string): Promise<{ privateKeyPem: string; certificatePem: string }> {
  const x509 = await loadX509();
  const keys = (await crypto.subtle.generateKey(RSA_SHA256, true, ["sign", "verify"])) as CryptoKeyPair;
  const notBefore = new Date();
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + VALID_YEARS);
  // A positive serial: the top bit of the first byte cleared (RFC 5280, 4.1.2.2).
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0] = (serial[0] as number) & 0x7f;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Array.from(serial, (byte) => byte.toString(16).padStart(2, "0")).join(""),
    name: [{ CN: [commonName] }],
    notBefore,
    notAfter,
    signingAlgorithm: RSA_SHA256,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    ],
  });
  const pkcs8 = await crypto.subtle.exportKey("pkcs8", keys.privateKey);
  return { privateKeyPem: x509.PemConverter.encode(pkcs8, "PRIVATE KEY"), certificatePem: certificate.toString("pem") };
}
