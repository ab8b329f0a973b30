export * from "./agent.ts";
export * from "./errors.ts";
export * from "./events.ts";
export * from "./sse.ts";
export * from "./stream.ts";
export * from "./socketPool.ts";
