/** The first `max` bytes of an event's data (`bytes` long, UTF-8), cut back to a character boundary. */
export function headBytes(data: string, bytes: number, max: number): string {
  if (bytes <= max) return data;
  const buf = Buffer.from(data, "utf8");
  let end = max;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--; // never split a multi-byte character
  return buf.toString("utf8", 0, end);
}
