import type {FileStream} from "./source.ts";

/** Reads a whole (small) file stream into one string. */
export async function readText(stream: FileStream): Promise<string> {
  let text = "";
  for await (const chunk of stream.chunks) text += chunk;
  return text;
}
