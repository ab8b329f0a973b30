#!/usr/bin/env python3
"""vLLM's benchmark request function, driven the way `vllm bench serve --max-concurrency C` drives it.

For `npm run bench:client -- --external` (issue 17): a side-by-side with InferScope's collector under one
counting, where the whole of vLLM is not installed. The request function is vLLM's own, imported from an
installed vLLM (`vllm.benchmarks.lib.endpoint_request_func`) or from that file in a checkout
(`--request-func-file`); this driver adds only what vLLM's benchmark loop does around it: one aiohttp
session with a keep-alive pool, a semaphore of C, every request started at once (request rate inf).
Needs Python ≥ 3.10 with aiohttp and tqdm (Debian: python3-aiohttp python3-tqdm python3-regex).

  python3 scripts/peers/vllm_client.py --base-url {base_url} --model {model} --requests {requests} \
      --concurrency {streams} --output-len {tokens} [--request-func-file PATH]
"""
import argparse
import asyncio
import importlib.util
import sys


def request_function(path):
    if path is None:
        from vllm.benchmarks.lib import endpoint_request_func as module  # noqa: PLC0415
    else:
        spec = importlib.util.spec_from_file_location("endpoint_request_func", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return module


async def main(a):
    import aiohttp  # noqa: PLC0415

    m = request_function(a.request_func_file)
    connector = aiohttp.TCPConnector(limit=a.concurrency, keepalive_timeout=60, force_close=False)
    semaphore = asyncio.Semaphore(a.concurrency)
    url = a.base_url.rstrip("/") + "/chat/completions"

    async with aiohttp.ClientSession(connector=connector, timeout=m.AIOHTTP_TIMEOUT, trust_env=True) as session:

        async def one(i):
            async with semaphore:
                return await m.async_request_openai_chat_completions(
                    m.RequestFuncInput(
                        prompt="benchmark the client",
                        api_url=url,
                        prompt_len=16,
                        output_len=a.output_len,
                        model=a.model,
                        ignore_eos=True,
                        request_id=f"vllm-{i}",
                    ),
                    session,
                )

        outputs = await asyncio.gather(*(one(i) for i in range(a.requests)))
    ok = sum(1 for o in outputs if o.success)
    print(f"{ok}/{a.requests} succeeded")
    return 0 if ok == a.requests else 1


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base-url", required=True)
    p.add_argument("--model", default="fake-model")
    p.add_argument("--requests", type=int, required=True)
    p.add_argument("--concurrency", type=int, required=True)
    p.add_argument("--output-len", type=int, default=64)
    p.add_argument("--request-func-file", default=None)
    sys.exit(asyncio.run(main(p.parse_args())))
