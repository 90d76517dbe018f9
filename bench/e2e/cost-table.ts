/** The cost-per-order table of `bench:e2e`: single-order and batched latency phases side by side. */

type Figures = Record<string, unknown> | null | undefined;
type Numbers = Record<string, number> | null | undefined;

const show = (x: unknown): string => (x === null || x === undefined ? '-' : String(x));
const pick = (f: Figures, path: string[]): unknown => path.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), f);

export function printCostTable(model: { single: unknown; batched: unknown }, cpu: { single: Numbers; batched: Numbers }, rate: unknown): void {
  const single = model.single as Figures;
  const batched = model.batched as Figures;
  const rows: [string, unknown, unknown][] = [];
  const roles = [...new Set([...Object.keys(cpu.single ?? {}), ...Object.keys(cpu.batched ?? {})])].sort();
  const sum = (r: Numbers) => (r ? Math.round(Object.values(r).reduce((a, b) => a + b, 0) * 1000) / 1000 : null);
  for (const role of roles) rows.push([`CPU-ms ${role}`, cpu.single?.[role], cpu.batched?.[role]]);
  rows.push(['CPU-ms, all service processes', sum(cpu.single), sum(cpu.batched)]);
  const counted: [string, string[]][] = [
    ['store commands, API', ['store_commands_per_order', 'api']],
    ['store commands, worker', ['store_commands_per_order', 'worker']],
    ['store statements (rows), API', ['store_statements_per_order', 'api']],
    ['store statements (rows), worker', ['store_statements_per_order', 'worker']],
    ['Temporal signals', ['signals_per_order']],
    ['Temporal workflow tasks', ['workflow_tasks_per_order']],
    ['Temporal activity tasks', ['activity_tasks_per_order']],
    ['Temporal requests, all', ['temporal_requests_per_order']],
    ['Temporal persistence requests', ['temporal_persistence_per_order']],
    ['Temporal history bytes', ['temporal_history_bytes_per_order']],
    ['market steps', ['market_steps_per_order']],
  ];
  for (const [label, path] of counted) rows.push([label, pick(single, path), pick(batched, path)]);
  // The commands and rows behind the store figures by collection, busiest first (by the single-order phase).
  for (const [figure, what] of [['store_commands_per_order', 'commands'], ['store_statements_per_order', 'rows']]) {
    for (const who of ['api', 'worker']) {
      const counts = pick(single, [figure, `${who}_by_collection`]) as Numbers;
      for (const name of Object.keys(counts ?? {}).slice(0, 8)) {
        rows.push([`  ${who} ${what} ${name}`, counts?.[name], pick(batched, [figure, `${who}_by_collection`, name])]);
      }
    }
  }
  const io = (pick(single, ['bytes_per_order']) ?? {}) as Record<string, unknown>;
  for (const role of Object.keys(io).sort()) {
    rows.push([`bytes sent / to disk, ${role}`, `${show(pick(single, ['bytes_per_order', role, 'sent']))} / ${show(pick(single, ['bytes_per_order', role, 'disk']))}`,
      `${show(pick(batched, ['bytes_per_order', role, 'sent']))} / ${show(pick(batched, ['bytes_per_order', role, 'disk']))}`]);
  }
  const width = Math.max(...rows.map((r) => r[0].length), 30);
  process.stdout.write(`${`per matched order at ${show(rate)} orders/s`.padEnd(width)}  ${'single'.padStart(14)}  ${'batched'.padStart(14)}\n`);
  for (const [label, a, b] of rows) process.stdout.write(`${label.padEnd(width)}  ${show(a).padStart(14)}  ${show(b).padStart(14)}\n`);
  process.stdout.write('\n');
}
