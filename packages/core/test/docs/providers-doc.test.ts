/**
 * `docs/providers.md` is generated (scripts/provider-table.mjs) from the built presets; this test
 * regenerates it in memory and compares, so the table never drifts from the code. It also checks that
 * no preset is missing from the table for lack of a `meta` export. Needs `npm run build` first.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script without type declarations.
import { loadPresets, OUTPUT, renderProviderTable } from "../../../../scripts/provider-table.mjs";

const sourceDirectory = new URL("../../src/providers/", import.meta.url);

/** Source files whose default export builds an OAuth / OIDC preset. */
function presetSources(): string[] {
  return readdirSync(sourceDirectory)
    .filter((file) => file.endsWith(".ts"))
    .filter((file) =>
      /export default function \w+\([^)]*\)[^{]*\{\s*(?:const [^;]+;\s*|\/\/[^\n]*\s*)*return (?:mergeProviderOptions|issuerOidcPreset)/s.test(
        readFileSync(new URL(file, sourceDirectory), "utf8"),
      ),
    )
    .sort();
}

describe("docs/providers.md", () => {
  it("is up to date with the presets (regenerate: npm run build && npm run docs:providers)", async () => {
    const presets = await loadPresets();
    expect(readFileSync(OUTPUT, "utf8")).toBe(renderProviderTable(presets));
  });

  it("lists every preset source file: each exports its `meta`", async () => {
    const sources = presetSources();
    expect(sources.length).toBeGreaterThanOrEqual(41);
    for (const file of sources) {
      expect(readFileSync(new URL(file, sourceDirectory), "utf8"), `${file} exports meta`).toMatch(/export const meta: PresetMeta = \{/);
    }
    const listed = (await loadPresets()).map((preset: { file: string }) => preset.file.replace(/\.js$/, ".ts"));
    expect(listed.sort()).toEqual(sources);
  });

  it("renders a preset's type, scopes, mapping, email trust and own-instance option from its data", () => {
    const table = renderProviderTable([
      {
        file: "example.js",
        provider: {
          id: "example",
          name: "Example",
          type: "oauth",
          trustEmail: (p: { ok?: boolean }) => p.ok === true,
          authorization: { params: { scope: "a b" } },
        },
        meta: {
          maps: { id: "uid", name: "display|name", email: null, image: "avatar" },
          emailTrustedWhen: "`ok` is true",
          selfHosted: { option: "baseUrl", env: "AUTH_EXAMPLE_ISSUER", required: true },
          docs: "https://example.com/docs",
        },
      },
    ]);
    expect(table).toContain(
      "| Example (`example`) | OAuth 2 | `a b` | `uid` | `display\\|name` | — | `avatar` | when `ok` is true | `baseUrl` (`AUTH_EXAMPLE_ISSUER`) — required | [docs](https://example.com/docs) |",
    );
  });
});
