import type {RunConfig} from "../schema/config.ts";
import type {PriceKind, PriceOverride} from "../schema/hardware.ts";
import {median} from "../stats/quantile.ts";
import type {HardwareData} from "./data.ts";
import {known, unknown} from "./fact.ts";
import type {Fact} from "./schema.ts";

/** The price key of a host: its catalogue card, or "cpu-host" for a CPU-only host. */
export const priceKey = (card: string | null, kind: string): string | null =>
  card ?? (kind === "cpu" ? "cpu-host" : null);

/**
 * The price used for a host's cost: the run config's own price for the card (hardware.prices), else the
 * build's (INFERSCOPE_PRICES), else the median of the shipped table's on-demand rows for the card.
 */
export function chosenPrice(
  key: string | null,
  config: RunConfig | null,
  data: HardwareData,
  kind: PriceKind = "on_demand"
): {price: Fact; from: string | null} {
  if (key === null) return {price: unknown("the card is not in the catalogue: no price"), from: null};
  const own = (list: readonly PriceOverride[] | undefined) => list?.find((p) => p.gpu === key);
  const run = own(config?.hardware?.prices);
  if (run !== undefined)
    return {
      price: known(run.usd_per_gpu_hour, "run config hardware.prices"),
      from: `your price (${run.kind}) from the run config`
    };
  const build = own(data.overrides);
  if (build !== undefined)
    return {
      price: known(build.usd_per_gpu_hour, "build price file"),
      from: `your price (${build.kind}) from the build`
    };
  const rows = data.prices.prices.filter((p) => p.gpu === key && p.kind === kind);
  if (rows.length === 0)
    return {
      price: unknown(
        key === "cpu-host"
          ? "no price for a CPU host: give yours in hardware.prices (gpu: cpu-host)"
          : `no ${kind} price for ${key} in the table`
      ),
      from: null
    };
  const m = median(Float64Array.from(rows, (r) => r.usd_per_gpu_hour));
  return {
    price:
      m === undefined
        ? unknown("no price")
        : known(m, `median of ${rows.length} ${kind} row(s), price table of ${data.prices.date}`),
    from: `${kind} median of ${rows.map((r) => r.provider).join(", ")} (table of ${data.prices.date})`
  };
}
