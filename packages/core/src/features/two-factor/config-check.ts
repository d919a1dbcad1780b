/**
 * The second factor's start-up check (`FeatureDefinition.check`) and the adapter methods it needs
 * (`FeatureDefinition.adapterNeeds`): read with the definition, when the instance is made.
 *
 * @module features/two-factor/config-check
 */
import { AuthError, InvalidProvider } from "../../errors.js";
import { SECOND_FACTOR_PROVIDER } from "../../sign-in/second-factor-row.js";
import type { Adapter } from "../../types/adapters.js";
import type { AuthConfig } from "../../types/config.js";
import type { ProviderConfig } from "../../types/providers.js";

/** A user's factor is a row among their accounts (`record.ts`). */
export const twoFactorMethods: ReadonlyArray<keyof Adapter> = [
  "getUser",
  "linkAccount",
  "listAccountsByUserId",
  "updateAccount",
  "unlinkAccount",
];

/** The first error in the `twoFactor` option, or `undefined` (its adapter methods: {@link twoFactorAdapterNeeds}). */
export function twoFactorConfigError(config: AuthConfig, providers: readonly ProviderConfig[]): AuthError | undefined {
  if (config.twoFactor === undefined) return undefined;
  const { issuer, passkeys, pendingMaxAge } = config.twoFactor ?? {};
  const badIssuer = issuer !== undefined && (typeof issuer !== "string" || issuer.trim() === "" || issuer.includes(":"));
  const badAge = pendingMaxAge !== undefined && !(pendingMaxAge >= 60 && pendingMaxAge <= 3600);
  if (badIssuer || badAge || (passkeys !== undefined && typeof passkeys !== "boolean"))
    return new AuthError("twoFactor needs issuer without `:`, passkeys true or false, pendingMaxAge 60 to 3600 (s).");
  if (providers.some((provider) => provider.id === SECOND_FACTOR_PROVIDER))
    return new InvalidProvider(`The provider id "${SECOND_FACTOR_PROVIDER}" is reserved: choose another.`);
  return undefined;
}

/** The adapter methods `twoFactor` needs, whenever it is set. */
export function twoFactorAdapterNeeds(config: AuthConfig): { feature: string; methods: ReadonlyArray<keyof Adapter> } | undefined {
  return config.twoFactor === undefined ? undefined : { feature: "Second factors (`twoFactor`)", methods: twoFactorMethods };
}
