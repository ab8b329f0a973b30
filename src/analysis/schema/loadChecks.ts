import type {z} from "zod";

/** Node fires timers above 2³¹−1 ms at once: the longest wait a run can plan (24.8 days). */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * An arrival rate whose planned requests would span more than a timer can wait (24.8 days, as duration_s): the
 * run would not end in any useful time, and its schedule offsets would outgrow what a bundle records.
 */
export function checkRateSpan(
  l: {mode: string; values: readonly number[]; requests?: number; duration_s?: number; warmup: number},
  ctx: z.RefinementCtx
): void {
  if (l.mode !== "rate" && l.mode !== "poisson" && l.mode !== "gamma") return;
  const planned = (l.requests ?? (l.duration_s === undefined ? 100 : 0)) + l.warmup;
  l.values.forEach((rate, i) => {
    const spanS = planned / rate;
    if (spanS > MAX_TIMER_MS / 1000)
      ctx.addIssue({
        code: "custom",
        path: ["values", i],
        message: `${planned} requests at ${rate} req/s span ${Math.round(spanS).toLocaleString("en")} s: above 2147483 s (24.8 days)`
      });
  });
}
