/**
 * The feature list: authlib's own capabilities, each one module (`features/<name>/feature.ts`), then the
 * app's (`config.features`). The kernel names no feature anywhere else: the router takes their
 * operations from here. A feature's code loads with the first request to one of its operations.
 *
 * @module kernel/features
 */
import { coreOperations } from "../actions/operations.js";
import { accountFeature } from "../features/account/feature.js";
import { accountsFeature } from "../features/accounts/feature.js";
import { passkeysFeature } from "../features/passkeys/feature.js";
import { passwordFeature } from "../features/password/feature.js";
import { sessionsFeature } from "../features/sessions/feature.js";
import { twoFactorFeature } from "../features/two-factor/feature.js";

export type { AdminApi, ImpersonationApi, ImpersonationResult, StopImpersonationResult } from "../features/admin/feature.js";
export type { ApiKeyRateLimits, ApiKeysApi, CreatedApiKey, ListedApiKey, VerifiedApiKey } from "../features/api-keys/feature.js";
export type { AuthorizationServerApi, AuthorizationServerRateLimits, ListedGrant } from "../features/authorization-server/feature.js";
export type { CreatedScimToken, ListedScimToken, ScimApi, SsoApi } from "../features/sso/feature.js";
/** The built-in features' public types (and their additions to the shared ones), for the package's index. */
export type { TotpEnrollment, TwoFactorApi, TwoFactorRateLimits, TwoFactorStatus } from "../features/two-factor/feature.js";

import type { FeatureAudit } from "../types/audit.js";
import type { AuthConfig } from "../types/config.js";
import type { FeatureTexts, MessageKey } from "../types/i18n.js";
import type { AccountSection, OrganizationSection, OwnerOperationRule, SignInHooks, UserDetailsPart } from "../types/internal.js";
import type { ApiRunner, FeatureDefinition, OperationDeclaration } from "../types/operation.js";
import type { FeatureRateLimits } from "../types/rate-limit.js";

/** The built-in operations `auth.api` calls by name, with their typed input and data (`kernel/api.ts`). */
export { listAccounts, unlinkAccount } from "../features/accounts/feature.js";
export { defaultRoles, defineRoles, ORGANIZATION_PERMISSIONS } from "../features/organizations/public.js";
export { listPasskeys, removePasskey, renamePasskey } from "../features/passkeys/feature.js";
export { listSessions, revokeSession } from "../features/sessions/feature.js";
export {
  confirmTotp,
  disableTotp,
  enrollTotp,
  getTwoFactorStatus,
  regenerateRecoveryCodes,
  sessionAssurance,
  verifyTwoFactor,
} from "../features/two-factor/feature.js";

/** authlib's own features, in the order their routes are listed. */
export const builtInFeatures: readonly FeatureDefinition[] = [
  sessionsFeature,
  accountsFeature,
  passkeysFeature,
  passwordFeature,
  accountFeature,
  twoFactorFeature,
];

/**
 * A built-in feature whose code loads only for a configuration that turns it on (`option`), so that an
 * app without it bundles none of it: the kernel knows its option and the names of its `auth.api` methods,
 * and waits for its module before it serves such a configuration (`resolve.ts`, `ResolvedAuth.ready`).
 */
interface OnDemandFeature {
  option: "organizations" | "authorizationServer" | "admin" | "apiKeys" | "sso";
  api: readonly string[];
  load(): Promise<FeatureDefinition>;
}

