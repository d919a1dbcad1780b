/**
 * What `authlib doctor` reports: findings, each one line with the problem and its fix, and the summary
 * that decides the exit code (1 when there is an error, 0 with warnings only).
 *
 * @module cli/doctor/findings
 */
import { paint, type Terminal } from "../terminal.js";

/** One thing the doctor noticed. `error` makes the exit code 1; `warning` does not. */
export interface Finding {
  level: "error" | "warning";
  /** What is wrong, in one sentence. */
  problem: string;
  /** What to do about it. */
  fix: string;
  /** The `AuthError` type the start-up check would raise for it, when there is one (to avoid saying it twice). */
  type?: string;
}

/** An error finding. */
export const error = (problem: string, fix: string, type?: string): Finding => ({ level: "error", problem, fix, type });

/** A warning finding. */
export const warning = (problem: string, fix: string, type?: string): Finding => ({ level: "warning", problem, fix, type });

/** One line per finding: `error: <problem> Fix: <fix>`, coloured on a terminal. */
export function formatFinding(terminal: Pick<Terminal, "colour">, finding: Finding): string {
  const label = finding.level === "error" ? paint(terminal, "red", "error") : paint(terminal, "yellow", "warning");
  return `${label}: ${finding.problem} ${paint(terminal, "dim", "Fix:")} ${finding.fix}\n`;
}

/** The last line: counts, or that nothing was found. */
export function formatSummary(terminal: Pick<Terminal, "colour">, findings: readonly Finding[]): string {
  const errors = findings.filter((f) => f.level === "error").length;
  const warnings = findings.length - errors;
  if (findings.length === 0) return `${paint(terminal, "green", "ok")}: no problems found.\n`;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${plural(errors, "error")}, ${plural(warnings, "warning")}.\n`;
}
