import { build } from "esbuild";
import { writeFileSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
const root = "/work/main";
const dir = mkdtempSync(join(root, ".bb-"));
const src = `export { Auth } from "${root}/packages/core/src/index.ts"; export { default as GitHub } from "${root}/packages/core/src/providers/github.ts"; export { default as Credentials } from "${root}/packages/core/src/providers/credentials.ts";`;
writeFileSync(join(dir, "entry.mjs"), src);
const r = await build({ entryPoints: [join(dir,"entry.mjs")], bundle: true, write: false, minify: true, format: "esm", platform: "neutral", mainFields: ["module","main"], conditions: ["worker","browser","import","default"], tsconfig: join(root,"packages/core/tsconfig.json"), splitting: true, outdir: join(dir,"out"), metafile: true, logLevel: "silent", absWorkingDir: root });
const outs = r.metafile.outputs;
const seen = new Set(); const sizes = new Map();
function walk(k){ if(seen.has(k)) return; seen.add(k); for (const [i,v] of Object.entries(outs[k].inputs)) sizes.set(i,(sizes.get(i)??0)+v.bytesInOutput); for (const imp of outs[k].imports) if(imp.kind==="import-statement") walk(imp.path);}
walk(Object.keys(outs).find(k=>k.endsWith("entry.js")));
const list=[...sizes].sort((a,b)=>b[1]-a[1]);
let total=0; for (const [,s] of list) total+=s; console.log("total", total);
for (const [k,v] of list.filter(([k]) => process.argv[2] ? new RegExp(process.argv[2]).test(k) : true).slice(0,45)) console.log(v, k);
