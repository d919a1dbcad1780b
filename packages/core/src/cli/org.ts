/**
 * `authlib org verify-domains --config <module>`: the re-check of every proven organization domain for the
 * app's configuration (its adapter and its `organizations.resolveTxt`), run on the app's schedule (a cron
 * job). A domain whose TXT record is gone loses its proof; a lookup that failed keeps it and makes the exit
 * code 1, so that the scheduler reports it. The configuration module is loaded as `authlib doctor` loads it.
 *
 * @module cli/org
 */
import { parseArgs } from "node:util";
import { setEnvDefaults } from "../env/defaults.js";
import { createAuth } from "../kernel/instance.js";
import type { AuthConfig } from "../types/config.js";
import { exportToProcess, readEnvironment } from "./doctor/environment.js";
import { loadConfigModule } from "./doctor/load-config.js";
import type { Terminal } from "./terminal.js";

/** The help text of `authlib org`. */
export const ORG_USAGE = `Usage: authlib org verify-domains --config <module> [--env <file>]

  verify-domains    Read the TXT record of every proven organization domain again; a domain whose
                    record is gone is no longer proven. Run it on a schedule (e.g. daily).
    --config <module>   The app's config module (default export or \`authConfig\`: an AuthConfig)
    --env <file>        The env file read under the process env (default: .env when it exists)

Exit codes: 0 done (domains may have lost their proof), 1 a lookup or the configuration failed, 2 wrong usage.
`;

/** Runs `authlib org <args>`; resolves to the exit code. */
export async function runOrg(args: readonly string[], terminal: Terminal): Promise<number> {
  const [subcommand, ...rest] = args;
  const { values } = parseArgs({
    args: [...rest],
    options: { config: { type: "string" }, env: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (subcommand === "--help" || subcommand === "-h" || subcommand === "help" || values.help) {
    terminal.out(ORG_USAGE);
    return 0;
  }
  if (subcommand !== "verify-domains") {
    terminal.err(`authlib: unknown org command ${JSON.stringify(subcommand ?? "")}\n\n${ORG_USAGE}`);
    return 2;
  }
  if (values.config === undefined) {
    terminal.err(`authlib: org verify-domains needs --config <module>\n\n${ORG_USAGE}`);
    return 2;
  }
  return verifyDomains(terminal, values.config, values.env);
}

async function verifyDomains(terminal: Terminal, configModule: string, envFile: string | undefined): Promise<number> {
  const { env, fileValues } = await readEnvironment(terminal.env, terminal.cwd, envFile);
  if (terminal.env === process.env) exportToProcess(fileValues, process.env);
  const loaded = await loadConfigModule(configModule, terminal.cwd, env);
  if (!loaded.ok) {
    terminal.err(`authlib: ${loaded.problem} Fix: ${loaded.fix}\n`);
    return 1;
  }
  // A copy, as the framework integrations do: setEnvDefaults fills it in place.
  const config: AuthConfig = { ...loaded.config, providers: [...loaded.config.providers] };
  setEnvDefaults(env, config);
  if (config.organizations === undefined) {
    terminal.err(`authlib: ${configModule} does not turn organizations on (\`organizations: {}\`): there are no domains to check.\n`);
    return 1;
  }
  const { checked, unverified, failed } = await createAuth(config).api.verifyDomains();
  terminal.out(`authlib org verify-domains: ${checked} proven ${checked === 1 ? "domain" : "domains"} checked.\n`);
  terminal.out(`unverified: ${unverified.length === 0 ? "none" : unverified.join(", ")}\n`);
  terminal.out(`failed: ${failed.length === 0 ? "none" : failed.join(", ")}\n`);
  if (failed.length > 0)
    terminal.err(
      `authlib: the DNS lookup of ${failed.length} ${failed.length === 1 ? "domain" : "domains"} failed; their proof is kept. Run it again later.\n`,
    );
  return failed.length > 0 ? 1 : 0;
}