export const onDemandFeatures: readonly OnDemandFeature[] = [
  {
    option: "organizations",
    api: [
      "createOrganization",
      "updateOrganization",
      "deleteOrganization",
      "listOrganizations",
      "getOrganization",
      "joinOrganization",
      "listMembers",
      "updateMemberRole",
      "removeMember",
      "leaveOrganization",
      "inviteMember",
      "listInvitations",
      "revokeInvitation",
      "acceptInvitation",
      "listDomains",
      "addDomain",
      "verifyDomain",
      "removeDomain",
      "setActiveOrganization",
      "hasPermission",
      "verifyDomains",
    ],
    load: () => import("../features/organizations/feature.js").then((module) => module.organizationsFeature),
  },
  {
    option: "authorizationServer",
    api: ["listGrants", "revokeGrant", "isGrantRevoked"],
    load: () => import("../features/authorization-server/feature.js").then((module) => module.authorizationServerFeature),
  },
  {
    option: "admin",
    api: [
      "listUsers",
      "getUser",
      "createUser",
      "updateUser",
      "setUserPassword",
      "banUser",
      "unbanUser",
      "deleteUser",
      "adminRevokeUserSessions",
      "impersonateUser",
      "stopImpersonating",
    ],
    load: () => import("../features/admin/feature.js").then((module) => module.adminFeature),
  },
  {
    option: "apiKeys",
    api: ["createApiKey", "listApiKeys", "revokeApiKey", "rotateApiKey", "verifyApiKey"],
    load: () => import("../features/api-keys/feature.js").then((module) => module.apiKeysFeature),
  },
  {
    option: "sso",
    api: [
      "createSsoConnection",
      "updateSsoConnection",
      "deleteSsoConnection",
      "listSsoConnections",
      "ssoDiscover",
      "createScimToken",
      "listScimTokens",
      "revokeScimToken",
    ],
    load: () => import("../features/sso/feature.js").then((module) => module.ssoFeature),
  },
];

/** The languages authlib ships texts in. */
const SHIPPED_LANGUAGES = ["en", "de", "fr", "es", "pt", "ja", "zh"] as const;

/** The on-demand features loaded so far, by option: a definition is the same for every configuration. */
const loadedFeatures = new Map<string, FeatureDefinition>();

/**
 * Loads the on-demand features `config` turns on whose code is not loaded yet; `undefined` when none is
 * missing (every later configuration lists them as it lists the others).
 */
export function featuresToLoad(config: AuthConfig): Promise<void> | undefined {
  const missing = onDemandFeatures.filter((feature) => config[feature.option] !== undefined && !loadedFeatures.has(feature.option));
  if (missing.length > 0)
    return Promise.all(missing.map(async (feature) => void loadedFeatures.set(feature.option, await feature.load()))).then();
}

/** Every built-in feature, the on-demand ones loaded (the catalog checks, the docs). */
export async function everyBuiltInFeature(): Promise<FeatureDefinition[]> {
  return [...builtInFeatures, ...(await Promise.all(onDemandFeatures.map((feature) => feature.load())))];
}

/** The on-demand feature's `auth.api` method `name`, which loads the feature's code with its first call. */
function onDemandMethod(feature: OnDemandFeature, name: string) {
  return (run: ApiRunner) =>
    async (...args: never[]): Promise<unknown> =>
      ((await feature.load()).api as Record<string, (run: ApiRunner) => (...args: never[]) => Promise<unknown>>)[name]?.(run)(...args);
}

/** Every feature of `config`, on or off: the built-in ones (the on-demand ones once loaded), then the app's own (checked for their shape). */
export function listedFeatures(config: AuthConfig): FeatureDefinition[] {
  return [...builtInFeatures, ...loadedFeatures.values(), ...(config.features ?? []).map(checkedFeature)];
}

/** The features `config` turns on: the built-in ones it enables, then the app's own. */
export function enabledFeatures(config: AuthConfig): FeatureDefinition[] {
  return listedFeatures(config).filter((feature) => feature.enabled?.(config) ?? true);
}

/**
 * Every operation of `config`: the spec's, then each feature's that is on: an operation's own `enabled`
 * decides for it, else its feature's (an operation of a feature may be on without it, e.g. a fact of the
 * session kept at a path under the feature's).
 */
export function operationsOf(config: AuthConfig): OperationDeclaration[] {
  const core = coreOperations.filter((operation) => operation.enabled?.(config) ?? true);
  const featured = listedFeatures(config).flatMap((feature) => {
    const on = feature.enabled?.(config) ?? true;
    return feature.operations.filter((operation) => (operation.enabled ? operation.enabled(config) : on));
  });
  return [...core, ...featured];
}

/** The operations of the features `config` turns off that name the option turning them on (`turnedOnBy`), by name (an on-demand one's even before it loads). */
export function offOperationsOf(config: AuthConfig): Map<string, string> {
  const off = listedFeatures(config).filter((feature) => feature.turnedOnBy !== undefined && !(feature.enabled?.(config) ?? true));
  // An on-demand feature not loaded: its `auth.api` methods are named after its operations.
  const notLoaded = onDemandFeatures.filter((feature) => config[feature.option] === undefined);
  return new Map([
    ...notLoaded.flatMap((feature) => feature.api.map((name) => [name, feature.option] as const)),
    ...off.flatMap((feature) => feature.operations.map((operation) => [operation.name, feature.turnedOnBy as string] as const)),
  ]);
}

