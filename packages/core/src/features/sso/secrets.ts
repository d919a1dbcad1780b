/**
 * A connection's secrets at rest (the OIDC client secret, the SAML service provider's private key):
 * encrypted with jose (JWE, `dir` + A256GCM) under a key derived from the instance's secret by HKDF
 * (`crypto/derive-key.ts`, its own salt), so a copy of the table alone gives nothing. The protected header
 * names the connection and the field: a value moved to another connection, or to another field, does not
 * decrypt (the header is authenticated). The instance's older secrets still decrypt (`secret` rotation).
 *
 * @module features/sso/secrets
 */
import { compactDecrypt } from "jose/jwe/compact/decrypt";
import { CompactEncrypt } from "jose/jwe/compact/encrypt";
import { deriveEncryptionKey } from "../../crypto/derive-key.js";
import { AuthError } from "../../errors.js";

/** The HKDF salt of the secrets' key: no other key of authlib is derived with it. */
const SALT = "authlib.sso-connection-secret";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Which secret of the connection a value is: it decrypts only as that one. */
export type SecretField = "oidc.clientSecret" | "saml.spPrivateKey";

/** `value` encrypted for `field` of connection `connectionId`, with the instance's current secret. */
export async function sealSecret(secrets: readonly string[], connectionId: string, field: SecretField, value: string): Promise<string> {
  const { key, kid } = await deriveEncryptionKey("A256GCM", secrets[0] as string, SALT);
  return new CompactEncrypt(encoder.encode(value))
    .setProtectedHeader({ alg: "dir", enc: "A256GCM", kid, cid: connectionId, fld: field })
    .encrypt(key);
}

/**
 * The clear value of `sealed` for `field` of `connectionId`. An `AuthError` (the operator's: the secret
 * changed beyond its rotation, or the row was altered) when it does not decrypt as exactly that.
 */
export async function openSecret(secrets: readonly string[], connectionId: string, field: SecretField, sealed: string): Promise<string> {
  try {
    const { plaintext, protectedHeader } = await compactDecrypt(
      sealed,
      async ({ kid }) => {
        for (const candidate of secrets) {
          const derived = await deriveEncryptionKey("A256GCM", candidate, SALT);
          if (derived.kid === kid) return derived.key;
        }
        throw new Error("no secret of this instance made this value");
      },
      { keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms: ["A256GCM"] },
    );
    if (protectedHeader.cid !== connectionId || protectedHeader.fld !== field) throw new Error("sealed for another connection or field");
    return decoder.decode(plaintext);
  } catch (error) {
    throw new AuthError(
      "An SSO connection's secret could not be decrypted: the instance's `secret` no longer includes the one it was stored with, or the row was changed. Set the connection's secret again.",
      { cause: error as Error },
    );
  }
}
