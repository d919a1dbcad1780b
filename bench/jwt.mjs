// bench/jwt: our encode/decode/getToken next to @auth/core/jwt and plain jose with a pre-derived key.
// Run: npm run build && node bench/jwt.mjs
import { decode as refDecode, encode as refEncode, getToken as refGetToken } from "@auth/core/jwt";
import { decode, encode, getToken } from "@authlib/core/jwt";
import { hkdf } from "@panva/hkdf";
import { EncryptJWT, jwtDecrypt } from "jose";
import { compare } from "./measure.mjs";

const secret = "bench-secret-0123456789abcdef0123456789";
const salt = "authlib.session-token";
const payload = { sub: "user-1", name: "Ada Lovelace", email: "ada@example.com", picture: "https://example.com/a.png" };

const token = await encode({ token: payload, secret, salt });
const key = await hkdf("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, 64);
const req = { headers: { cookie: `${salt}=${token}` } };

await compare(
  "decode",
  {
    "@auth/core decode (reference)": () => refDecode({ token, secret, salt }),
    "authlib decode": () => decode({ token, secret, salt }),
    "jose jwtDecrypt, pre-derived key": () => jwtDecrypt(token, key, { clockTolerance: 15 }),
  },
  { baseline: "@auth/core decode (reference)" },
);

await compare(
  "encode",
  {
    "@auth/core encode (reference)": () => refEncode({ token: payload, secret, salt }),
    "authlib encode": () => encode({ token: payload, secret, salt }),
    "jose EncryptJWT, pre-derived key": () =>
      new EncryptJWT(payload).setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" }).setIssuedAt().setExpirationTime("30d").encrypt(key),
  },
  { baseline: "@auth/core encode (reference)" },
);

await compare(
  "getToken (cookie)",
  {
    "@auth/core getToken (reference)": () => refGetToken({ req, secret, salt, cookieName: salt }),
    "authlib getToken": () => getToken({ req, secret, salt, cookieName: salt }),
  },
  { baseline: "@auth/core getToken (reference)" },
);
