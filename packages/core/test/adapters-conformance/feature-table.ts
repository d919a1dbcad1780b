/**
 * The adapter table of docs/database.md, rendered from what the conformance suite measured: per adapter
 * and feature, whether the flow worked or `createAuth` refused the feature for missing methods.
 */

/** The features of the table, in its column order. */
export const FEATURES = [
  "database sessions",
  "OAuth sign-in and account linking",
  "email link sign-in",
  "passkeys",
  "access-token refresh",
  "session listing",
] as const;

export type Feature = (typeof FEATURES)[number];

/** What the suite saw: the flow worked, or the start-up check refused the feature for `missing`. */
export interface Outcome {
  works: boolean;
  missing: string[];
}

/**
 * The Markdown lines for `rows` (name and measured outcomes; a row the suite did not run is left out): the
 * table's header and one line per adapter, then one line per refused feature and set of missing methods,
 * naming the adapters that lack them.
 */
export function adapterTableRows(rows: Array<[string, Partial<Record<Feature, Outcome>> | undefined]>): string[] {
  const complete = rows.filter((row): row is [string, Record<Feature, Outcome>] => FEATURES.every((f) => row[1]?.[f] !== undefined));
  if (complete.length === 0) return [];
  const table = [
    `| adapter (database) | ${FEATURES.join(" | ")} |`,
    `|---|${FEATURES.map(() => "---").join("|")}|`,
    ...complete.map(
      ([name, outcomes]) => `| ${name} | ${FEATURES.map((f) => (outcomes[f].works ? "yes" : "no (start-up error)")).join(" | ")} |`,
    ),
  ];
  const notes: string[] = [];
  for (const feature of FEATURES) {
    const byMissing = new Map<string, string[]>();
    for (const [name, outcomes] of complete) {
      if (outcomes[feature].works) continue;
      const key = outcomes[feature].missing.map((m) => `\`${m}\``).join(", ");
      byMissing.set(key, [...(byMissing.get(key) ?? []), name]);
    }
    for (const [missing, names] of byMissing) notes.push(`- **${feature}**: ${names.join(", ")} lack ${missing}.`);
  }
  return [...table, "", ...notes];
}
