/**
 * The keys that sign access and ID tokens (ES256), kept in the store with their private part sealed by the
 * app's secret, so that every instance signs with the same keys and publishes the same set at `jwks`.
 * The newest key signs until `retiresAt` (the `keyRotation` setting), then a new one is made; a retired
 * key stays published until every token it signed has expired (`expiresAt`), so rotation never breaks
 * a verifier. Each instance re-reads the list at most once a minute, and at once when it has no key that
 * signs: two instances that both make a key at that moment both publish theirs.
 *
 * @module features/authorization-server/keys
 */
import { randomHex } from "../../crypto/digest.js";
import { joseDecrypt, joseEncrypt } from "../../crypto/jwe-jose.js";
import type { ClientJwk, OAuthSigningKey } from "../../types/authorization-server.js";
import type { InternalOptions } from "../../types/internal.js";
import { type ServerSettings, settingsOf } from "./settings.js";
import { storeOf } from "./store.js";

const SALT = "authlib.oauth.signing-key";
/** ES256's key: ECDSA on P-256 (Web Crypto, so that no key-format code of jose joins the bundle). */
const ES256 = { name: "ECDSA", namedCurve: "P-256" } as const;
const REREAD_MS = 60_000;
/** A key outlives its last signature by the longest token it signed, and this margin (clock skew). */
const MARGIN_SECONDS = 300;

/** A key that signs: its id and its private key. */
export interface Signer {
  kid: string;
  key: CryptoKey;
}

interface KeyRing {
  keys: OAuthSigningKey[];
  readAt: number;
  signer?: { kid: string; key: Promise<CryptoKey> };
}

const rings = new WeakMap<ServerSettings, KeyRing>();

async function ringOf(options: InternalOptions): Promise<KeyRing> {
  const settings = settingsOf(options);
  let ring = rings.get(settings);
  if (!ring || Date.now() - ring.readAt > REREAD_MS) {
    const keys = await storeOf(options).listOAuthSigningKeys();
    ring = { keys, readAt: Date.now(), signer: ring?.signer };
    rings.set(settings, ring);
  }
  return ring;
}

/** The key that signs now: the newest unretired one, made (and stored) when there is none. */
export async function currentSigner(options: InternalOptions): Promise<Signer> {
  let ring = await ringOf(options);
  let key = ring.keys.find((candidate) => candidate.retiresAt.getTime() > Date.now());
  if (!key) {
    key = await newSigningKey(options);
    ring = { keys: [key, ...ring.keys], readAt: ring.readAt };
    rings.set(settingsOf(options), ring);
  }
  if (ring.signer?.kid !== key.kid) ring.signer = { kid: key.kid, key: privateKeyOf(options, key) };
  return { kid: key.kid, key: await ring.signer.key };
}

/** The public keys every verifier needs: the unexpired ones (the one that signs among them). */
export async function publishedKeys(options: InternalOptions): Promise<ClientJwk[]> {
  await currentSigner(options);
  const ring = await ringOf(options);
  return ring.keys.filter((key) => key.expiresAt.getTime() > Date.now()).map((key) => key.publicJwk);
}

async function newSigningKey(options: InternalOptions): Promise<OAuthSigningKey> {
  const { keyRotation, accessTokenMaxAge } = settingsOf(options);
  const { publicKey, privateKey } = (await crypto.subtle.generateKey(ES256, true, ["sign", "verify"])) as CryptoKeyPair;
  const kid = randomHex(16);
  const now = Date.now();
  const retiresAt = new Date(now + keyRotation * 1000);
  const expiresAt = new Date(retiresAt.getTime() + (accessTokenMaxAge + MARGIN_SECONDS) * 1000);
  const { kty, crv, x, y } = await crypto.subtle.exportKey("jwk", publicKey);
  const publicJwk: ClientJwk = { kty: kty as string, crv, x, y, kid, alg: "ES256", use: "sig" };
  const lifetime = Math.ceil((expiresAt.getTime() - now) / 1000);
  const nowSeconds = Math.floor(now / 1000);
  const sealedPrivateJwk = await joseEncrypt(
    { jwk: await crypto.subtle.exportKey("jwk", privateKey) },
    options.secret[0] as string,
    SALT,
    nowSeconds,
    lifetime,
  );
  const key: OAuthSigningKey = { kid, alg: "ES256", publicJwk, sealedPrivateJwk, createdAt: new Date(now), retiresAt, expiresAt };
  await storeOf(options).createOAuthSigningKey(key);
  return key;
}

async function privateKeyOf(options: InternalOptions, key: OAuthSigningKey): Promise<CryptoKey> {
  const { jwk } = (await joseDecrypt(key.sealedPrivateJwk, options.secret, SALT)) as { jwk: JsonWebKey };
  return crypto.subtle.importKey("jwk", jwk, ES256, false, ["sign"]);
}
