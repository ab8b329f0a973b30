import {randomBytes} from "node:crypto";

/** A lowercase slug: letters, digits, '.', '-'; other runs of characters become one '-'. */
export function slug(text: string, max = 40): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, max)
    .replace(/[-.]+$/g, "");
  return s || "x";
}

export const shortId = (): string => randomBytes(3).toString("hex");

/** `<YYYYMMDD>-<host-label>-<model-slug>-<name>-<shortid>` (UTC date). */
export function bundleName(o: {wallMs: number; host: string; model: string; name: string; id: string}): string {
  const d = new Date(o.wallMs);
  const ymd = `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, "0")}${String(d.getUTCDate()).padStart(2, "0")}`;
  const model = o.model.split("/").pop() ?? o.model;
  return [ymd, slug(o.host, 24), slug(model, 40), slug(o.name, 40), o.id].join("-");
}
