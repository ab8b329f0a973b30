export * from "./agent.ts";
export * from "./errors.ts";
export * from "./events.ts";
export * from "./pacer.ts";
export * from "./sse.ts";
export * from "./stream.ts";
