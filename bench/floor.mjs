// The floor of a JWT session check: the least work any handler must do to answer GET /session securely
// on Node, with nothing of a library around it. It is measured next to ours so that the ratio says how
// much of our time is the library rather than the cryptography and the Request/Response objects every
// handler pays for. The key is derived once (as any handler would cache it); per call it reads the
// cookie, checks the A256CBC-HS512 tag (HMAC-SHA-512 over AAD ‖ IV ‖ ciphertext ‖ AL, first 32 bytes, in
// constant time), decrypts AES-256-CBC, parses the claims, checks `exp` and answers `Response.json`.
import { createDecipheriv, createHmac, createSecretKey, hkdfSync, timingSafeEqual } from "node:crypto";

/**
 * A bare `(Request) => Promise<Response>` that answers the session of the JWE in cookie `salt`, made
 * with `secret` (Auth.js's derivation: HKDF-SHA-256, salt = cookie name), or `null` when there is none
 * or it does not verify.
 */
export function floorHandler(secret, salt) {
  const raw = Buffer.from(hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, 64));
  const macKey = createSecretKey(raw.subarray(0, 32));
  const encKey = createSecretKey(raw.subarray(32));
  const prefix = `${salt}=`;

  function claimsOf(token) {
    const parts = token.split(".");
    if (parts.length !== 5) return null;
    const [header, , ivPart, ciphertextPart, tagPart] = parts;
    const iv = Buffer.from(ivPart, "base64url");
    const ciphertext = Buffer.from(ciphertextPart, "base64url");
    const tag = Buffer.from(tagPart, "base64url");
    const aad = Buffer.from(header, "latin1");
    const al = Buffer.alloc(8);
    al.writeBigUInt64BE(BigInt(aad.length * 8));
    const expected = createHmac("sha512", macKey).update(aad).update(iv).update(ciphertext).update(al).digest().subarray(0, 32);
    if (tag.length !== 32 || !timingSafeEqual(tag, expected)) return null;
    const decipher = createDecipheriv("aes-256-cbc", encKey, iv);
    const claims = JSON.parse(Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8"));
    return typeof claims.exp === "number" && claims.exp > Date.now() / 1000 ? claims : null;
  }

  return async (request) => {
    const cookie = request.headers.get("cookie") ?? "";
    const start = cookie.indexOf(prefix);
    if (start === -1) return Response.json(null);
    const end = cookie.indexOf(";", start);
    const token = cookie.slice(start + prefix.length, end === -1 ? undefined : end);
    const claims = claimsOf(token);
    if (!claims) return Response.json(null);
    const expires = new Date(claims.exp * 1000).toISOString();
    return Response.json({ user: { name: claims.name, email: claims.email, image: claims.picture }, expires });
  };
}
