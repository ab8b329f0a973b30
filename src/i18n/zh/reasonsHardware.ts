/** Chinese for the hardware, cost and energy reasons and the environment labels (see reasons.ts). */
import type {Phrase} from "../localize.ts";

export const zhHardwareReasons: readonly Phrase[] = [
  // hardware/*: model facts, fit, roofline, host
  {en: "hardware.model.{key} not set", zh: "未设置 hardware.model.{key}"},
  {en: "model file header not read: {why...}", zh: "未读取模型文件头：{why}"},
  {en: "the bundle predates the model-file fingerprint", zh: "该证据包早于模型文件指纹功能"},
  {en: "the bundle predates the host-bandwidth fingerprint", zh: "该证据包早于主机带宽指纹功能"},
  {en: "not fingerprinted (bundle predates it)", zh: "无指纹（证据包早于该功能）"},
  {en: "no model file read", zh: "未读取模型文件"},
  {
    en: "weight bytes not stated (hardware.model.weight_bytes or bytes_per_weight)",
    zh: "未说明权重字节数（hardware.model.weight_bytes 或 bytes_per_weight）"
  },
  {en: "the server's /v1/models does not state {what...}", zh: "服务端 /v1/models 未说明{what}"},
  {en: "the weight size", zh: "权重大小"},
  {
    en: "KV-cache element type not stated: set hardware.model.kv_cache_dtype",
    zh: "未说明 KV cache 元素类型：请设置 hardware.model.kv_cache_dtype"
  },
  {
    en: "llama.cpp launch arguments not recorded: the KV-cache type (-ctk/-ctv) is unknown",
    zh: "未记录 llama.cpp 启动参数：KV cache 类型（-ctk/-ctv）未知"
  },
  {
    en: "llama.cpp default KV cache f16 (no -ctk/-ctv in the launch arguments)",
    zh: "llama.cpp 默认 KV cache f16（启动参数中没有 -ctk/-ctv）"
  },
  {en: "KV-cache type {t} not in the table of element sizes", zh: "KV cache 类型 {t} 不在元素大小表中"},
  {en: "GGUF header has no {k}", zh: "GGUF 头中没有 {k}"},
  {en: "GGUF file size minus header", zh: "GGUF 文件大小减去文件头"},
  {en: "GGUF tensor shapes (Σ elements)", zh: "GGUF 张量形状（元素数之和）"},
  {
    en: "layers × kv_heads × (head_dim K + V) × bytes per element",
    zh: "层数 × kv_heads × (head_dim K + V) × 每元素字节数"
  },
  {en: "mixture of experts: active parameters unknown", zh: "混合专家模型：激活参数量未知"},
  {
    en: "weights and KV cache only: activations, CUDA graphs and the runtime need more",
    zh: "仅计权重与 KV cache：激活值、CUDA graph 和运行时还需要更多显存"
  },
  {
    en: "declared card not in the catalogue, or its memory is not sourced",
    zh: "声明的卡不在目录中，或其显存没有来源"
  },
  {en: "no GPU identified", zh: "未识别到 GPU"},
  {en: "{card} is not in the catalogue", zh: "{card} 不在目录中"},
  {en: "{card}: memory bandwidth not in a source (—)", zh: "{card}：显存带宽没有来源（—）"},
  {en: "host bandwidth probe recorded no timed pass", zh: "主机带宽探测没有记录计时轮次"},
  {en: "host bandwidth not measured: {why...}", zh: "未测量主机带宽：{why}"},
  {en: "no fingerprint", zh: "无指纹"},
  {en: "one GPU: no peer", zh: "单 GPU：无对端"},
  {en: "p2p matrix has no GPU pair", zh: "p2p 矩阵中没有 GPU 对"},
  {en: "no p2p matrix", zh: "没有 p2p 矩阵"},
  {en: "all {n} GPU pairs report OK", zh: "全部 {n} 对 GPU 报告 OK"},
  {en: "{ok} of {n} GPU pairs report OK", zh: "{n} 对 GPU 中 {ok} 对报告 OK"},
  {en: "no GPU pair reports OK ({list...})", zh: "没有 GPU 对报告 OK（{list}）"},
  {
    en: "NCCL_P2P_DISABLE=1: peer-to-peer was switched off for this run",
    zh: "NCCL_P2P_DISABLE=1：本次运行关闭了点对点访问"
  },
  {
    en: "not read from {tool}: AMD peer access is catalogue-only here",
    zh: "未从 {tool} 读取：此处 AMD 点对点访问仅取目录值"
  },
  {en: "in-flight unknown", zh: "在途请求数未知"},
  {en: "KV-cache usage not reported: {why...}", zh: "未报告 KV cache 占用：{why}"},
  {en: "preemptions not reported: {why...}", zh: "未报告抢占：{why}"},
  {en: "one scrape only", zh: "只有一次抓取"},
  {en: "the analysis was not given the hardware data", zh: "分析未获得硬件数据"},
  {en: "unknown", zh: "未知"},

  // hardware/price.ts, cost.ts, energy.ts
  {en: "the card is not in the catalogue: no price", zh: "该卡不在目录中：无价格"},
  {
    en: "no price for a CPU host: give yours in hardware.prices (gpu: cpu-host)",
    zh: "CPU 主机没有价格：请在 hardware.prices 中给出（gpu: cpu-host）"
  },
  {en: "no {kind} price for {key} in the table", zh: "价格表中没有 {key} 的 {kind} 价格"},
  {en: "no price", zh: "无价格"},
  {
    en: "the bundle's run config did not parse: its own prices cannot be read",
    zh: "证据包的运行配置无法解析：无法读取其中的价格"
  },
  {en: "no prompt-cache hits in this point", zh: "该负载点没有提示缓存命中"},
  {en: "only {n} requests with cache counts (the fit needs 5)", zh: "只有 {n} 个请求带缓存计数（拟合需要 5 个）"},
  {
    en: "cache hits and misses vary together: their costs cannot be told apart",
    zh: "缓存命中与未命中同步变化：无法区分二者的成本"
  },
  {
    en: "the fit gives a negative time per token (miss {a} ms, hit {b} ms)",
    zh: "拟合得到负的每 token 时间（未命中 {a} ms，命中 {b} ms）"
  },
  {en: "no timed request", zh: "没有计时的请求"},
  {
    en: "the server did not report prompt-cache hits for every request",
    zh: "服务端没有为每个请求报告提示缓存命中"
  },
  {en: "no energy measured", zh: "未测量能耗"},
  {en: "no output tokens", zh: "没有输出 token"},
  {en: "no request with prefill and decode times", zh: "没有带预填充与解码时间的请求"},
  {en: "no request with token counts", zh: "没有带 token 计数的请求"},
  {en: "no successful request", zh: "没有成功请求"},
  {en: "prefill and decode times sum to zero", zh: "预填充与解码时间之和为零"},
  {en: "too few power samples", zh: "功率采样过少"},
  {
    en: "only {n} power samples inside the window (the rule asks for {min})",
    zh: "窗口内只有 {n} 个功率采样（规则要求 {min} 个）"
  },
  {en: "power samples do not cover the window ({why...})", zh: "功率采样未覆盖窗口（{why}）"},
  {en: "none before its start", zh: "开始前没有采样"},
  {en: "none after its end", zh: "结束后没有采样"},
  {en: "a {s} s gap between power samples {a} and {b}", zh: "功率采样 {a} 与 {b} 之间有 {s} s 的间隔"},

  // hardware facts: where a value came from
  {en: "measured window", zh: "实测窗口"},
  {en: "measured mean in flight", zh: "实测平均在途请求数"},
  {en: "mean of prompt + output ÷ 2", zh: "提示 + 输出 ÷ 2 的均值"},
  {en: "energy ÷ output tokens", zh: "能耗 ÷ 输出 token"},
  {en: "output tokens ÷ (energy in kWh)", zh: "输出 token ÷（以 kWh 计的能耗）"},
  {en: "GPUs the fingerprint listed", zh: "指纹列出的 GPU"},
  {en: "CPU host: one host, priced per host-hour", zh: "CPU 主机：一台主机，按主机小时计价"},
  {
    en: "host RAM (os.totalmem), shared with the OS and other processes",
    zh: "主机内存（os.totalmem），与操作系统及其他进程共享"
  },
  {en: "run config {key}", zh: "运行配置 {key}"},
  {en: "build price file", zh: "构建时的价格文件"},
  {en: "declared by the importer (--hardware gpu_count)", zh: "由导入者声明（--hardware gpu_count）"},
  {en: "your price ({kind}) from the run config", zh: "你的价格（{kind}），来自运行配置"},
  {en: "your price ({kind}) from the build", zh: "你的价格（{kind}），来自构建"},
  {en: "{kind} median of {providers...} (table of {date})", zh: "{providers} 的 {kind} 中位数（{date} 的价格表）"},
  {
    en: "median of {n} {kind} row(s), price table of {date}",
    zh: "{n} 行 {kind} 价格的中位数，{date} 的价格表"
  },
  {
    en: "best of {n} parallel-copy passes, {t} threads{when...}",
    zh: "{n} 轮并行拷贝中的最佳值，{t} 个线程{when}"
  },
  {en: "{id} median, n = {n}", zh: "{id} 中位数，n = {n}"},
  {en: "{n} × {gb} GB (catalogue: {card...})", zh: "{n} × {gb} GB（目录：{card}）"},
  {en: "server timings (prompt_ms, predicted_ms)", zh: "服务端计时（prompt_ms、predicted_ms）"},
  {
    en: "client times (dispatch → first token, first token → end)",
    zh: "客户端时间（发送 → 首 token，首 token → 结束）"
  },

  // the collector's recorded tool errors and environment labels (env.json, loaders)
  {en: "nvidia-smi not found", zh: "未找到 nvidia-smi"},
  {en: "no nvidia-smi, amd-smi or rocm-smi on PATH", zh: "PATH 中没有 nvidia-smi、amd-smi 或 rocm-smi"},
  {en: "gpu telemetry off in the config", zh: "配置中关闭了 GPU 遥测"},
  {en: "CPU: {cpu} ({n} threads)", zh: "CPU：{cpu}（{n} 线程）"},
  {en: "unknown hardware", zh: "未知硬件"},
  {en: "{n}× {gpu...} (declared)", zh: "{n}× {gpu}（声明）"},
  {
    en: "{gpus...} (named by the source; how many served: unknown)",
    zh: "{gpus}（来源列出的 GPU；实际服务模型的数量未知）"
  },
  {
    en: "the import names the GPUs its source saw, not how many served the model (inferscope import --hardware gpu_model=…,gpu_count=N)",
    zh: "导入只列出来源看到的 GPU，未说明其中多少块服务了模型（inferscope import --hardware gpu_model=…,gpu_count=N）"
  },
  {
    en: "an import that declares no hardware (inferscope import --hardware)",
    zh: "导入未声明硬件（inferscope import --hardware）"
  },
  {en: "not recorded by {tool}", zh: "{tool} 未记录"},
  {en: "start time not recorded: the source's end time is used", zh: "未记录开始时间：使用来源的结束时间"}
];
