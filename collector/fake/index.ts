export * from "./chunks.ts";
export * from "./metrics.ts";
export * from "./options.ts";
export * from "./plan.ts";
export * from "./scenarios.ts";
export * from "./server.ts";
export * from "./tokens.ts";
export * from "./spec.ts";
