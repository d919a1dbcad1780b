/**
 * `authlib doctor`: reads the environment (process env over `.env`) and, with `--config`, the app's
 * configuration module, and reports what would break or weaken authlib there, one line per finding
 * with its fix. Exit code 1 when there is an error, 0 with warnings only.
 *
 * Without `--config` the configuration is the environment's alone (`setEnvDefaults` over no
 * providers): the secret, the URL and host trust, and the database of `AUTHLIB_DATABASE_URL` are
 * checked. With it, also the providers, optional peers, core's start-up check, the rate limits' store and
 * client address, and the adapter.
 *
 * @module cli/doctor/doctor
 */
import { setEnvDefaults } from "../../env/defaults.js";
import { parseBooleanEnv, readEnv } from "../../env/read.js";
import type { AuthConfig } from "../../types/config.js";
import type { ProviderConfig } from "../../types/providers.js";
import { paint, type Terminal } from "../terminal.js";
import { type CheckedSetup, originFindings, providerFindings, secretFindings, startupFindings } from "./checks.js";
import { adapterFindings, hostedDatabaseFindings } from "./database.js";
import { exportToProcess, readEnvironment } from "./environment.js";
import { error, type Finding, formatFinding, formatSummary } from "./findings.js";
import { loadConfigModule } from "./load-config.js";
import { databasePackagesInstalled, peerFindings } from "./peers.js";
import { rateLimitFindings } from "./rate-limit.js";

/** Options of {@link runDoctor}. */
export interface DoctorOptions {
  /** The app's configuration module (path relative to the working directory). */
  config?: string;
  /** The env file to read under the process env; default `.env` when it exists. */
  envFile?: string;
}

/** Every finding for this terminal's environment and `options`. */
export async function diagnose(terminal: Terminal, options: DoctorOptions): Promise<{ findings: Finding[]; header: string }> {
  let environment: Awaited<ReturnType<typeof readEnvironment>>;
  try {
    environment = await readEnvironment(terminal.env, terminal.cwd, options.envFile);
  } catch (thrown) {
    return { findings: [error(`${(thrown as Error).message}.`, "pass an existing file to --env.")], header: "" };
  }
  const { env } = environment;
  const production = readEnv(env, "NODE_ENV") === "production";

  let appConfig: AuthConfig = { providers: [] };
  if (options.config !== undefined) {
    if (terminal.env === process.env) exportToProcess(environment.fileValues, process.env);
    const loaded = await loadConfigModule(options.config, terminal.cwd, env);
    if (!loaded.ok)
      return { findings: [error(loaded.problem, loaded.fix)], header: headerOf(environment.file, options.config, production) };
    appConfig = loaded.config;
  }
  // A copy, as the framework integrations do: setEnvDefaults fills it in place.
  const config: AuthConfig = { ...appConfig, providers: [...appConfig.providers] };
  setEnvDefaults(env, config);
  const setup: CheckedSetup = {
    config,
    providers: config.providers as ProviderConfig[],
    production,
    trustHostExplicit: appConfig.trustHost === true || parseBooleanEnv(readEnv(env, "AUTH_TRUST_HOST")) === true,
    envFile: environment.file ?? ".env",
  };

  const findings: Finding[] = [...secretFindings(setup), ...originFindings(setup), ...providerFindings(setup)];
  findings.push(...startupFindings(setup, findings));
  if (options.config !== undefined) findings.push(...rateLimitFindings(setup));
  const databaseURL = readEnv(env, "AUTHLIB_DATABASE_URL");
  findings.push(...peerFindings(setup.providers, databaseURL, terminal.cwd));
  const probe = databaseURL !== undefined && databasePackagesInstalled(databaseURL, terminal.cwd);
  const hosted = probe ? await hostedDatabaseFindings(databaseURL, readEnv(env, "AUTHLIB_BRANCH")) : [];
  findings.push(...hosted);
  // The adapter's read would fail for the reason just given: said once.
  if (config.adapter && hosted.length === 0) findings.push(...(await adapterFindings(config.adapter)));
  return { findings, header: headerOf(environment.file, options.config, production) };
}

function headerOf(envFile: string | undefined, configModule: string | undefined, production: boolean): string {
  const parts = [
    production ? "NODE_ENV=production" : "not production",
    envFile ? `env file ${envFile}` : "no env file",
    configModule ? `config ${configModule}` : "no config module (environment only; pass --config <module> for providers and the adapter)",
  ];
  return `authlib doctor: ${parts.join(", ")}\n`;
}

/** Runs the doctor and prints its report; resolves to the exit code. */
export async function runDoctor(terminal: Terminal, options: DoctorOptions): Promise<number> {
  const { findings, header } = await diagnose(terminal, options);
  if (header) terminal.out(paint(terminal, "bold", header));
  for (const finding of findings) terminal.out(formatFinding(terminal, finding));
  terminal.out(formatSummary(terminal, findings));
  return findings.some((finding) => finding.level === "error") ? 1 : 0;
}
