/**
 * The doctor's checks of a configuration and its environment: the secret, the app's URL and host
 * trust, the OAuth clients, and core's own start-up check (whatever it refuses, the doctor reports).
 *
 * @module cli/doctor/checks
 */

import { providerEnvPrefix } from "../../env/read.js";
import { shouldWarnUnrestrictedTrustHost } from "../../http/origin.js";
import { assertConfig, MIN_SECRET_BYTES, secretByteLength } from "../../kernel/assert.js";
import { resolveSessionOptions } from "../../kernel/config.js";
import { isOAuthProvider } from "../../provider-kind.js";
import type { AuthConfig } from "../../types/config.js";
import type { ProviderConfig } from "../../types/providers.js";
import { error, type Finding, warning } from "./findings.js";

/** What the checks look at: the configuration after `setEnvDefaults`, and facts about its source. */
export interface CheckedSetup {
  config: AuthConfig;
  /** The configuration's providers as objects. */
  providers: ProviderConfig[];
  production: boolean;
  /** True when `trustHost` was asked for (AUTH_TRUST_HOST or the config), not just defaulted outside production. */
  trustHostExplicit: boolean;
  /** Where `AUTH_SECRET` should go, for the fixes (`.env` or the env file given). */
  envFile: string;
}

/** Missing or weak secrets. */
export function secretFindings({ config, envFile }: CheckedSetup): Finding[] {
  const secrets = (Array.isArray(config.secret) ? config.secret : [config.secret]).filter(
    (s): s is string => typeof s === "string" && s !== "",
  );
  if (secrets.length === 0) {
    return [
      error(
        "No secret is set: AUTH_SECRET is empty and the config has no `secret`.",
        `run \`npx authlib secret --append ${envFile}\` (or set AUTH_SECRET in your host's settings).`,
        "MissingSecret",
      ),
    ];
  }
  return secrets.flatMap((secret, index) => {
    const bytes = secretByteLength(secret);
    if (bytes >= MIN_SECRET_BYTES) return [];
    const which = secrets.length > 1 ? `Secret #${index + 1} of the rotation list` : "The secret (AUTH_SECRET)";
    return [
      error(
        `${which} is ${bytes} bytes long; authlib needs at least ${MIN_SECRET_BYTES} random bytes and refuses shorter ones in production.`,
        `replace it with \`npx authlib secret\` (\`npx authlib secret --append ${envFile} --force\` rewrites AUTH_SECRET; existing sessions end).`,
        "WeakSecret",
      ),
    ];
  });
}

/** The app's URL in production, and `trustHost` without a list of hosts. */
export function originFindings({ config, production, trustHostExplicit }: CheckedSetup): Finding[] {
  const pinned = config.url !== undefined || (config.trustedHosts?.length ?? 0) > 0;
  if (pinned) return [];
  const unrestricted = config.trustHost === true;
  if (production) {
    return [
      error(
        // The same condition as core's run-time warning, named so that the two are found together.
        shouldWarnUnrestrictedTrustHost(config, "production")
          ? "AUTHLIB_URL is not set in production, and trustHost is on without AUTH_TRUSTED_HOSTS: any client can choose the host of the links authlib builds (sign-in emails, OAuth redirects) (run-time warning trust-host-unrestricted)."
          : "AUTHLIB_URL is not set in production.",
        "set AUTHLIB_URL to the app's public URL (e.g. AUTHLIB_URL=https://app.example.com), or AUTH_TRUSTED_HOSTS to its host names.",
        // Without trustHost, core's start-up check refuses the same thing as UntrustedHost.
        unrestricted ? undefined : "UntrustedHost",
      ),
    ];
  }
  if (unrestricted && trustHostExplicit) {
    return [
      warning(
        "trustHost is on without AUTHLIB_URL or AUTH_TRUSTED_HOSTS: the host of the links authlib builds comes from request headers.",
        "set AUTHLIB_URL (one origin) or AUTH_TRUSTED_HOSTS (a list); keep trustHost alone only behind a proxy that overwrites Host and X-Forwarded-Host.",
      ),
    ];
  }
  return [];
}

/** Client authentication methods that send a client secret. */
const SECRET_METHODS = new Set([undefined, "client_secret_basic", "client_secret_post"]);

/** OAuth/OIDC providers without a client id, or without the client secret their authentication method sends. */
export function providerFindings({ providers }: CheckedSetup): Finding[] {
  return providers.filter(isOAuthProvider).flatMap((provider) => {
    const env = providerEnvPrefix(provider.id);
    const found: Finding[] = [];
    if (!provider.clientId) {
      found.push(error(`Provider "${provider.id}" has no client id.`, `set ${env}ID (or \`clientId\` in its options).`, "InvalidProvider"));
    }
    if (!provider.clientSecret && SECRET_METHODS.has(provider.client?.token_endpoint_auth_method) && !provider.clientPrivateKey) {
      found.push(
        error(
          `Provider "${provider.id}" has no client secret, and its client authentication sends one.`,
          `set ${env}SECRET (or \`clientSecret\`), or \`client: { token_endpoint_auth_method: "none" }\` for a public client.`,
        ),
      );
    }
    return found;
  });
}

/** A stand-in secret of the minimum length, for checking the rest of a configuration whose secret was reported. */
const PLACEHOLDER_SECRET = "x".repeat(MIN_SECRET_BYTES);

/**
 * The configuration with the problems already reported set aside (a placeholder secret and client id,
 * the host trusted), so that core's start-up check, which stops at the first error, finds the next one.
 */
function withReportedProblemsSetAside(
  setup: CheckedSetup,
  already: readonly Finding[],
): { config: AuthConfig; providers: ProviderConfig[] } {
  const config: AuthConfig = { ...setup.config };
  if (already.some((f) => f.type === "MissingSecret" || f.type === "WeakSecret")) config.secret = PLACEHOLDER_SECRET;
  if (already.some((f) => f.type === "UntrustedHost")) config.trustHost = true;
  const providers = setup.providers.map((provider) =>
    isOAuthProvider(provider) && !provider.clientId ? { ...provider, clientId: "set-aside-by-doctor" } : provider,
  );
  return { config: { ...config, providers }, providers };
}

/**
 * Whatever else core's start-up check refuses (the first error past the findings above): an app with
 * this configuration answers every request with the configuration error page.
 */
export function startupFindings(setup: CheckedSetup, already: readonly Finding[]): Finding[] {
  const { config, providers } = withReportedProblemsSetAside(setup, already);
  let refused: { type: string; message: string } | undefined;
  try {
    refused = assertConfig(config, providers, resolveSessionOptions(config).strategy);
  } catch (thrown) {
    refused = { type: "Configuration", message: `the configuration could not be read (${(thrown as Error)?.message ?? thrown})` };
  }
  if (!refused || already.some((finding) => finding.type === refused.type)) return [];
  return [
    error(
      `authlib refuses this configuration at start-up: ${refused.type}: ${refused.message}`,
      "change the configuration as the message says; until then every request ends on the configuration error page.",
      refused.type,
    ),
  ];
}
