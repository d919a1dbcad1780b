// What typed permissions cost the compiler (issue 46: "declaring 50 permissions and 10 roles keeps `tsc` on
// the docs examples within +10 % of today's time"). Compiles the docs examples (docs/examples, whose
// organizations.ts registers three roles) and the same examples with that file's roles replaced by 50
// permissions over 10 roles, registered the same way: alternately, `ROUNDS` times each (default 5), after one
// warm-up of each, and prints the median wall time of each and the ratio.
//
//   node bench/types-cost.mjs
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const examples = join(root, "docs/examples");
const variant = join(examples, ".types-cost");
const rounds = Number(process.env.ROUNDS ?? 5);

/** The 50 permissions over 10 roles, as `defineRoles` takes them. */
function fiftyOverTen() {
  const permissions = Array.from({ length: 50 }, (_, i) => `resource${Math.floor(i / 5)}:action${i % 5}`);
  const roles = ["owner", "admin", "member", ...Array.from({ length: 7 }, (_, i) => `role${i}`)];
  const entries = roles.map((role, r) => `  ${JSON.stringify(role)}: ${JSON.stringify(permissions.filter((_, i) => (i + r) % 3 !== 0))},`);
  return `export const roles = defineRoles({\n${entries.join("\n")}\n});`;
}

function makeVariant() {
  rmSync(variant, { recursive: true, force: true });
  mkdirSync(variant);
  const source = readFileSync(join(examples, "organizations.ts"), "utf8");
  const start = source.indexOf("export const roles = defineRoles(");
  const end = source.indexOf("});", start) + 3;
  if (start < 0) throw new Error("docs/examples/organizations.ts no longer declares `roles` with defineRoles");
  // The example's own permission checks name its three roles' statements: the variant checks one of its 50.
  const body = (source.slice(0, start) + fiftyOverTen() + source.slice(end))
    .replaceAll('"invoice:approve"', '"resource3:action1"')
    .replaceAll('"invoice:read"', '"resource2:action2"');
  writeFileSync(join(variant, "organizations.ts"), body);
  const tsconfig = JSON.parse(readFileSync(join(examples, "tsconfig.json"), "utf8"));
  tsconfig.extends = "../../../tsconfig.base.json";
  tsconfig.include = ["../*.ts", "organizations.ts"];
  tsconfig.exclude = ["../organizations.ts"];
  writeFileSync(join(variant, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
}

const tsc = join(root, "node_modules/typescript/bin/tsc");
function timed(project) {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, [tsc, "-p", project], { stdio: "inherit" });
  return Number(process.hrtime.bigint() - start) / 1e6;
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

makeVariant();
try {
  timed(examples);
  timed(variant);
  const today = [];
  const fifty = [];
  for (let round = 0; round < rounds; round++) {
    today.push(timed(examples));
    fifty.push(timed(variant));
  }
  console.log("| compile | median wall time (ms) |\n| --- | ---: |");
  console.log(`| docs/examples as they are (3 roles) | ${median(today).toFixed(0)} |`);
  console.log(`| docs/examples with 50 permissions over 10 roles | ${median(fifty).toFixed(0)} |`);
  console.log(`\n50 over 10 / today: ${(median(fifty) / median(today)).toFixed(3)}x (goal: at most 1.10x)`);
} finally {
  rmSync(variant, { recursive: true, force: true });
}
