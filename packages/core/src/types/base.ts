/**
 * The shapes everything else is built from: users, sessions, accounts, profiles, the look of the pages.
 * Public through `@authlib/core/types` (which re-exports every name here), and augmentable there:
 * `declare module "@authlib/core/types" { interface Session { … } }` merges into the declarations below.
 *
 * The ground floor of the types: it imports nothing, so the provider, adapter and JWT types can build on
 * it and `types.ts` (the configuration) on all of them, without a circle.
 *
 * @module base-types
 */

/** The kinds of provider authlib supports. */
export type ProviderType = "oauth" | "oidc" | "email" | "credentials" | "webauthn";

/** A value or a promise of it. */
export type Awaitable<T> = T | PromiseLike<T>;

/** RFC 9396 authorization details, as returned in a token response. */
export interface AuthorizationDetails {
  type: string;
  [parameter: string]: unknown;
}

/** The user, as returned by a provider's `profile()` or a credentials `authorize()`. */
export interface User {
  id?: string;
  name?: string | null;
  email?: string | null;
  image?: string | null;
  /**
   * When `email` was proven (email link, or a provider vouching for it), or `null` when it was not. Set on
   * the user authlib passes to the `signIn` and `jwt` callbacks at sign-in; not in the session unless the
   * app puts it there (see SECURITY.md, "Identity").
   */
  emailVerified?: Date | null;
}

/** How a session was signed in to (`session/assurance.ts`). */
export interface SessionAssurance {
  /** When the user signed in (completed every factor), in seconds since the epoch. */
  authTime: number;
  /** The methods of the sign-in, in the order they were used (see {@link DefaultSession.amr}). */
  amr: string[];
  /** 1: one factor; 2: two factors, or a passkey that verified its user. */
  aal: 1 | 2;
  /**
   * Set while an operator acts as the user (`impersonateUser`): the operator's user id (RFC 8693's `act`
   * claim). Such a session is never the owner present, and reaches no admin operation.
   */
  act?: SessionActor;
  /**
   * Set when the session was signed in to through an enterprise SSO connection (`amr` `sso`): its
   * organization and connection. An organization's SSO-only policy counts only its own.
   */
  sso?: SessionSso;
}

/** The enterprise SSO connection a session was signed in through, and its organization. */
export interface SessionSso {
  organizationId: string;
  connectionId: string;
}

/**
 * Who acts in a session on the user's behalf (RFC 8693's `act` claim): an operator's user id, and when
 * the acting ends. Set only by `impersonateUser`; never by the client.
 */
export interface SessionActor {
  /** The operator's (admin's) user id. */
  sub: string;
  /** When the impersonated session ends, in seconds since the epoch (`admin.impersonation.maxAge` after it began). */
  exp: number;
}

/** The operator acting as the user in an impersonated session, as `getSession` shows it. */
export interface SessionImpersonator {
  /** The operator's user id. */
  id: string;
  /** The operator's name, when the store knows it. */
  name?: string | null;
  /** The operator's email, when the store knows it. */
  email?: string | null;
}

/** The session the client sees, before any app augmentation. */
export interface DefaultSession {
  user?: User;
  /** The organization the session acts in (`setActiveOrganization`), while the user is a member of it. */
  activeOrganizationId?: string;
  /** The user's role in the active organization, as last read (within the session-control bound). */
  activeOrganizationRole?: string;
  /** When the session expires, as an ISO 8601 string. */
  expires: string;
  /** When the user signed in (completed every factor), in seconds since the epoch; absent for a session from before authlib kept it. */
  authTime?: number;
  /**
   * The methods of the sign-in, in order: `pwd`, `email`, `fed` (OAuth/OIDC), `hwk` (a passkey), `sso` (enterprise SSO), then the
   * second factor's `otp` (a one-time code of an app) or `recovery` (a single-use backup code) or `hwk`.
   */
  amr?: string[];
  /** The assurance level: 1 for one factor, 2 for two factors or a passkey that verified its user. */
  aal?: 1 | 2;
  /**
   * Set while an admin acts as the user (`impersonateUser`, docs/admin.md "Impersonation"): the admin's id
   * and when the acting ends. Such a session cannot change how the user signs in, nor reach admin operations.
   */
  act?: SessionActor;
  /** The enterprise SSO connection the session was signed in through (`amr` `sso`), and its organization. */
  sso?: SessionSso;
  /** The admin acting as the user, with their name and email when the store knows them; absent otherwise. An app shows it (a banner). */
  impersonator?: SessionImpersonator;
}

/** The session the client sees. Extend it by module augmentation. */
export interface Session extends DefaultSession {}

/** An account: the link between a user and a provider, with the provider's token response. */
export interface Account {
  provider: string;
  providerAccountId: string;
  type: ProviderType;
  userId?: string;
  access_token?: string;
  authorization_details?: AuthorizationDetails[];
  /** Lifetime of the access token in seconds, from the token response. */
  expires_in?: number;
  /** Absolute expiry of the access token, in seconds since the epoch (computed from `expires_in`). */
  expires_at?: number;
  id_token?: string;
  refresh_token?: string;
  scope?: string;
  /** Always lower case. */
  token_type?: Lowercase<string>;
  [key: string]: unknown;
}

/** The user info of an OAuth provider: OpenID Connect standard claims, plus any other claim. */
export interface Profile {
  id?: string | null;
  sub?: string | null;
  name?: string | null;
  given_name?: string | null;
  family_name?: string | null;
  middle_name?: string | null;
  nickname?: string | null;
  preferred_username?: string | null;
  profile?: string | null;
  picture?: any;
  website?: string | null;
  email?: string | null;
  email_verified?: boolean | null;
  gender?: string | null;
  birthdate?: string | null;
  zoneinfo?: string | null;
  locale?: string | null;
  phone_number?: string | null;
  updated_at?: Date | number | string | null;
  address?: {
    formatted?: string | null;
    street_address?: string | null;
    locality?: string | null;
    region?: string | null;
    postal_code?: string | null;
    country?: string | null;
  } | null;
  [claim: string]: unknown;
}

/** Look of the built-in pages. */
export interface Theme {
  colorScheme?: "auto" | "dark" | "light";
  /** URL of a logo. Use a same-origin path or a data URL so the pages work offline. */
  logo?: string;
  /** A CSS colour for buttons and links. */
  brandColor?: string;
  /** Colour of text on the brand colour. */
  buttonText?: string;
}

/** How a client authenticates at a token endpoint: a provider's client at its provider's, a client of authlib's authorization server at authlib's. */
export type ClientAuthMethod = "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
