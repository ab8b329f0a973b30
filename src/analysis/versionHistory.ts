import type {Bilingual} from "./metrics/types.ts";

/**
 * What each version of a contract changed (schema/versions.ts says what each contract covers). The
 * methodology page prints this list; a bump without an entry here fails test/docs.test.ts.
 */
export interface VersionChange {
  contract: "schema" | "measure" | "analyzer" | "quality";
  version: string;
  changes: Bilingual[];
}

export const VERSION_HISTORY: readonly VersionChange[] = [
  {
    contract: "schema",
    version: "2",
    changes: [
      {
        en: "Requests record the client's start (tCallNs), TCP connect and TLS times, connection reuse and earlier attempts; each SSE event keeps its first payload bytes; event kind `empty` and transport error `close_timeout`; the manifest says how connections were used (`capture`). Version 1 bundles stay readable.",
        zh: "请求记录客户端开始时刻（tCallNs）、TCP 连接与 TLS 时刻、连接复用以及之前的尝试；每个 SSE 事件保留其载荷的前若干字节；新增事件类型 `empty` 与传输错误 `close_timeout`；清单说明连接的使用方式（`capture`）。v1 证据包仍可读取。"
      }
    ]
  },
  {
    contract: "measure",
    version: "2",
    changes: [
      {
        en: "Connections are reused by default (keep-alive with an idle bound below the server's); a server that closes every streamed connection is detected by the probe and then gets one connection per request. Connect and TLS time are recorded apart from the dispatch; a stream held open after its terminal marker is closed after timeouts.close_ms.",
        zh: "默认复用连接（keep-alive，空闲上限低于服务器的）；探测会发现每次流式响应后都关闭连接的服务器，此时每个请求使用一个新连接。连接与 TLS 时间与发送时刻分开记录；在结束标记后仍保持打开的流在 timeouts.close_ms 后关闭。"
      }
    ]
  },
  {
    contract: "analyzer",
    version: "2",
    changes: [
      {
        en: "The counted tokens end where the server's count ends: a natural stop's finish chunk that carries the end-of-sequence token ends E2E and the decode span (TPOT for 20 one-token chunks plus an EOS on the finish chunk is (t_finish − t_first)/20, not over the 20th chunk).",
        zh: "计数的 token 在服务器计数结束处结束：自然停止时携带结束 token 的 finish 块结束 E2E 与解码区间（20 个单 token 块加 finish 块上的结束 token，TPOT 为 (t_finish − t_first)/20，而不是到第 20 个块）。"
      },
      {
        en: "Tokens the server counts and streams as empty text (held-back partial UTF-8) are tokens: such a request is a success, its empty text disclosed by G8.",
        zh: "服务器计数并以空文本流出的 token（被扣留的不完整 UTF-8）也是 token：这样的请求算成功，空文本由 G8 披露。"
      },
      {
        en: "A stream the server keeps open after its terminal marker is a success that ends at its last event (the window and rates stay honest); the new gate G29 makes the point inconclusive.",
        zh: "服务器在结束标记后仍保持打开的流算成功，并以其最后一个事件为结束（窗口与速率保持真实）；新门禁 G29 使该负载点结论不确定。"
      },
      {
        en: "G8 checks the server's output count against the stream both ways; G5 compares the schedule with the declared target rate; G21 judges the actual dispatches; G4 needs the floor of the SLO percentile; G13, G14 and G24 no longer pass without evidence.",
        zh: "G8 双向核对服务器的输出计数与流；G5 将计划与声明的目标速率比较；G21 依据实际发送判断；G4 需要 SLO 分位数的下限；G13、G14 与 G24 不再在没有证据时通过。"
      },
      {
        en: "dispatch_lag_ms is the client's own lateness (t_call − t_sched); connect and TLS are connection_setup_ms. prefill_tok_s runs from the dispatch to the first token without cached prompt tokens; the server's own prefill and decode rates are shown beside ours.",
        zh: "dispatch_lag_ms 是客户端自身的延迟（t_call − t_sched）；连接与 TLS 计入 connection_setup_ms。prefill_tok_s 从实际发送算到首 token，且不计缓存的提示 token；服务器自身的预填充与解码速率与本工具的并列显示。"
      },
      {
        en: "Goodput and case SLO pass rates keep unjudgeable requests in the denominator as misses; per-request metrics get an across-repeat stability from per-repeat medians; total_throughput_tok_s is renamed input_output_throughput_tok_s (the old --json key stays as an alias for one version).",
        zh: "Goodput 与用例 SLO 通过率把无法判定的请求留在分母中计为未达标；按请求的指标依据每轮中位数给出跨轮稳定性；total_throughput_tok_s 更名为 input_output_throughput_tok_s（--json 中旧键名作为别名保留一个版本）。"
      },
      {
        en: "New gate G30 accounts for every planned request (recorded once, or noted as never sent), checks ids are unique and open-loop times match schedule.jsonl; G1 fails a manifest whose status the hashed client log contradicts.",
        zh: "新门禁 G30 清点每个计划请求（恰好记录一次，或注明未发送），检查 id 唯一且开环时间与 schedule.jsonl 一致；清单的状态与带摘要的客户端日志矛盾时 G1 失败。"
      }
    ]
  },
  {
    contract: "analyzer",
    version: "3",
    changes: [
      {
        en: "Requests that record their prompt segments (shared prefix, sessions, trace, dataset) are judged by G13 against the prefix-cache ceiling the workload allows (unbounded, and with the room the run gave a cache): hits beyond it warn, and a workload designed for hits warns when the server served under half of the room ceiling. Bundles without segments are judged as before.",
        zh: "记录了提示分段的请求（共享前缀、会话、轨迹、数据集）由 G13 对照工作负载允许的前缀缓存命中上限判断（无界缓存，以及本次运行给缓存的空间）：超出上限的命中告警；为命中而设计的工作负载若服务器命中不到空间上限的一半也告警。没有分段的证据包按原规则判断。"
      },
      {
        en: "Reasoning models: ttft_reasoning_ms, reasoning_tokens, answer_tokens and answer_decode_tok_s (decode_tok_s counts thinking tokens too); the new gate G31 warns on answers cut off by max_tokens while thinking. G5 and G21 judge trace replays against their own schedule, and a sessions workload with think time on its peak in flight. The --json alias total_throughput_tok_s is gone, as announced in analyzer 2. G12 allows, above its tolerance, the 32 tokens a chat template adds around a prompt (a scaled trace's short prompts were flagged for their template alone); below it, truncation is judged as before.",
        zh: "推理模型：新增 ttft_reasoning_ms、reasoning_tokens、answer_tokens 与 answer_decode_tok_s（decode_tok_s 也计入思考 token）；新门禁 G31 对在思考中被 max_tokens 截断的回答告警。G5 与 G21 按轨迹回放自身的计划判断；带思考时间的会话负载按峰值在途数判断。--json 中的别名 total_throughput_tok_s 按分析器版本 2 的预告移除。G12 在容差之上再允许聊天模板为提示添加的 32 个 token（按比例缩短的轨迹提示曾仅因模板被标记）；低于预期的截断仍按原规则判断。"
      }
    ]
  },
  {
    contract: "quality",
    version: "2",
    changes: [
      {
        en: "GSM8K strict and flexible are lm-evaluation-harness's strict-match and flexible-extract (its regexes, first/last match and exact-match normalisation); the earlier reading is kept as gsm8k_lenient.",
        zh: "GSM8K 的 strict 与 flexible 即 lm-evaluation-harness 的 strict-match 与 flexible-extract（其正则、取第一个/最后一个匹配以及 exact-match 归一化）；此前的读法保留为 gsm8k_lenient。"
      }
    ]
  },
  {
    contract: "analyzer",
    version: "4",
    changes: [
      {
        en: "A stream the server held open after its terminal marker still ends at its last event (latency, window and rates), but it held its client slot until the connection closed: the in-flight count (achieved_concurrency, G5) keeps it in flight until then. A closed loop whose slot waited out a server's hang no longer reads as a load generator that failed to hold its concurrency; the hang is G29's.",
        zh: "服务器在结束标记后仍保持打开的流，其结束仍以最后一个事件为准（时延、窗口与速率），但它占用客户端的并发槽位直到连接关闭：在途数（achieved_concurrency、G5）在此之前一直把它计为在途。闭环的槽位在等待服务器挂起时不再被视为负载生成器未能保持并发；挂起由 G29 判断。"
      },
      {
        en: "answer_decode_tok_s spans from the first answer token — the first token event after the thinking, a token streamed as empty text (held-back partial UTF-8) included — to where the counted tokens end; it started at the first visible content, so a held-back first token was counted without its time (a 4-token answer whose first token came 20 ms before the text read 150 tok/s instead of 75). For a model without a reasoning channel it equals decode_tok_s.",
        zh: "answer_decode_tok_s 的区间从首个回答 token（思考之后的第一个 token 事件，包括以空文本流出的 token，即被扣留的不完整 UTF-8）到计数 token 结束处；此前从第一个可见正文开始，被扣留的首 token 计入了数量却未计入时间（首 token 比文本早 20 ms 的 4 token 回答读作 150 tok/s 而非 75）。没有推理通道的模型与 decode_tok_s 相等。"
      },
      {
        en: "G8's stream count with per-event deltas leaves out a jump of the server's running count after the last text (the server's claim, not streamed tokens; one end-of-sequence token on a natural stop excepted), so a final count above the streamed tokens is flagged (8 four-token chunks then a usage chunk claiming 40 passed as 40 = 40). A jump before later text is still the buffered text's tokens (F9).",
        zh: "有逐事件增量时，G8 的流计数不计服务器累计计数在最后一段文本之后的跳变（服务器的声明，不是流出的 token；自然停止时的一个结束 token 除外），因此高于流出 token 的最终计数会被标记（8 个各含 4 token 的块后跟一个声称 40 的 usage 块，此前按 40 = 40 通过）。出现在后续文本之前的跳变仍算作被缓冲文本的 token（F9）。"
      },
      {
        en: "G1 also checks each JSONL file's record count in the manifest against the file's newline-terminated lines: a manifest edited to list another count fails, whatever the digests say.",
        zh: "G1 还核对清单中每个 JSONL 文件的记录数与文件中以换行结束的行数：被改为其他数目的清单不通过，无论摘要是否一致。"
      }
    ]
  },
  {
    contract: "analyzer",
    version: "5",
    changes: [
      {
        en: "Energy integrates power over each repeat's window and sums them, as the cost's window does; it integrated from the first repeat's start to the last one's end, so the idle time between repeats was counted (two 20.4 s repeats 9.6 s apart at 400 W read 10.08 instead of 8.16 J per output token). A negative power reading makes the energy unknown instead of lowering it.",
        zh: "能耗对每个重复的窗口分别积分功率后求和，与成本所用的窗口一致；此前从第一个重复的开始积分到最后一个重复的结束，重复之间的空闲时间也被计入（两个相隔 9.6 s、各 20.4 s 的重复在 400 W 下读作每输出 token 10.08 J，而非 8.16 J）。负的功率读数使能耗为未知，而不是把它拉低。"
      },
      {
        en: "The decode roofline reads only the active parameters' share of the weights whenever active_params is stated below the parameters, also for a model stated in the run config (it did so only for a GGUF file that names its experts). Serving GPUs of different cards get no bandwidth bound and no price (they were bound and priced as the first card), unless hardware.gpu names one card for them; hardware.gpu_count above the GPUs the fingerprint lists takes the memory from the catalogue and leaves the energy unknown (the others' power was not measured).",
        zh: "只要声明的 active_params 小于参数量，解码 roofline 只读取权重中活跃参数所占的份额，运行配置中声明的模型也是如此（此前只对写明专家数的 GGUF 文件这样做）。服务 GPU 为不同型号时，不给带宽上界也不给价格（此前按第一张卡计算），除非 hardware.gpu 为它们指定一种卡；hardware.gpu_count 大于指纹列出的 GPU 数时，显存取自目录，能耗为未知（其余 GPU 的功率未被测量）。"
      },
      {
        en: "A card or price id in the run config's hardware block that the catalogue does not know is a warning at its line (collect refuses it before the run) instead of being ignored in silence.",
        zh: "运行配置 hardware 段中目录不认识的卡或价格 id 会在其所在行给出警告（collect 在运行前拒绝），而不是被静默忽略。"
      },
      {
        en: "G1 fails more hand-edited bundles: a manifest that lists a file twice, repeats a name inside one object (JSON.parse kept the last), states a configSha256 other than the config's listed digest, or a load point whose value no longer matches its id; a JSONL record that repeats a name (at its line and column), or JSONL lines ending in CR LF. Its reason names the manifest's fault at its line, and a listed file that is a folder or a link is named so instead of missing.",
        zh: "G1 对更多被手工改动的证据包判为不通过：清单重复列出同一文件、同一对象中重复出现同名键（JSON.parse 会保留后者）、configSha256 与清单所列配置摘要不符、负载点的值与其 id 不再一致；JSONL 记录中重复出现同名键（指出其行与列），或 JSONL 行以 CR LF 结尾。其原因会指出清单的错误所在行；清单所列文件若是目录或符号链接，会如实说明而不是称其缺失。"
      }
    ]
  },
  {
    contract: "analyzer",
    version: "6",
    changes: [
      {
        en: "G3 (error rate) reads the source tool's own request counts in an import that keeps no per-request results, or keeps a sample of them: a request the tool counts as failed fails under InferScope's definition too, so a failed share above the threshold makes the run INVALID (a vLLM file whose 8 requests all failed, kept without --save-detailed, was INCONCLUSIVE with \"no measured requests\"). A lower share stays not evaluable, never a pass: the tool may count as completed what InferScope counts as failed (an empty answer, an in-band error).",
        zh: "对不含逐请求结果（或只含其抽样）的导入，G3（错误率）读取源工具自己的请求计数：源工具判为失败的请求在 InferScope 的定义下同样失败，因此失败比例超过阈值时运行判为无效（一个未用 --save-detailed 保存、8 个请求全部失败的 vLLM 文件此前为“无被测请求”的结论不确定）。较低的比例仍为不可评估，而非通过：源工具可能把 InferScope 判为失败的请求（空回答、流内错误）算作完成。"
      }
    ]
  },
  {
    contract: "analyzer",
    version: "7",
    changes: [
      {
        en: 'A gate with nothing to inspect says so instead of passing: G9 (reasoning channel) and G16 (real streaming) are not evaluable when a load point has no successful request, G19 (requests without ITL) when none succeeded or no success has an output token count; a pass over part of the successes says how many it covers. An imported aggregate with no request records showed "pass — no reasoning channel seen" although the source file counted 25,567 reasoning tokens.',
        zh: "没有可检查对象的门禁如实说明，而不是判为通过：负载点没有成功请求时，G9（推理通道）与 G16（真实流式）为不可评估；没有成功请求、或没有任何成功请求带输出 token 计数时，G19（没有 ITL 的请求）为不可评估；只覆盖部分成功请求的通过会注明覆盖了多少个。此前一个不含请求记录的导入汇总显示“通过——未见推理通道”，而源文件统计了 25,567 个推理 token。"
      },
      {
        en: "Imported SGLang results: the re-tokenized output count is read under the key SGLang's bench_serving writes (total_output_tokens_retokenized; the check looked for total_output_retokenized and never fired), and where it differs from the reported count by more than 2 % the token count and output throughput carry that qualifier. A real file reported 218,257 output tokens against 2,356 re-tokenized, and its 2,573.7 tok/s was shown without it.",
        zh: "导入的 SGLang 结果：按 SGLang bench_serving 实际写出的键（total_output_tokens_retokenized）读取重新分词后的输出计数（此前检查的是 total_output_retokenized，从未触发）；与报告计数相差超过 2 % 时，token 计数与输出吞吐量带上该限定说明。一个真实文件报告 218,257 个输出 token，重新分词只有 2,356 个，其 2,573.7 tok/s 此前未加说明。"
      }
    ]
  },
  {
    contract: "analyzer",
    version: "8",
    changes: [
      {
        en: "G1 fails when a file the analysis reads (requests, schedule, client, server or GPU metrics, quality, source, config) is not listed in the manifest: no digest covers the numbers it gives (it only warned, so a requests.jsonl dropped from the manifest and edited passed as INCONCLUSIVE). A stray file the analysis does not read stays a warning. Bytes that are not UTF-8 are an error at their line (they were read as U+FFFD without a word); a record nested thousands of levels deep is an error at its line (it crashed verify and analyze); a bad final line that ends in a newline is an error, not a torn write (a crash cuts a write before its newline), and so is a torn final line in a bundle whose manifest says complete (a crashed run is sealed as partial); a measure version this analyzer does not know is a warning.",
        zh: "分析读取的文件（requests、schedule、客户端/服务器/GPU 指标、quality、source、config）未列在清单中时，G1 判为不通过：没有任何摘要覆盖它给出的数字（此前只给警告，因此一个从清单中删去并被修改的 requests.jsonl 以“结论不确定”通过）。分析不读取的零散文件仍只给警告。不是 UTF-8 的字节在其所在行报错（此前被静默读成 U+FFFD）；嵌套数千层的记录在其所在行报错（此前使 verify 与 analyze 崩溃）；以换行结束的损坏末行是错误，而不是被截断的写入（崩溃会在换行之前截断写入），清单声称完整的证据包中的截断末行也是错误（崩溃的运行会被封存为部分完成）；本分析器不认识的测量版本给出警告。"
      },
      {
        en: "A natural stop whose finish chunk is the whole stream counts as a one-token answer only when the server counted one token (the model stopped at once); a count above one with no token streamed is an empty output, not a success whose TTFT is the finish chunk's time (a request with usage 32 and no content event read as a success with a 356 ms TTFT). G29 (streams closed) judges only streams whose terminal marker was recorded and is not evaluable without one (vLLM, SGLang, GuideLLM and AIPerf imports passed it with nothing to inspect).",
        zh: "仅当服务器只计了一个 token（模型立即停止）时，整个流只有 finish 块的自然停止才算作一个 token 的回答；计数大于一却没有流出任何 token 时为空输出，而不是以 finish 块时刻为 TTFT 的成功（一个 usage 为 32、没有任何正文事件的请求此前被读作 TTFT 356 ms 的成功）。G29（流正常关闭）只判断记录了结束标记的流，一个也没有时为不可评估（vLLM、SGLang、GuideLLM 与 AIPerf 的导入此前在没有可检查对象时通过）。"
      }
    ]
  },
  {
    contract: "analyzer",
    version: "9",
    changes: [
      {
        en: "G30 (request accounting) fails the load point that holds a record whose request id another record also carries: the bundle failed, but every load point kept its own verdict, so a point with an ambiguous record was published as VALID.",
        zh: "G30（请求清点）使包含“请求 id 与另一条记录相同”的记录的负载点不通过：此前只有证据包不通过，各负载点保留自己的判定，因此含有歧义记录的负载点仍以“有效”发布。"
      },
      {
        en: "G1 fails a record whose error text is longer than 4 KiB of UTF-8 (the collector and the importers cut it there, with a note of the bytes cut) or whose HTTP status is not a three-digit code (RFC 9110 §15): such values were accepted as written (an HTTP status of 99999 passed).",
        zh: "错误文本超过 4 KiB（UTF-8）的记录（采集器与导入器在此处截断，并注明截去的字节数），以及 HTTP 状态码不是三位数（RFC 9110 §15）的记录，G1 判为不通过：此前这些值按原样被接受（HTTP 状态 99999 也能通过）。"
      }
    ]
  }
];
