/**
 * The issuer's public keys, as a jose key resolver. A remote key set is made once per JWKS URL and kept
 * for the life of the process (module level), so the request path fetches nothing: jose refetches only
 * for a key id it does not know, at most once per cooldown, or when its copy is older than its cache age.
 *
 * @module resource/keys
 */
import { createLocalJWKSet, createRemoteJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import type { ProtectResourceOptions } from "./types.js";

/** The remote key sets, by JWKS URL. Bounded: the options name them, not the requests; the bound is a safety net. */
const remoteSets = new Map<string, JWTVerifyGetKey>();
const MAX_REMOTE_SETS = 100;

/** The local key sets made from the JWK Sets given in the options, by the object. */
const localSets = new WeakMap<JSONWebKeySet, JWTVerifyGetKey>();

/** The default JWKS URL of an issuer: `<issuer>/oauth2/jwks`. */
export function defaultJwksUri(issuer: string): string {
  return `${issuer.replace(/\/+$/, "")}/oauth2/jwks`;
}

/** The key set fetched from `url`, made on first use and kept. */
export function remoteKeySet(url: string): JWTVerifyGetKey {
  let set = remoteSets.get(url);
  if (set === undefined) {
    if (remoteSets.size >= MAX_REMOTE_SETS) remoteSets.delete(remoteSets.keys().next().value as string);
    set = createRemoteJWKSet(new URL(url));
    remoteSets.set(url, set);
  }
  return set;
}

/** The key resolver of the options: the given key set or resolver, else the remote set of `jwksUri`. */
export function keyResolver(options: Pick<ProtectResourceOptions, "issuer" | "jwks" | "jwksUri">): JWTVerifyGetKey {
  const { jwks } = options;
  if (typeof jwks === "function") return jwks;
  if (jwks !== undefined) {
    let set = localSets.get(jwks);
    if (set === undefined) {
      set = createLocalJWKSet(jwks);
      localSets.set(jwks, set);
    }
    return set;
  }
  return remoteKeySet(options.jwksUri ?? defaultJwksUri(options.issuer));
}