/** The features' sections of `rateLimit` with their defaults (`FeatureDefinition.rateLimits`), on or off. */
export function rateLimitsOf(config: AuthConfig): FeatureRateLimits {
  return merged(listedFeatures(config), (feature) => feature.rateLimits);
}

/** What `part` takes from each of `features`, merged into one object (a later feature's key wins). */
function merged<T>(features: readonly FeatureDefinition[], part: (feature: FeatureDefinition) => T | undefined): T {
  return Object.assign({}, ...features.map((feature) => part(feature) ?? {}));
}

/**
 * The hooks that tell of something done (`NOTICE_HOOKS`): every feature that takes one hears it, in the
 * list's order. Every other hook answers a question, and two answers would be ambiguous.
 */
const NOTICE_HOOKS = new Set<keyof SignInHooks>(["everySessionEnded", "userSuspended"]);

/**
 * The hooks that refuse (`REFUSAL_HOOKS`): every feature that takes one is asked, in the list's order, and
 * the first refusal is the answer (an operator's ban, an organization's SSO-only rule).
 */
const REFUSAL_HOOKS = new Set<keyof SignInHooks>(["signInRefusal", "addressRefusal"]);

/** One refusal hook that asks each of `askers` in turn and answers the first refusal. */
function firstRefusalOf(askers: Array<(...args: never[]) => Promise<unknown>>) {
  return async (...args: never[]) => {
    for (const ask of askers) {
      const refusal = await ask(...args);
      if (refusal) return refusal;
    }
    return undefined;
  };
}

/** One notice hook that calls each of `heard` in turn. */
function everyOf(heard: Array<(...args: never[]) => Promise<void>>) {
  return async (...args: never[]) => {
    for (const hook of heard) await hook(...args);
  };
}

/**
 * The sign-in hooks of the features `config` turns on (one feature per question hook, every feature that
 * takes a notice hook), then those the features that are off keep (`hooksWhenOff`) where no enabled one
 * took the hook.
 */
export function hooksOf(config: AuthConfig): SignInHooks {
  const hooks: SignInHooks = {};
  const notices = new Map<string, Array<(...args: never[]) => Promise<void>>>();
  const refusals = new Map<string, Array<(...args: never[]) => Promise<unknown>>>();
  for (const feature of enabledFeatures(config)) {
    for (const [name, hook] of Object.entries(feature.hooks ?? {})) {
      if (NOTICE_HOOKS.has(name as keyof SignInHooks)) notices.set(name, [...(notices.get(name) ?? []), hook]);
      else if (REFUSAL_HOOKS.has(name as keyof SignInHooks)) refusals.set(name, [...(refusals.get(name) ?? []), hook]);
      else if (name in hooks) throw new TypeError(`Two features take the sign-in hook "${name}".`);
      else Object.assign(hooks, { [name]: hook });
    }
  }
  for (const [name, heard] of notices) Object.assign(hooks, { [name]: heard.length === 1 ? heard[0] : everyOf(heard) });
  for (const [name, askers] of refusals) Object.assign(hooks, { [name]: askers.length === 1 ? askers[0] : firstRefusalOf(askers) });
  const off = listedFeatures(config).filter((feature) => !(feature.enabled?.(config) ?? true));
  for (const feature of off)
    for (const [name, hook] of Object.entries(feature.hooksWhenOff ?? {})) if (!(name in hooks)) Object.assign(hooks, { [name]: hook });
  return hooks;
}

/** The features' error types that are a user's own failure (`FeatureDefinition.quietErrors`), on or off. */
export function quietErrorsOf(config: AuthConfig): ReadonlySet<string> {
  return new Set(listedFeatures(config).flatMap((feature) => feature.quietErrors ?? []));
}

/** The features' owner-present operations with their labels and rules (`FeatureDefinition.ownerOperations`), on or off. */
export function ownerOperationsOf(config: AuthConfig): Readonly<Record<string, OwnerOperationRule>> {
  return Object.freeze(merged(listedFeatures(config), (feature) => feature.ownerOperations));
}

/** The events of `config.events` the features fire beyond the shared ones (`FeatureDefinition.events`), on or off. */
export function eventsOf(config: AuthConfig): string[] {
  return listedFeatures(config).flatMap((feature) => feature.events ?? []);
}

