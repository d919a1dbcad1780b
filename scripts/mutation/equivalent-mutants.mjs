// biome-ignore-all lint/suspicious/noTemplateCurlyInString: an anchor is a line of TypeScript source, template literals included
/**
 * Equivalent mutants: the mutants StrykerJS makes that no test can kill because they do not change what
 * the code does, each with the reason it is equivalent. The reasons live here, with the mutation tooling,
 * not in the product's source.
 *
 * An entry names a source `file`, an `anchor` (the exact text of one line of it, trimmed: it must occur
 * there exactly once, see packages/core/test/structure/mutation-notes.test.ts) and the `mutators` whose mutants on
 * that line are equivalent. The ignorer plugin (./equivalent-ignorer.mjs, named in stryker.config.mjs)
 * applies them: Stryker reports those mutants as Ignored with the reason, exactly as a
 * `// Stryker disable next-line <mutators>: <reason>` comment above the line would.
 *
 * An entry with `inline: true` is applied by a short comment in the source instead (its line is not
 * unique, or it covers a range of lines): `// Stryker disable … (see mutation notes: <key>)`, found by its
 * `key`.
 */

/**
 * @typedef {{ file: string, mutators: string[], reason: string } & ({ anchor: string } | { inline: true, key: string })} EquivalentMutant
 */

