const { run } = await import("./scripts/bundle-budget.mjs");
const r = await run();
console.log("ours", r.ours.gzip, "reference", r.reference.gzip, "sessionOnly", r.sessionOnly.gzip);
