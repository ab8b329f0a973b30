import type {FileStream} from "./source.ts";

/** Largest manifest or config read whole (they are kilobytes; a bigger one is not what its name says). */
export const MAX_TEXT_CHARS = 16 * 2 ** 20;

/** Reads a whole (small) file stream into one string, or null (the stream drained) when it exceeds `max`. */
export async function readText(stream: FileStream, max: number = MAX_TEXT_CHARS): Promise<string | null> {
  let text = "";
  let over = false;
  for await (const chunk of stream.chunks) {
    if (over) continue;
    if (text.length + chunk.length > max) {
      over = true;
      text = "";
    } else text += chunk;
  }
  return over ? null : text;
}

/** Reads a stream to its end without keeping it (its digest is all that is needed). */
export async function drain(stream: FileStream): Promise<void> {
  for await (const _chunk of stream.chunks) {
    // discard: only the digest of an attachment or an unlisted file is checked
  }
}