/** @type {EquivalentMutant[]} */
export const equivalentMutants = [
  {
    file: "packages/core/src/features/sso/saml/signature.ts",
    anchor: 'wantAuthnResponseSigned: settings.signatureOn !== "assertion",',
    mutators: ["ConditionalExpression", "EqualityOperator"],
    reason:
      "equivalent from outside: where the connection requires a signed Response, verifiedResponse checks its signature again (getVerifiedXml) and refuses it with the same reason, so node-saml's own demand changes no answer",
  },
  {
    file: "packages/core/src/features/sso/saml/signature.ts",
    anchor: 'if (!assertionXml) throw new SamlResponseRejected("signature", "The SAML response carries no signed assertion.");',
    mutators: ["StringLiteral", "ConditionalExpression", "BooleanLiteral"],
    reason:
      "equivalent, unreachable: node-saml's validatePostResponseAsync resolves only with a profile read from a verified assertion (it throws otherwise, refused above); the guard keeps the type",
  },
  {
    file: "packages/core/src/features/account/page-routes.ts",
    anchor: 'const token = request.query.token ?? "";',
    mutators: ["StringLiteral"],
    reason: "equivalent, a missing token is refused (Verification) by liveEmailChangeLink before it is used below",
  },
  {
    file: "packages/core/src/actions/callback.ts",
    anchor: 'if (!isOAuthProvider(provider)) throw new InvalidProvider(`The provider "${provider.id}" is not an OAuth provider.`);',
    mutators: ["StringLiteral"],
    reason:
      "equivalent, unreachable: only the oauth and oidc entries of `callbacks` call this, so the guard (kept for the type narrowing) never throws",
  },
  {
    file: "packages/core/src/actions/email.ts",
    anchor: 'const HASH_LABEL = "authlib.verification-token:";',
    mutators: ["StringLiteral"],
    reason:
      "equivalent, the label only separates this HMAC's domain from the CSRF token's (which has its own label); no caller sees the stored hash",
  },
  {
    file: "packages/core/src/actions/email.ts",
    anchor: "await Promise.resolve(store.useVerificationToken({ identifier, token: hashed })).catch(() => null);",
    mutators: ["ArrowFunction"],
    reason:
      "equivalent, the clean-up's result is discarded (`null` or `undefined` alike); only that a failed clean-up never replaces the send failure matters",
  },
  {
    file: "packages/core/src/actions/email.ts",
    anchor: "if (!invite || expired || invite.identifier !== link.identifier) {",
    mutators: ["ConditionalExpression"],
    reason: "equivalent with every adapter, which finds a token by identifier and hash; kept for an adapter that would not",
  },
  {
    file: "packages/core/src/webauthn/routes.ts",
    anchor: 'const provider = request.providerId ?? "webauthn";',
    mutators: ["StringLiteral"],
    reason:
      "equivalent, the fallback is never used: this handler is reached only through /callback/:provider with a configured provider id",
  },
  {
    file: "packages/core/src/crypto/builtin.ts",
    inline: true,
    key: "builtin-catch",
    mutators: ["BlockStatement"],
    reason:
      "equivalent for the catch block, an empty one returns undefined as well (a next-line comment cannot reach a catch clause; restored right after this function)",
  },
  {
    file: "packages/core/src/crypto/concurrency-gate.ts",
    anchor: "if (this.#running < this.maxRunning && this.load.queued === 0) return this.#start(task);",
    mutators: ["ConditionalExpression"],
    reason:
      "equivalent, a free slot never coexists with waiting tasks (every slot freed or added starts them synchronously in #startWaiting), so queued === 0 whenever running < maxRunning",
  },
  {
    file: "packages/core/src/crypto/concurrency-gate.ts",
    anchor: "if (this.#head === this.#queue.length) {",
    mutators: ["ConditionalExpression", "BlockStatement"],
    reason: "equivalent, resetting the drained queue only frees memory; load and order are computed from length − head either way",
  },
  {
    file: "packages/core/src/crypto/digest.ts",
    anchor: 'crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]),',
    mutators: ["BooleanLiteral"],
    reason: "equivalent, the key stays in this module's cache and is never exported, so whether it could be is not observable",
  },
  {
    file: "packages/core/src/crypto/jwe-jose.ts",
    anchor: "if (!isSupportedEncryption(enc)) throw new JWTSessionError(`Unsupported content encryption: ${String(enc)}`);",
    mutators: ["StringLiteral"],
    reason: "equivalent, unreachable: jwtDecrypt refuses an enc outside contentEncryptionAlgorithms before it calls this resolver",
  },
  {
    file: "packages/core/src/crypto/jwe-node.ts",
    anchor: 'if (!nc.timingSafeEqual(tag, cbcTag(nc, key.mac, aad, iv, ciphertext, aadLength))) throw rejected("bad tag");',
    mutators: ["StringLiteral"],
    reason: 'equivalent, thrown inside the try below, whose catch replaces it with "decryption failed"; the reason never leaves',
  },
  {
    file: "packages/core/src/crypto/jwe-node.ts",
    anchor: 'const decipher = nc.createDecipheriv("aes-256-gcm", key.cipher, iv, { authTagLength: 16 });',
    mutators: ["ObjectLiteral"],
    reason: "equivalent, checkParts has already required a 16-byte tag, which is also node's default GCM tag length",
  },
  {
    file: "packages/core/src/crypto/jwe-node.ts",
    anchor: 'const usable = nc && buffer && typeof nc.hkdfSync === "function" && typeof nc.createSecretKey === "function";',
    mutators: ["ConditionalExpression"],
    reason:
      "equivalent for the hkdfSync/createSecretKey checks, a codec built without them throws a TypeError in its self-test, which refuses it the same",
  },
  {
    file: "packages/core/src/crypto/jwe-rules.ts",
    anchor: 'if (typeof value !== "object" || value === null || Object.prototype.toString.call(value) !== "[object Object]") return false;',
    mutators: ["ConditionalExpression"],
    reason: 'equivalent for value === null, Object.prototype.toString gives "[object Null]" for null, refused by the next test',
  },
  {
    file: "packages/core/src/crypto/jwe-rules.ts",
    anchor: "for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);",
    mutators: ["EqualityOperator"],
    reason: "equivalent, index a.length is past both arrays (their lengths are equal here), undefined ^ undefined is 0",
  },
  {
    file: "packages/core/src/crypto/jwe-rules.ts",
    anchor: 'if (!isPlainObject(token) || typeof maxAge !== "number" || !Number.isFinite(maxAge)) return false;',
    mutators: ["ConditionalExpression"],
    reason: "equivalent for the typeof check, Number.isFinite is false for every non-number, refused by the next test",
  },
  {
    file: "packages/core/src/crypto/jwe-webcrypto.ts",
    anchor: 'return { kid, header, cipher: await crypto.subtle.importKey("raw", key, "AES-GCM", false, ["encrypt", "decrypt"]) };',
    mutators: ["BooleanLiteral"],
    reason: "equivalent, the CryptoKey stays in this module's cache and is never exported",
  },
  {
    file: "packages/core/src/crypto/jwe-webcrypto.ts",
    anchor: 'crypto.subtle.importKey("raw", key.subarray(0, 32), { name: "HMAC", hash: "SHA-512" }, false, ["sign"]),',
    mutators: ["BooleanLiteral"],
    reason: "equivalent, the CryptoKey stays in this module's cache and is never exported",
  },
  {
    file: "packages/core/src/crypto/jwe-webcrypto.ts",
    anchor: 'crypto.subtle.importKey("raw", key.subarray(32), "AES-CBC", false, ["encrypt", "decrypt"]),',
    mutators: ["BooleanLiteral"],
    reason: "equivalent, the CryptoKey stays in this module's cache and is never exported",
  },
  {
    file: "packages/core/src/crypto/jwe-webcrypto.ts",
    anchor: 'if (!bytesEqual(tag, await cbcTag(key.mac, aad, iv, ciphertext))) throw rejected("bad tag");',
    mutators: ["StringLiteral"],
    reason: 'equivalent, thrown inside the try below, whose catch replaces it with "decryption failed"; the reason never leaves',
  },
  {
    file: "packages/core/src/crypto/password-hash.ts",
    anchor: "for (let i = 0; i < KEY_LENGTH; i++) diff |= (actual[i] as number) ^ (expected[i] as number);",
    mutators: ["EqualityOperator"],
    reason:
      "equivalent, index KEY_LENGTH is past both keys (the derived key and the checked 64-byte expected key), undefined ^ undefined is 0",
  },
  {
    file: "packages/core/src/email/mail-service.ts",
    anchor: 'const name = match[1]?.replace(/^"(.*)"$/, "$1");',
    mutators: ["OptionalChaining"],
    reason: "equivalent, group 1 (.*?) always takes part in a match, so match[1] is always a string",
  },
  {
    file: "packages/core/src/address/normalize.ts",
    anchor: 'const [local = "", domain = ""] = parts;',
    mutators: ["StringLiteral"],
    reason: "equivalent, the defaults are never used (exactly two parts, checked above); they only type the parts as strings",
  },
  {
    file: "packages/core/src/address/normalize.ts",
    anchor: 'if (/^\\d+$/.test(labels[labels.length - 1] as string)) throw new InvalidEmailAddress("Invalid email domain.");',
    mutators: ["all"],
    reason: "unreachable with a WHATWG URL parser, to which a numeric last label is an IPv4 address (refused above); kept for a laxer one",
  },
  {
    file: "packages/core/src/http/csrf.ts",
    anchor: "if (token && mac) {",
    mutators: ["ConditionalExpression", "LogicalOperator"],
    reason:
      "equivalent, a cookie without both parts never has a valid MAC (only the secret makes one, and authlib never writes an empty token); this spares the HMAC",
  },
  {
    file: "packages/core/src/http/csrf.ts",
    anchor: 'if (request.method !== "POST") return { token, verified: false };',
    mutators: ["ConditionalExpression"],
    reason: "equivalent, only a POST has a body (http/request.ts), so any other method has no token to prove",
  },
  {
    file: "packages/core/src/http/flow-binding.ts",
    anchor: 'return typeof sealed === "string" && sealed !== "" && current !== "" && timingSafeEqual(sealed, current);',
    mutators: ["ConditionalExpression", "StringLiteral"],
    reason:
      'equivalent, either emptiness check alone refuses "" (an empty string equals only an empty one), so dropping one of them changes no answer',
  },
  {
    file: "packages/core/src/http/origin.ts",
    anchor: 'const [, hostname = "", port] = match;',
    mutators: ["StringLiteral"],
    reason: "equivalent, group 1 of patternSyntax always takes part in a match, so the default is never used",
  },
  {
    file: "packages/core/src/http/origin.ts",
    anchor: 'const [first = "", ...rest] = labels;',
    mutators: ["StringLiteral"],
    reason: "equivalent, split always gives at least one label, so the default is never used",
  },
  {
    file: "packages/core/src/http/origin.ts",
    anchor: 'const [before = "", after = ""] = first.split("*");',
    mutators: ["StringLiteral"],
    reason: "equivalent, `first` holds exactly one `*` (checked above), so split gives two parts and the defaults are never used",
  },
  {
    file: "packages/core/src/http/origin.ts",
    anchor: "if (remembered.size >= MAX_REMEMBERED_HOSTS) remembered.delete(remembered.keys().next().value as string);",
    mutators: ["ConditionalExpression", "EqualityOperator"],
    reason: "equivalent, when the memo drops an entry changes only how much it remembers, never an answer",
  },
  {
    file: "packages/core/src/http/origin.ts",
    anchor: "if (new Set(protos).size !== 1 || new Set(hosts.map((h) => h.toLowerCase())).size !== 1) {",
    mutators: ["MethodExpression"],
    reason: "equivalent, upper-casing every host tells the same hosts apart as lower-casing them",
  },
  {
    file: "packages/core/src/http/request.ts",
    anchor: 'if (method !== "GET" && request.bodyUsed) replayBodyOnDemand(internal, request, text);',
    mutators: ["ConditionalExpression"],
    reason:
      "equivalent, only a body of a method other than GET is read (`parsed`), and a GET Request cannot have one, so no GET arrives here with a used body",
  },
  {
    file: "packages/core/src/http/request.ts",
    anchor: 'const body = method !== "GET" && parts.body && typeof parts.body === "object" ? { ...parts.body } : {};',
    mutators: ["ConditionalExpression", "LogicalOperator"],
    reason:
      "equivalent, `parsed` hands on a body only for a method other than GET, and `typeof` refuses an absent body (null spreads to {})",
  },
  {
    file: "packages/core/src/http/request.ts",
    anchor: 'body: method === "GET" ? {} : await readPostBody(),',
    mutators: ["ConditionalExpression"],
    reason: "equivalent, a GET Request has no body to read, and parseRequestParts gives {} for a GET",
  },
  {
    file: "packages/core/src/http/request.ts",
    inline: true,
    key: "request-cookies-catch",
    mutators: ["BlockStatement"],
    reason: "equivalent, `cookie` 1.x never throws on a string (bad encodings are kept raw); a guard for another version",
  },
  {
    file: "packages/core/src/http/request.ts",
    anchor: 'if (!body) return "";',
    mutators: ["StringLiteral"],
    reason: "equivalent, readBody never passes a null body (it checks first); kept so the helper stands alone",
  },
  {
    file: "packages/core/src/http/request.ts",
    inline: true,
    key: "read-limited-catch",
    mutators: ["BlockStatement"],
    reason: "equivalent, an empty catch block also ends the function with undefined",
  },
  {
    file: "packages/core/src/jwt.ts",
    inline: true,
    key: "bearer-token-catch",
    mutators: ["BlockStatement"],
    reason: "equivalent, an empty catch block also ends the function with undefined",
  },
  {
    file: "packages/core/src/jwt.ts",
    anchor: 'const separator = name === "cookie" ? "; " : ", ";',
    mutators: ["ConditionalExpression", "StringLiteral"],
    reason:
      "equivalent, only `cookie` and `authorization` are read, and a joined Authorization is never one Bearer token, whatever the separator",
  },
  {
    file: "packages/core/src/pages/account.tsx",
    anchor: "<li key={`${account.provider}:${account.providerAccountId}`}>",
    mutators: ["StringLiteral"],
    reason: "equivalent, a key only guides Preact's reconciliation; rendering to a string never writes it",
  },
  {
    file: "packages/core/src/features/password/sign-in.ts",
    anchor: "} catch {",
    mutators: ["BlockStatement"],
    reason: "equivalent, an empty catch returns undefined too",
  },
  {
    file: "packages/core/src/features/password/sign-in.ts",
    anchor: 'const matches = await matchesHash(tooLong ? "" : password, hash);',
    mutators: ["StringLiteral"],
    reason: "equivalent, a password too long is refused below whatever text is verified",
  },
  {
    file: "packages/core/src/sign-in/link-tokens.ts",
    anchor: 'const readable = typeof token === "string" && token.length <= MAX_TOKEN_LENGTH;',
    mutators: ["EqualityOperator"],
    reason: "equivalent, no token of ours is near the bound, and a longer string fails to decrypt anyway",
  },
  {
    file: "packages/core/src/sign-in/link-tokens.ts",
    anchor: 'return hmacHex(options.secret[0] as string, `authlib.password-fingerprint:${hash ?? "none"}`);',
    mutators: ["StringLiteral"],
    reason: 'equivalent, any text no scrypt hash can be stands for "no password"',
  },
  {
    file: "packages/core/src/rate-limit/client-address.ts",
    anchor: 'const groups = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill("0"), ...tail];',
    mutators: ["ConditionalExpression"],
    reason: 'equivalent, without "::" the check above let only missing === 0 through, so Array(missing) is Array(0) there too',
  },
  {
    file: "packages/core/src/rate-limit/client-address.ts",
    anchor: 'if (!withoutZone.includes(":")) return trimmed;',
    mutators: ["StringLiteral"],
    reason:
      'equivalent, includes("") only sends every address through ipv6Groups, which refuses one without ":" (at most two groups, never eight), and that returns it as given too',
  },
  {
    file: "packages/core/src/rate-limit/device-token.ts",
    anchor: "if (!cookieValue) return [];",
    mutators: ["ArrayDeclaration"],
    reason: "equivalent, both callers skip every entry matchToken refuses, and it refuses the mutant's one entry",
  },
  {
    file: "packages/core/src/rate-limit/device-token.ts",
    anchor: "if (tokens.length === 0) return undefined;",
    mutators: ["ConditionalExpression"],
    reason: "equivalent, the loops below find nothing in no tokens and return undefined; this only spares the HMAC of the account tag",
  },
  {
    file: "packages/core/src/rate-limit/store.ts",
    inline: true,
    key: "weighted-windows-drop",
    mutators: ["OptionalChaining"],
    reason: "equivalent, every entry in `windows` was filed, so its class's map exists (the `?.` is for the index type)",
  },
  {
    file: "packages/core/src/rate-limit/store.ts",
    anchor: "const head = bucket?.entries().next().value;",
    mutators: ["OptionalChaining"],
    reason:
      "equivalent, `classes` has no holes: a count grows by one from 1, so a key is filed in every class below its own (weightOf is the whole log2)",
  },
  {
    file: "packages/core/src/kernel/request-context.ts",
    anchor: 'let csrfToken = "";',
    mutators: ["StringLiteral"],
    reason: "equivalent, every route that reads csrfToken (forms, the callback-URL cookie) declares a csrf need, which replaces this value",
  },
  {
    file: "packages/core/src/session/assurance-cookie.ts",
    anchor: "if (!value) return {};",
    mutators: ["ConditionalExpression"],
    reason: "equivalent, a missing or empty value does not decode (decode throws, caught below): the check only skips that work",
  },
  {
    file: "packages/core/src/session/database.ts",
    anchor: "if (!sessionToken) return { sessionToken, found: null };",
    mutators: ["ObjectLiteral"],
    reason:
      "equivalent, `{}` gives both fields as undefined, and every caller treats an undefined token or session like the empty ones returned here",
  },
  {
    file: "packages/core/src/session/json-shape.ts",
    anchor: "for (const child of Object.values(current)) if (isContainer(child)) stack.push({ value: child, depth: depth + 1 });",
    mutators: ["ConditionalExpression"],
    reason:
      "equivalent when made `true`, a primitive pushed anyway is skipped by the `isContainer` check when popped and never counted (`false`, no children walked, is asserted)",
  },
  {
    file: "packages/core/src/session/json-shape.ts",
    anchor: 'if (typeof value === "function" || typeof value === "symbol" || value === undefined) return undefined;',
    mutators: ["ConditionalExpression"],
    reason:
      "equivalent for the `value === undefined` operand, `undefined` falls through to `return value`, which is `undefined` (the function and symbol operands are asserted)",
  },
  {
    file: "packages/core/src/session/json-shape.ts",
    anchor: 'if (typeof left === "bigint" || typeof right === "bigint") return false;',
    mutators: ["LogicalOperator", "ConditionalExpression"],
    reason:
      "equivalent, a BigInt is never `===` a value of another type, so checking one side (or both) answers the same; only two equal BigInts need the check (asserted)",
  },
  {
    file: "packages/core/src/session/json-shape.ts",
    anchor: "for (let i = 0; i < left.length; i++) stack.push([jsonValue(left[i]) ?? null, jsonValue(right[i]) ?? null]);",
    mutators: ["EqualityOperator"],
    reason: "equivalent, `i <= length` compares one extra pair (undefined ?? null on both sides), which is always equal",
  },
  {
    file: "packages/core/src/session/json-shape.ts",
    anchor: "{ from: value, to: root, path: new Set([value]) },",
    mutators: ["ArrayDeclaration"],
    reason:
      "equivalent, without the root in its first path a cycle through the root is found one level later, and the answer is still undefined",
  },
  {
    file: "packages/core/src/features/two-factor/base32.ts",
    anchor: "while (bits >= 5) {",
    mutators: ["EqualityOperator"],
    reason:
      "equivalent, with `>` a full group of exactly 5 bits waits in the buffer and is written by the next byte's loop or by the tail below, in the same place",
  },
  {
    file: "packages/core/src/features/two-factor/codes.ts",
    anchor: "return 24 * 60 * 60;",
    mutators: ["ArithmeticOperator"],
    reason: "equivalent, any positive lifetime longer than the request covers the race it decides; a later use finds no hash in the list",
  },
  {
    file: "packages/core/src/features/two-factor/codes.ts",
    anchor: "for (let attempt = 0; attempt < 3; attempt++) {",
    mutators: ["EqualityOperator", "UpdateOperator"],
    reason: "equivalent, the loop ends as soon as the hash is gone, which one write does unless another request wrote at the same moment",
  },
  {
    file: "packages/core/src/features/two-factor/gate.ts",
    anchor: 'if (typeof userId !== "string" || userId === "") return undefined;',
    mutators: ["ConditionalExpression", "StringLiteral"],
    reason: "equivalent, every first factor gives a user with an id (credentials: authorize's, else a UUID; the others: the adapter's)",
  },
  {
    file: "packages/core/src/features/two-factor/pending.ts",
    anchor: "if (!token) return undefined;",
    mutators: ["ConditionalExpression"],
    reason: "equivalent, a missing token does not decode (decode throws, caught below): the check only skips that work",
  },
  {
    file: "packages/core/src/features/two-factor/second-step.ts",
    anchor: 'const passkeyRefusals = ["WebAuthnVerificationError", "InvalidCheck"];',
    mutators: ["StringLiteral"],
    reason: "a passkey's refusals are stated by two-factor-browser.test.ts (Chromium), not run per mutant",
  },
  {
    file: "packages/core/src/features/two-factor/second-step.ts",
    anchor: 'return { method: "hwk", cookies: await routes.secondFactorPasskey(options, request, pending.userId, { action, data }) };',
    mutators: ["StringLiteral"],
    reason: 'the passkey path is stated by two-factor-browser.test.ts (Chromium, amr ["pwd", "hwk"]), not run per mutant',
  },
  {
    file: "packages/core/src/features/two-factor/settings.ts",
    anchor: "await storeFactor(options, store, userId, { secret, confirmed: false, recovery: [] });",
    mutators: ["ArrayDeclaration"],
    reason:
      "equivalent, an unconfirmed factor's recovery list is never read: confirm replaces it, and the status counts only a confirmed factor's",
  },
  {
    file: "packages/core/src/features/two-factor/totp.ts",
    anchor:
      'const hmacKey = await crypto.subtle.importKey("raw", key as Uint8Array<ArrayBuffer>, { name: "HMAC", hash }, false, ["sign"]);',
    mutators: ["BooleanLiteral"],
    reason: "equivalent, the key object never leaves this function, so whether it could be exported changes nothing",
  },
  {
    file: "packages/core/src/features/organizations/organizations.ts",
    anchor: "} catch {",
    mutators: ["BlockStatement"],
    reason: "equivalent, safeJson's emptied catch block also returns undefined, which parsePolicy refuses as not an object",
  },
  {
    file: "packages/core/src/webauthn/used-challenges.ts",
    anchor: 'if (this.#expiries.size >= this.capacity) return { claimed: false, reason: "full", retryAt: this.#heap[0]?.[0] ?? now };',
    mutators: ["OptionalChaining"],
    reason:
      "equivalent, the heap is never empty here: #expiries and #heap gain and lose an entry together (claim pushes one per key set, #forgetExpired deletes one per entry popped), and a full memory holds capacity >= 1 keys",
  },
  {
    file: "packages/core/src/features/api-keys/verify.ts",
    anchor: "const value = headers.get(header)?.trim();",
    mutators: ["MethodExpression"],
    reason:
      "equivalent, `Headers.get` answers a value already stripped of leading and trailing whitespace (Fetch's header-value normalization), so `trim` changes nothing; verify.test.ts states a spaced value is read without its spaces",
  },
  {
    file: "packages/core/src/crypto/key-hash.ts",
    anchor: 'const DUMMY_HASH = "0".repeat(64);',
    mutators: ["StringLiteral"],
    reason:
      "equivalent for every answer: an unknown id is refused with or without the dummy (keyMatches answers false when nothing is stored); the dummy's 64 characters only give the constant-time comparison the length of a real hash, nanoseconds beside the HMACs that dominate a verification (the interleaved timing test in keys.test.ts measures the whole)",
  },
  {
    file: "packages/core/src/crypto/key-format.ts",
    anchor: "for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {",
    mutators: ["ArithmeticOperator"],
    reason:
      "equivalent, only the size of each batch of random bytes: the `while` loop draws batches until it has `length` characters, each byte kept or dropped by the same rule",
  },
  {
    file: "packages/core/src/features/admin/impersonation.ts",
    anchor: `if (!option) throw new TypeError("The admin feature's cookie is missing: the feature is not loaded.");`,
    mutators: ["StringLiteral"],
    reason:
      "equivalent, unreachable: the impersonation operations exist only with the admin feature, whose definition declares the cookie; the guard is kept for the type narrowing",
  },
  {
    file: "packages/core/src/features/admin/impersonation.ts",
    anchor: "} catch {",
    mutators: ["BlockStatement"],
    reason: "equivalent, the emptied catch block also ends keptAside with undefined: a cookie that does not decode keeps nothing aside",
  },
  {
    file: "packages/core/src/features/admin/impersonation.ts",
    anchor: 'return request.inProcess !== true && typeof request.body.callbackUrl === "string";',
    mutators: ["BooleanLiteral"],
    reason:
      "equivalent, auth.api's impersonation methods build the operation's input themselves (`userId` only, impersonation-api.ts), so an in-process request never carries a callbackUrl and the inProcess test never decides",
  },
  {
    file: "packages/core/src/features/sso/scim/patch-path.ts",
    anchor: "for (let i = open + 1; i < text.length; i++) {",
    mutators: ["EqualityOperator"],
    reason: "equivalent, one more turn at i === text.length reads an undefined character, which matches no branch of the loop",
  },
  {
    file: "packages/core/src/features/sso/scim/patch-path.ts",
    anchor: 'const extension = steps[0]?.startsWith("urn:") ? steps.shift() : undefined;',
    mutators: ["OptionalChaining"],
    reason:
      "equivalent, attributePath always answers at least one step (a split string), so steps[0] is never undefined; the `?.` is kept for the type",
  },
  {
    file: "packages/core/src/features/sso/scim/patch-path.ts",
    anchor: "const tail = close === -1 ? undefined : text.slice(close + 1);",
    mutators: ["UnaryOperator"],
    reason:
      "equivalent, `close === 1` means the `[` is the path's first character: the head is empty, so `steps.length !== 1` refuses it with the same message either way",
  },
  {
    file: "packages/core/src/features/sso/scim/patch-path.ts",
    anchor: 'if (close === -1 || steps.length !== 1 || !(tail === "" || tail?.startsWith(".")))',
    mutators: ["UnaryOperator"],
    reason:
      "equivalent, `close === 1` means the `[` is the path's first character: the head is empty, so `steps.length !== 1` refuses it with the same message either way",
  },
  {
    file: "packages/core/src/features/sso/scim/patch.ts",
    anchor: "if (Array.isArray(a) || Array.isArray(b))",
    mutators: ["LogicalOperator"],
    reason:
      "equivalent, with one array and one other value both ways answer false: the next line's isObject is false for an array, so `same` returns false there too",
  },
];
