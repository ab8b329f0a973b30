/** Builds every chart of a run report (SVG markup rendered at build time) from the analyzer's output. */
import {
  formatNumber,
  isSummary,
  metricById,
  SERVER_SERIES,
  type PointReport,
  type Report,
  type RunConfig
} from "../../analysis/index.ts";
import {latencyCdf} from "../latencyCdf.ts";
import {percentilesVsLoad, type PercentileRow} from "../percentilesVsLoad.ts";
import {renderChart} from "../render.ts";
import {requestTimeline} from "../requestTimeline.ts";
import {telemetryChart} from "../telemetry.ts";
import {throughputVsLoad, type ThroughputRow} from "../throughputVsLoad.ts";
import {tokensPerEventHistogram} from "../tokensPerEvent.ts";
import {pick, type Lang} from "../../i18n/index.ts";

export interface BuiltChart {
  id: string;
  caption: string;
  note?: string;
  svg: string;
}

const label = (id: string, lang: Lang) => pick(metricById(id).label, lang);

const MODE_LABEL: Record<string, {en: string; zh: string}> = {
  concurrency: {en: "concurrency (requests in flight)", zh: "并发数（在途请求）"},
  poisson: {en: "arrival rate (req/s, Poisson)", zh: "到达速率（req/s，泊松）"},
  constant: {en: "arrival rate (req/s, constant)", zh: "到达速率（req/s，恒定）"},
  gamma: {en: "arrival rate (req/s, gamma)", zh: "到达速率（req/s，gamma）"}
};

const TELEMETRY_LABEL: Record<string, {en: string; zh: string; unit: string}> = {
  gpu_util_pct: {en: "GPU utilisation", zh: "GPU 利用率", unit: "%"},
  gpu_mem_used_mib: {en: "GPU memory used", zh: "GPU 显存占用", unit: "MiB"},
  gpu_power_w: {en: "GPU power", zh: "GPU 功率", unit: "W"},
  running: {en: "requests running (server)", zh: "运行中请求（服务端）", unit: "requests"},
  waiting: {en: "requests waiting (server)", zh: "排队请求（服务端）", unit: "requests"},
  kv_cache: {en: "KV cache usage (server)", zh: "KV 缓存占用（服务端）", unit: "fraction"},
  generation_tok_s: {en: "generation tokens/s (server)", zh: "生成 token/s（服务端）", unit: "tok/s"},
  prompt_tok_s: {en: "prompt tokens/s (server)", zh: "提示 token/s（服务端）", unit: "tok/s"}
};

function modeLabel(mode: string, lang: Lang): string {
  return MODE_LABEL[mode] ? pick(MODE_LABEL[mode], lang) : mode;
}

/** The SLO clauses goodput counts against, as one line. */
export function sloText(config: RunConfig | null, lang: Lang): string {
  if (!config) return lang === "zh" ? "SLO 未知（无配置）" : "SLO unknown (no config)";
  const s = config.slo;
  return `SLO: TTFT ≤ ${s.ttft_ms} ms · ITL ≤ ${s.itl_ms} ms · E2E ≤ ${s.e2e_ms} ms`;
}

function byMode(points: readonly PointReport[]): [string, PointReport[]][] {
  const m = new Map<string, PointReport[]>();
  for (const p of points) (m.get(p.mode) ?? m.set(p.mode, []).get(p.mode)!).push(p);
  return [...m].map(([mode, ps]) => [mode, ps.sort((a, b) => a.value - b.value)]);
}

const runValue = (p: PointReport, id: string): number | null => {
  const v = p.metrics[id];
  return v && !isSummary(v) ? v.value : null;
};

