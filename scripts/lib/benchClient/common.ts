/** What every part of `npm run bench:client` shares: its flags, clock, statistics and table helpers. */

const args = new Set(process.argv.slice(2));
export const QUICK = args.has("--quick");
export const PIN = args.has("--pin");
export const WRITE = !args.has("--no-write");
export const origin = process.hrtime.bigint();
export const nowNs = (): number => Number(process.hrtime.bigint() - origin);
export const ms = (ns: number): number => ns / 1e6;
export const sleep = (t: number): Promise<void> => new Promise((r) => setTimeout(r, t));

let seq = 0;
/** The next request id of the bench's own requests (`b0`, `b1`, …). */
export const nextId = (): string => `b${seq++}`;

export function pct(xs: number[], q: number): number | null {
  if (xs.length === 0) return null;
  const s = Float64Array.from(xs).sort();
  return s[Math.max(0, Math.ceil(q * s.length - 1e-9) - 1)]!;
}
export const f = (x: number | null, d = 2): string => (x === null ? "—" : x.toFixed(d));
export const median = (xs: number[]): number => pct(xs, 0.5)!;

export const medianOf = (xs: (number | null)[]): number | null => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length === 0 ? null : median(v);
};

export const body = (maxTokens: number): string =>
  JSON.stringify({
    model: "fake-model",
    messages: [{role: "user", content: "benchmark the client"}],
    stream: true,
    max_tokens: maxTokens,
    ignore_eos: true,
    stream_options: {include_usage: true}
  });

export interface Row {
  cells: string[];
}
export const table = (head: string[], rows: Row[]): string =>
  [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.cells.join(" | ")} |`)
  ].join("\n");

export const yes = (b: boolean): string => (b ? "yes" : "no");
