/**
 * The one place for number formats. Values are shown with a precision that fits their size;
 * null is never printed as 0 — callers show "—" with a reason.
 */
export function formatNumber(value: number | null | undefined, digits?: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  if (digits !== undefined) return value.toFixed(digits);
  const a = Math.abs(value);
  if (a === 0) return "0";
  if (a >= 1000) return Math.round(value).toLocaleString("en-US");
  if (a >= 100) return value.toFixed(1);
  if (a >= 10) return value.toFixed(2);
  if (a >= 1) return value.toFixed(2);
  if (a >= 0.01) return value.toFixed(3);
  return value.toPrecision(2);
}

/** A fraction as a percentage with one decimal ("72.0 %"), "—" when unknown. */
export const formatShare = (fraction: number | null): string =>
  fraction === null ? "—" : `${(100 * fraction).toFixed(1)} %`;

export function formatWithUnit(value: number | null | undefined, unit: string): string {
  const n = formatNumber(value);
  if (n === "—") return n;
  return unit === "%" ? `${n} %` : `${n} ${unit}`;
}

/** Formats a duration given in seconds as "1 h 2 min", "3.4 s" or "12 ms". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "—";
  if (seconds >= 3600) return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
  if (seconds >= 60) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  if (seconds >= 1) return `${seconds.toFixed(1)} s`;
  return `${(seconds * 1000).toFixed(0)} ms`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(2)} GiB`;
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  if (bytes >= 2 ** 10) return `${(bytes / 2 ** 10).toFixed(1)} KiB`;
  return `${bytes} B`;
}
