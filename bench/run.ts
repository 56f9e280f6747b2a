/**
 * Bench entry: `npm run bench` runs every bench, `npm run bench -- dispatch` only those whose name
 * contains one of the arguments. Each bench module exports `run()` and prints its own table.
 */

interface Bench {
  name: string;
  load: () => Promise<{ run(): Promise<void> }>;
}

/** Add new benches here; modules load only when selected. */
const benches: Bench[] = [
  { name: "dispatch", load: () => import("./dispatch.js") },
  { name: "registry", load: () => import("./registry.js") },
  { name: "sandbox", load: () => import("./sandbox.js") },
  { name: "install", load: () => import("./install.js") },
  { name: "agent-compat", load: () => import("./agent-compat.js") },
  { name: "agent-session", load: () => import("./agent-session.js") },
];

async function main(): Promise<void> {
  const filters = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
  const selected = benches.filter(
    (bench) => filters.length === 0 || filters.some((filter) => bench.name.includes(filter)),
  );
  if (selected.length === 0) {
    console.error(
      `no bench matches ${filters.join(", ")}; benches: ${benches.map((b) => b.name).join(", ")}`,
    );
    process.exitCode = 1;
    return;
  }
  for (const [i, bench] of selected.entries()) {
    if (i > 0) console.log("");
    const module = await bench.load();
    await module.run();
  }
}

await main();