/** The cookies of authlib's own features, each key with its name (`FeatureDefinition.cookies`). */
export const builtInCookies: Readonly<Record<string, string>> = merged(builtInFeatures, (feature) => feature.cookies);

/** The features' cookies, each key with its name (`FeatureDefinition.cookies`), on or off. */
export function cookiesOf(config: AuthConfig): Readonly<Record<string, string>> {
  return merged(listedFeatures(config), (feature) => feature.cookies);
}

/** The `auth.api` methods of authlib's own features (`FeatureDefinition.api`), by name. */
export const builtInApi: Readonly<Record<string, (run: ApiRunner) => (...args: never[]) => Promise<unknown>>> = {
  ...merged(builtInFeatures, (feature) => feature.api),
  ...Object.fromEntries(onDemandFeatures.flatMap((feature) => feature.api.map((name) => [name, onDemandMethod(feature, name)]))),
};

/** The sign-in page's messages for the error types of every feature of `config`, on or off (`FeatureDefinition.signInErrors`). */
export function signInErrorsOf(config: AuthConfig): Readonly<Record<string, MessageKey>> {
  return Object.freeze(merged(listedFeatures(config), (feature) => feature.signInErrors));
}

/** What the features `config` turns on add to the audit trail (`FeatureDefinition.audit`). */
export function auditsOf(config: AuthConfig): FeatureAudit[] {
  return enabledFeatures(config).flatMap((feature) => (feature.audit ? [feature.audit] : []));
}

/** What the features `config` turns on tell an admin about a user (`FeatureDefinition.userDetails`). */
export function userDetailsOf(config: AuthConfig): UserDetailsPart[] {
  return enabledFeatures(config).flatMap((feature) => (feature.userDetails ? [feature.userDetails] : []));
}

/** The account page's sections of the features `config` turns on. */
export function accountSectionsOf(config: AuthConfig): AccountSection[] {
  return enabledFeatures(config).flatMap((feature) => (feature.accountSection ? [feature.accountSection] : []));
}

/** The organization page's sections of the features `config` turns on. */
export function organizationSectionsOf(config: AuthConfig): OrganizationSection[] {
  return enabledFeatures(config).flatMap((feature) => (feature.organizationSection ? [feature.organizationSection] : []));
}

/**
 * The texts of every feature of the list (an on-demand one once loaded) and of the app's own, on or off: a
 * key of `Messages` always has a text (an error of a feature that is off can still name one), and the app's
 * `messages` override them.
 */
export function messagesOf(config: AuthConfig): FeatureTexts[] {
  const own = (config.features ?? []) as readonly Partial<FeatureDefinition>[];
  const features = [...builtInFeatures, ...loadedFeatures.values(), ...own];
  // Texts the configuration sets come first (the first text of a key wins), in every shipped language.
  const configured = features.flatMap((feature) => {
    const texts = feature.enabled?.(config) === false ? undefined : feature.configuredMessages?.(config);
    return texts ? [Object.fromEntries(SHIPPED_LANGUAGES.map((tag) => [tag, async () => texts]))] : [];
  });
  return [...configured, ...features.flatMap((feature) => (feature.messages ? [feature.messages] : []))];
}

/** An app's feature, checked for the shape `defineFeature` gives (a `TypeError` names what is wrong). */
function checkedFeature(feature: unknown): FeatureDefinition {
  const candidate = feature as Partial<FeatureDefinition> | undefined;
  if (typeof candidate?.name !== "string" || !Array.isArray(candidate.operations))
    throw new TypeError("A feature needs a `name` and its `operations`: make it with defineFeature().");
  for (const operation of candidate.operations as Partial<OperationDeclaration>[]) {
    const { name, method, path, handler } = operation;
    if (typeof name !== "string" || (method !== "GET" && method !== "POST") || typeof path !== "string" || typeof handler !== "function")
      throw new TypeError(`Feature "${candidate.name}": each operation needs a name, GET or POST, a path and a handler.`);
    if (!/^[a-z0-9-]+(\/([a-z0-9-]+|:provider))?$/.test(path))
      throw new TypeError(`Feature "${candidate.name}": "${path}" is not a path of one or two lower-case segments.`);
  }
  return candidate as FeatureDefinition;
}
