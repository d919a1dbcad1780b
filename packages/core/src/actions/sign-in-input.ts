/**
 * The typed input of the spec's sign-in routes: `signin/:provider` (and the sign-in form), the callbacks
 * (GET and POST `callback/:provider`) and the passkey options. Each is parsed once by the pipeline, from a
 * form post, a JSON body, a query or the object given to `auth.api`, so the handlers never read
 * `request.body` or `request.query`.
 *
 * One schema serves every provider type of a route (the schema runs before the provider's type is
 * known): a field another type does not use is absent. The fields the routes always checked themselves
 * (an email address, a mailed code, a passkey's response, an app's credential fields) are handed on as
 * they came, so their refusals stay the ones they always were (`InvalidEmailAddress`, `Verification`,
 * `CredentialsSignin`, `WebAuthnVerificationError`).
 *
 * @module actions/sign-in-input
 */
import { type FieldParser, field, inputSchema } from "../http/input.js";
import type { RequestInternal } from "../types/internal.js";
import type { InputOf } from "../types/operation.js";

/** A protocol parameter's value: at most as long as a whole body may be (the routes never had a limit of their own). */
const PROTOCOL_VALUE_MAX = 64 * 1024;

/** The fields of authlib's own forms, never a provider's or an app's (`csrfToken`, `callbackUrl`). */
export const FORM_FIELDS = ["csrfToken", "callbackUrl"] as const;

/** A text the route checks itself: the string given, or `undefined` for anything else (as the routes always read it). */
const text: FieldParser<string | undefined> = (value) => (typeof value === "string" ? value : undefined);

/** Linking (OAuth/OIDC): the form's `link=true`, or `true` from `auth.api`; anything else is a plain sign-in. */
const linkFlag: FieldParser<boolean> = (value) => value === true || value === "true";

/** POST `signin/:provider` (and the sign-in form): the address of an email sign-in, linking, the authorization parameters. */
export const signInInput = inputSchema({
  link: linkFlag,
  email: text,
  /** Extra parameters of an OAuth/OIDC authorization request (`prompt`, `login_hint`, …). */
  authorizationParams: field.optional(field.record(field.string({ max: PROTOCOL_VALUE_MAX }))),
});

/** The parsed input of a sign-in. */
export type SignInFields = InputOf<typeof signInInput>;

/**
 * A sign-in's fields over HTTP: its form (or JSON body), with the authorization parameters from the query
 * of its URL (Auth.js's `signIn(provider, options, authorizationParams)` puts them there), but `callbackUrl`.
 */
export function signInHttpFields(request: RequestInternal): object {
  const { callbackUrl: _callbackUrl, ...authorizationParams } = request.query;
  return { ...request.body, authorizationParams };
}

/** GET `callback/:provider`: an OAuth/OIDC response's parameters (all of the query), or an email link's address and token. */
export const callbackInput = inputSchema({
  params: field.rest(field.string({ max: PROTOCOL_VALUE_MAX })),
  email: text,
  token: text,
});

/** The parsed input of a GET callback. */
export type CallbackFields = InputOf<typeof callbackInput>;

/**
 * POST `callback/:provider`: the posted fields but the form's own (a credentials provider's fields, which
 * the app defines, or a `form_post` response's parameters), an email link's confirmation (`email`,
 * `token`) or a mailed code (`code`), a passkey's `action` and response (`data`).
 */
export const callbackPostInput = inputSchema({
  fields: field.rest(field.value(), { except: FORM_FIELDS }),
  email: text,
  token: text,
  code: field.value(),
  action: field.value(),
  data: field.value(),
});

/** The parsed input of a POST callback. */
export type CallbackPostFields = InputOf<typeof callbackPostInput>;

/**
 * GET `webauthn-options/:provider`: `action` (checked by the route, after its rate limit), a new user's
 * display `name` (`register`, signed out), the `email` whose passkeys to list (`authenticate`, with
 * `allowCredentialsForEmail`).
 */
export const webAuthnOptionsInput = inputSchema({
  action: text,
  name: text,
  email: text,
});

/** The parsed input of a passkey options request. */
export type WebAuthnOptionsFields = InputOf<typeof webAuthnOptionsInput>;
