/**
 * The TXT records of a name, for domain proofs: the app's `resolveTxt` when it gives one; else the system's
 * resolver (`node:dns`) where the runtime has it; else DNS over HTTPS (the JSON API of `dnsOverHttps`).
 * A name that does not exist, or has no TXT record, has none (`[]`); a resolver that fails is an error.
 *
 * @module features/organizations/dns
 */
import type { ConfigOptions } from "../../types/internal.js";
import { settingsOf } from "./store.js";

/** Answers that say "no such record" (NXDOMAIN, NOERROR with no TXT answer), not "the resolver failed". */
const NONE = new Set(["ENOTFOUND", "ENODATA"]);

/**
 * The TXT records of `name`, each one's strings joined (a long record comes in 255-byte strings). The app's
 * `resolveTxt` is read like the system's: a `node:dns` resolver (`Resolver#resolveTxt`) rejects a name
 * without records with `ENOTFOUND`/`ENODATA`, which is "none", not a failure.
 */
export async function txtRecords(options: ConfigOptions, name: string): Promise<string[]> {
  const { resolveTxt, dnsOverHttps } = settingsOf(options);
  const records = resolveTxt ? await noneWhenAbsent(() => resolveTxt(name)) : await systemOrHttps(name, dnsOverHttps);
  return records.map((chunks) => chunks.join(""));
}

/** The runtime's `node:dns`, where it has one: asked of the runtime, never imported (edge bundles stay free of `node:`). */
function systemDns(): typeof import("node:dns") | undefined {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return runtime?.getBuiltinModule?.("node:dns") as typeof import("node:dns") | undefined;
}

/** `[]` for a lookup that answered "no such record"; any other failure stays one. */
async function noneWhenAbsent(lookup: () => Promise<string[][]>): Promise<string[][]> {
  try {
    return await lookup();
  } catch (error) {
    if (NONE.has((error as { code?: string } | null)?.code ?? "")) return [];
    throw error;
  }
}

async function systemOrHttps(name: string, endpoint: string): Promise<string[][]> {
  const dns = systemDns();
  if (!dns?.promises?.resolveTxt) return overHttps(name, endpoint);
  const { resolveTxt } = dns.promises;
  return noneWhenAbsent(() => resolveTxt(name));
}

/** The TXT records of `name` from a DNS-over-HTTPS JSON API (`?name=…&type=TXT`). */
async function overHttps(name: string, endpoint: string): Promise<string[][]> {
  const url = new URL(endpoint);
  url.searchParams.set("name", name);
  url.searchParams.set("type", "TXT");
  const response = await fetch(url, { headers: { accept: "application/dns-json" }, signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new Error(`DNS over HTTPS answered ${response.status}.`);
  const body = (await response.json()) as { Status?: number; Answer?: Array<{ type?: number; data?: string }> };
  // Status 3 is NXDOMAIN: the name does not exist.
  if (body.Status === 3) return [];
  if (body.Status !== 0) throw new Error(`DNS over HTTPS answered status ${body.Status}.`);
  return (body.Answer ?? [])
    .filter((answer) => answer.type === 16 && typeof answer.data === "string")
    .map((answer) => [unquote(answer.data as string)]);
}

/** A TXT record's presentation (`"a" "b"`) as its text (`ab`). */
function unquote(data: string): string {
  const parts = [...data.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => (match[1] ?? "").replace(/\\(.)/g, "$1"));
  return parts.length > 0 ? parts.join("") : data;
}
