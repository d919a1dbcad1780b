/**
 * A software WebAuthn authenticator for tests that need no browser: it answers registration and
 * authentication options with the JSON `@simplewebauthn/browser` would post (ES256 key pair, "none"
 * attestation, discoverable credentials, a signature counter that goes up by one per assertion).
 *
 * Knobs make the answers wrong on purpose: another `origin` in the client data, no user verification,
 * a signature counter reset, or a credential picked explicitly.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

/** A credential held by the authenticator. */
export interface SoftCredential {
  /** base64url */
  id: string;
  rpId: string;
  userHandle: string;
  keyPair: CryptoKeyPair;
  counter: number;
}

/** What a single answer may get wrong on purpose. */
export interface AnswerOverrides {
  origin?: string;
  userVerified?: boolean;
  /** The credential to use (default: the first allowed one, else the first for the RP). */
  credential?: SoftCredential;
  /** Sets the counter before signing (e.g. to replay an old value). */
  counter?: number;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function uint32(value: number): Uint8Array {
  return new Uint8Array([(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);
}

/** A DER INTEGER from an unsigned big-endian number. */
function derInteger(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.slice(start);
  const body = (trimmed[0] as number) & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed;
  return concat(new Uint8Array([0x02, body.length]), body);
}

/** WebCrypto's raw r||s ECDSA signature as the DER sequence WebAuthn uses. */
function toDerSignature(raw: Uint8Array): Uint8Array<ArrayBuffer> {
  const body = concat(derInteger(raw.slice(0, 32)), derInteger(raw.slice(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

function clientData(type: string, challenge: string, origin: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

/** The software authenticator. */
export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  /** @param origin the origin the "browser" reports in the client data. */
  constructor(readonly origin: string) {}

  /** Answers `navigator.credentials.create()`. */
  async register(options: PublicKeyCredentialCreationOptionsJSON, overrides: AnswerOverrides = {}): Promise<RegistrationResponseJSON> {
    const keyPair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const idBytes = crypto.getRandomValues(new Uint8Array(16));
    const credential: SoftCredential = {
      id: isoBase64URL.fromBuffer(idBytes),
      rpId: options.rp.id ?? "",
      userHandle: options.user.id,
      keyPair,
      counter: 0,
    };
    const jwk = await crypto.subtle.exportKey("jwk", keyPair.publicKey);
    const cosePublicKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, isoBase64URL.toBuffer(jwk.x as string)],
        [-3, isoBase64URL.toBuffer(jwk.y as string)],
      ]),
    );
    const flags = FLAG_UP | FLAG_AT | ((overrides.userVerified ?? true) ? FLAG_UV : 0);
    const authData = concat(
      await sha256(new TextEncoder().encode(credential.rpId)),
      new Uint8Array([flags]),
      uint32(0),
      new Uint8Array(16),
      new Uint8Array([0, idBytes.length]),
      idBytes,
      cosePublicKey,
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, never>>([
        ["fmt", "none"],
        ["attStmt", new Map<string, never>()],
        ["authData", authData],
      ]),
    );
    this.credentials.push(credential);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(clientData("webauthn.create", options.challenge, overrides.origin ?? this.origin)),
        attestationObject: isoBase64URL.fromBuffer(attestationObject),
        transports: ["internal"],
      },
    };
  }

  /** Answers `navigator.credentials.get()`. */
  async authenticate(options: PublicKeyCredentialRequestOptionsJSON, overrides: AnswerOverrides = {}): Promise<AuthenticationResponseJSON> {
    const allowed = (options.allowCredentials ?? []).map((c) => c.id);
    const credential =
      overrides.credential ?? this.credentials.find((c) => c.rpId === options.rpId && (allowed.length === 0 || allowed.includes(c.id)));
    if (!credential) throw new Error("SoftAuthenticator: no credential for these options.");
    credential.counter = overrides.counter ?? credential.counter + 1;
    const flags = FLAG_UP | ((overrides.userVerified ?? true) ? FLAG_UV : 0);
    const authData = concat(await sha256(new TextEncoder().encode(credential.rpId)), new Uint8Array([flags]), uint32(credential.counter));
    const clientDataJSON = clientData("webauthn.get", options.challenge, overrides.origin ?? this.origin);
    const signed = concat(authData, await sha256(clientDataJSON));
    const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, credential.keyPair.privateKey, signed));
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(clientDataJSON),
        authenticatorData: isoBase64URL.fromBuffer(authData),
        signature: isoBase64URL.fromBuffer(toDerSignature(raw)),
        userHandle: credential.userHandle,
      },
    };
  }
}
