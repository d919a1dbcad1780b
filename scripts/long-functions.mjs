import ts from "typescript";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
const roots = process.argv.slice(2);
const out = [];
for (const root of roots) for (const f of readdirSync(root, { recursive: true })) {
  if (!/\.tsx?$/.test(f) || f.endsWith(".d.ts") || f.includes("generated")) continue;
  const path = join(root, f); const text = readFileSync(path, "utf8");
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, f.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const visit = (n) => { if (ts.isFunctionLike(n) && n.body) { const a = sf.getLineAndCharacterOfPosition(n.getStart()).line; const b = sf.getLineAndCharacterOfPosition(n.end).line; if (b - a + 1 > 60) out.push(`${b-a+1}\t${path}:${a+1}\t${n.name?.getText?.() ?? "(anon)"}`); } ts.forEachChild(n, visit); };
  visit(sf);
}
console.log(out.sort((x,y)=>parseInt(y)-parseInt(x)).join("\n")); console.log(out.length);
