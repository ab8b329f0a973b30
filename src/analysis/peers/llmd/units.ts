/**
 * The units upstream's pydantic models allow per field (llm-d-benchmark schema_v0_2_components.py); the
 * JSON Schema lists only the enum of every unit, so without this table a TTFT in Watts would pass.
 * Keys are paths under results.request_performance.aggregate.
 */
const QUANTITY = ["count", "pixels"];
const TIME = ["ms", "s"];
const PER_TOKEN = ["ms/token", "s/token"];
const MEMORY = ["bytes", "MB", "GB", "TB", "MiB", "GiB", "TiB"];

export const UNIT_RULES: Readonly<Record<string, readonly string[]>> = {
  "requests.input_length": QUANTITY,
  "requests.output_length": QUANTITY,
  "requests.request_size": MEMORY,
  "latency.time_to_first_token": TIME,
  "latency.request_latency": TIME,
  "latency.normalized_time_per_output_token": PER_TOKEN,
  "latency.time_per_output_token": PER_TOKEN,
  "latency.inter_token_latency": PER_TOKEN,
  "throughput.input_token_rate": ["tokens/s"],
  "throughput.output_token_rate": ["tokens/s"],
  "throughput.total_token_rate": ["tokens/s"],
  "throughput.request_rate": ["queries/s"],
  "throughput.image_rate": ["images/s", "videos/s", "audios/s"],
  "throughput.video_rate": ["images/s", "videos/s", "audios/s"],
  "throughput.audio_rate": ["images/s", "videos/s", "audios/s"]
};