export function reportCharts(report: Report, config: RunConfig | null, lang: Lang): BuiltChart[] {
  const zh = lang === "zh";
  const out: BuiltChart[] = [];
  const rows = (report.rows ?? []).filter((r) => r.phase === "measure");
  const ok = rows.filter((r) => r.outcome === "success");
  const share = zh ? "请求占比" : "share of requests";

  const ttft = ok.filter((r) => r.ttftMs !== null).map((r) => ({series: r.point, value: r.ttftMs!}));
  if (ttft.length > 0)
    out.push({
      id: "chart-ttft-cdf",
      caption: zh
        ? `${label("ttft_ms", lang)}分布（CDF，按负载点）`
        : `${label("ttft_ms", lang)} distribution (CDF, per load point)`,
      note: zh
        ? `${ttft.length} 个成功请求；虚线为 50 % 与 95 %`
        : `${ttft.length} successful requests; dashed lines at 50 % and 95 %`,
      svg: renderChart((document) =>
        latencyCdf(ttft, {document, xLabel: `${label("ttft_ms", lang)} (ms)`, yLabel: share})
      )
    });
  const itl = ok.filter((r) => r.itlMs !== null).map((r) => ({series: r.point, value: r.itlMs!}));
  if (itl.length > 0)
    out.push({
      id: "chart-itl-cdf",
      caption: zh
        ? `${label("itl_ms", lang)}分布（CDF，每请求一个值）`
        : `${label("itl_ms", lang)} distribution (CDF, one value per request)`,
      note: zh ? `${itl.length} 个请求` : `${itl.length} requests`,
      svg: renderChart((document) =>
        latencyCdf(itl, {document, xLabel: `${label("itl_ms", lang)} (ms/token)`, yLabel: share})
      )
    });

  for (const [mode, points] of byMode(report.load_points)) {
    if (points.length < 2) continue;
    for (const id of ["ttft_ms", "itl_ms", "e2e_ms"]) {
      const data: PercentileRow[] = [];
      for (const p of points) {
        const s = p.metrics[id];
        if (!s || !isSummary(s)) continue;
        for (const key of ["p50", "p90", "p95", "p99"] as const)
          if (s[key] !== null) data.push({load: p.value, key, value: s[key]!});
      }
      if (data.length === 0) continue;
      out.push({
        id: `chart-${id}-vs-${mode}`,
        caption: zh ? `${label(id, lang)}分位数随负载变化` : `${label(id, lang)} percentiles vs load`,
        note: zh ? "样本不足时不发布的分位数不画出" : "percentiles withheld for too few samples are not drawn",
        svg: renderChart((document) =>
          percentilesVsLoad(data, {
            document,
            xLabel: modeLabel(mode, lang),
            yLabel: `${label(id, lang)} (${metricById(id).unit})`
          })
        )
      });
    }
    const tp: ThroughputRow[] = [];
    for (const p of points) {
      const rps = runValue(p, "request_throughput_rps");
      const good = runValue(p, "goodput_rps");
      if (rps !== null) tp.push({load: p.value, series: label("request_throughput_rps", lang), value: rps});
      if (good !== null)
        tp.push({load: p.value, series: label("goodput_rps", lang), value: good, goodPct: runValue(p, "goodput_pct")});
    }
    if (tp.length > 0)
      out.push({
        id: `chart-throughput-vs-${mode}`,
        caption: zh ? "吞吐与有效吞吐（满足 SLO）随负载变化" : "Throughput and goodput (meets the SLO) vs load",
        note: zh ? "有效吞吐点旁为满足 SLO 的请求占比" : "labels on goodput points: share of requests meeting the SLO",
        svg: renderChart((document) =>
          throughputVsLoad(tp, {document, xLabel: modeLabel(mode, lang), yLabel: "req/s", slo: sloText(config, lang)})
        )
      });
  }

  if (rows.length > 0) {
    const max = 300;
    out.push({
      id: "chart-timeline",
      caption: zh
        ? "请求时间线：计划 → 发送 → 首 token → 结束"
        : "Request timeline: schedule → dispatch → first token → end",
      note:
        rows.length > max
          ? zh
            ? `均匀抽取 ${max} / ${rows.length} 个被测请求`
            : `an even sample of ${max} of ${rows.length} measured requests`
          : zh
            ? `全部 ${rows.length} 个被测请求`
            : `all ${rows.length} measured requests`,
      svg: renderChart((document) =>
        requestTimeline(
          rows.map((r) => ({
            id: r.id,
            point: r.point,
            sched: r.tSchedMs,
            disp: r.tDispMs,
            tok1: r.tTok1Ms,
            end: r.tEndMs
          })),
          {
            document,
            maxRows: max,
            xLabel: zh ? "运行时间 (s)" : "run time (s)",
            yLabel: zh ? "请求（按计划时间）" : "requests (schedule order)",
            phases: zh
              ? {wait: "等待发送", prefill: "首 token 前", decode: "解码"}
              : {wait: "waiting to send", prefill: "until first token", decode: "decode"}
          }
        )
      )
    });
  }

  const tpe = ok.filter((r) => r.out !== null && r.tokenEvents > 0).map((r) => r.out! / r.tokenEvents);
  if (tpe.length > 0)
    out.push({
      id: "chart-tokens-per-event",
      caption: zh
        ? `${label("tokens_per_event", lang)}（直方图，每请求一个值）`
        : `${label("tokens_per_event", lang)} (histogram, one value per request)`,
      note: zh
        ? "虚线 = 1 token/事件；其右侧的请求块间隔不是 token 间隔"
        : "dashed line = 1 token per event; requests to its right have chunk gaps that are not token gaps",
      svg: renderChart((document) =>
        tokensPerEventHistogram(tpe, {document, xLabel: "tokens/event", yLabel: zh ? "请求数" : "requests"})
      )
    });

  const series = report.series ?? [];
  const ids = [...new Set(series.map((s) => s.series))];
  const order = [...SERVER_SERIES.map((s) => s.id), "gpu_util_pct", "gpu_mem_used_mib", "gpu_power_w"];
  ids.sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99) || a.localeCompare(b));
  for (const id of ids) {
    const l = TELEMETRY_LABEL[id];
    const name = l ? pick(l, lang) : id;
    const pts = series.filter((s) => s.series === id);
    out.push({
      id: `chart-telemetry-${id}`,
      caption: zh ? `遥测：${name}` : `Telemetry: ${name}`,
      note: zh ? `${pts.length} 个采样` : `${pts.length} samples`,
      svg: renderChart((document) =>
        telemetryChart(
          pts.map((p) => ({tS: p.tS, value: p.value, ...(p.gpu === undefined ? {} : {gpu: p.gpu})})),
          {document, xLabel: zh ? "运行时间 (s)" : "run time (s)", yLabel: `${name} (${l?.unit ?? ""})`}
        )
      )
    });
  }
  return out;
}

/** Headline numbers of a bundle for index tables: the load point with the most output throughput. */
export function headline(report: Report): {
  point: PointReport | null;
  ttft: number | null;
  itl: number | null;
  out: number | null;
} {
  const best =
    [...report.load_points].sort(
      (a, b) => (runValue(b, "output_throughput_tok_s") ?? -1) - (runValue(a, "output_throughput_tok_s") ?? -1)
    )[0] ?? null;
  const p50 = (id: string) => {
    const v = best?.metrics[id];
    return v && isSummary(v) ? v.p50 : null;
  };
  return {
    point: best,
    ttft: p50("ttft_ms"),
    itl: p50("itl_ms"),
    out: best ? runValue(best, "output_throughput_tok_s") : null
  };
}

export const fmt = formatNumber;
