/** Headers of every streamed request: JSON in, SSE out, the API key as a bearer token, the configured extras. */
export function baseHeaders(apiKey: string | null, extra: Record<string, string>): Record<string, string> {
  const h: Record<string, string> = {"content-type": "application/json", accept: "text/event-stream"};
  if (apiKey) h.authorization = `Bearer ${apiKey}`;
  for (const [k, v] of Object.entries(extra)) h[k.toLowerCase()] = v;
  return h;
}

/** Headers of a plain JSON GET/POST (probe, /tokenize): the same credentials, JSON accepted. */
export function authHeaders(apiKey: string | null, extra: Record<string, string>): Record<string, string> {
  const h = baseHeaders(apiKey, extra);
  delete h["content-type"];
  h.accept = "application/json";
  return h;
}
