/** Seeded pseudo-random numbers for the model generator. Record the name and seed wherever output depends on them. */
export {mulberry32, PRNG_NAME} from "../../src/analysis/stats/prng.ts";

/** FNV-1a 32-bit hash of a string's UTF-16 code units; derives one independent stream per tensor. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
