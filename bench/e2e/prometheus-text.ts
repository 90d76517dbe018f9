/** Reading Prometheus text exposition: enough to add up counters by a label or two. */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The samples whose metric name `keep` accepts (comments and other metrics skipped). */
export function parsePrometheus(text: string, keep: (name: string) => boolean): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m || !keep(m[1])) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]] = l[2];
    const value = Number(m[3]);
    if (Number.isFinite(value)) out.push({ name: m[1], labels, value });
  }
  return out;
}

/**
 * Sum of the samples of `name` matching `where`, per value of label `by` ('' = one total under '');
 * several labels key by their values joined with a space.
 */
export function sumBy(samples: Sample[], name: string | RegExp, by: string | string[] = '', where: Record<string, string> = {}): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samples) {
    if (typeof name === 'string' ? s.name !== name : !name.test(s.name)) continue;
    if (Object.entries(where).some(([k, v]) => s.labels[k] !== v)) continue;
    const key = (Array.isArray(by) ? by : by ? [by] : []).map((l) => s.labels[l] ?? '').join(' ');
    out.set(key, (out.get(key) ?? 0) + s.value);
  }
  return out;
}
