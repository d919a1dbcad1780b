// Lists the functions longer than 60 lines under the given folders (the measure of packages/core/test/structure/function-length.test.ts).
// Usage: node scripts/long-functions.mjs packages/core/src packages/qwik/src packages/hosted-db-adapter/src
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const out = [];

function measure(sf, node) {
  if (ts.isFunctionLike(node) && node.body) {
    const a = sf.getLineAndCharacterOfPosition(node.getStart()).line;
    const b = sf.getLineAndCharacterOfPosition(node.end).line;
    if (b - a + 1 > 60) out.push(`${b - a + 1}\t${sf.fileName}:${a + 1}\t${node.name?.getText?.() ?? "(anon)"}`);
  }
  ts.forEachChild(node, (child) => measure(sf, child));
}

for (const root of process.argv.slice(2)) {
  for (const f of readdirSync(root, { recursive: true })) {
    if (!/\.tsx?$/.test(f) || f.endsWith(".d.ts") || f.includes("generated")) continue;
    const path = join(root, f);
    const kind = f.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const sf = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true, kind);
    measure(sf, sf);
  }
}
console.log(out.sort((x, y) => parseInt(y, 10) - parseInt(x, 10)).join("\n"));
console.log(out.length);
