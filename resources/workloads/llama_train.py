#!/usr/bin/env python3
"""Train a small, randomly initialised Hugging Face Llama on random tokens: the single-GPU workload traced by
the CNP collector and used for single-GPU ablations.

Each step runs inside an NVTX range "step N" (and, under --profile, a torch.profiler record_function of the
same name) and prints one line: `step N: <ms> ms, <tokens/s> tokens/s, loss <x>`. Step time is wall-clock
from the step's start to torch.cuda.synchronize() at its end.

  python3 llama_train.py --layers 8 --hidden 1536 --batch 4 --seq 2048 --steps 20 [--compile] [--grad-ckpt]
  --json-out FILE   write {"config": ..., "step_ms": [...], "tokens_per_step": ...} when done
  --profile FILE    run under torch.profiler (CPU+CUDA) and write per-step kernel counts (kernels whose
                    launching runtime/driver call lies inside the step's range) into the --json-out file;
                    FILE receives the Chrome trace (gzip if it ends in .gz)
"""
import argparse
import gzip
import json
import os
import sys
import time


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--layers", type=int, default=8)
    p.add_argument("--hidden", type=int, default=1536)
    p.add_argument("--ffn", type=int, default=0, help="intermediate size (default 8/3 * hidden, rounded to 256)")
    p.add_argument("--heads", type=int, default=16)
    p.add_argument("--kv-heads", type=int, default=8)
    p.add_argument("--vocab", type=int, default=32000)
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--seq", type=int, default=2048)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--compile", action="store_true", help="torch.compile the model")
    p.add_argument("--grad-ckpt", action="store_true", help="activation (gradient) checkpointing")
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json-out", default="")
    p.add_argument("--profile", default="", help="Chrome trace output file; enables torch.profiler")
    return p.parse_args()


def kernel_counts_per_step(trace):
    """Kernels per "step N" range of a torch.profiler Chrome trace, joined to their launch by correlation."""
    events = trace.get("traceEvents", [])
    launches = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver"):
            corr = e.get("args", {}).get("correlation")
            if corr is not None:
                launches[corr] = e["ts"]
    steps = sorted((e["ts"], e["ts"] + e["dur"], e["name"]) for e in events
                   if e.get("ph") == "X" and e.get("cat") == "user_annotation" and e["name"].startswith("step "))
    counts = {name: 0 for _, _, name in steps}
    for e in events:
        if e.get("ph") != "X" or e.get("cat") != "kernel":
            continue
        ts = launches.get(e.get("args", {}).get("correlation"))
        if ts is None:
            continue
        for s, t, name in steps:
            if s <= ts <= t:
                counts[name] += 1
                break
    return counts


def main():
    args = parse_args()
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(args.seed)
    ffn = args.ffn or (int(args.hidden * 8 / 3) + 255) // 256 * 256
    cfg = LlamaConfig(vocab_size=args.vocab, hidden_size=args.hidden, intermediate_size=ffn,
                      num_hidden_layers=args.layers, num_attention_heads=args.heads,
                      num_key_value_heads=args.kv_heads, max_position_embeddings=max(args.seq, 2048))
    dev = torch.device("cuda")
    model = LlamaForCausalLM(cfg).to(dev)
    if args.grad_ckpt:
        model.gradient_checkpointing_enable()
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, fused=True)
    fwd = torch.compile(model) if args.compile else model
    params = sum(p.numel() for p in model.parameters())
    tokens = args.batch * args.seq
    data = torch.randint(0, args.vocab, (args.batch, args.seq), device=dev)
    print(f"llama_train: {params / 1e6:.1f}M parameters, {args.layers} layers, hidden {args.hidden}, ffn {ffn}, "
          f"batch {args.batch} x seq {args.seq}, compile={args.compile}, grad_ckpt={args.grad_ckpt}", flush=True)

    prof = None
    if args.profile:
        from torch.profiler import ProfilerActivity, profile
        prof = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=False)
        prof.__enter__()

    step_ms = []
    for i in range(args.steps):
        name = f"step {i}"
        t0 = time.perf_counter()
        torch.cuda.nvtx.range_push(name)
        ann = None
        if prof is not None:
            ann = torch.profiler.record_function(name)
            ann.__enter__()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            out = fwd(input_ids=data, labels=data)
        out.loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        if ann is not None:
            ann.__exit__(None, None, None)
        torch.cuda.nvtx.range_pop()
        ms = (time.perf_counter() - t0) * 1e3
        step_ms.append(ms)
        print(f"step {i}: {ms:.2f} ms, {tokens / ms * 1e3:.0f} tokens/s, loss {out.loss.item():.4f}", flush=True)

    result = {"config": vars(args), "parameters": params, "tokens_per_step": tokens, "step_ms": step_ms,
              "device": torch.cuda.get_device_name(0), "torch": torch.__version__}
    if prof is not None:
        prof.__exit__(None, None, None)
        raw = args.profile[:-3] if args.profile.endswith(".gz") else args.profile
        prof.export_chrome_trace(raw)
        with open(raw) as f:
            trace = json.load(f)
        result["profiler_kernels_per_step"] = kernel_counts_per_step(trace)
        if args.profile.endswith(".gz"):
            with open(raw, "rb") as f, gzip.open(args.profile, "wb") as g:
                g.write(f.read())
            os.remove(raw)
    maps = [l.split()[-1] for l in open("/proc/self/maps") if "cupti" in l or "cnp-collector" in l]
    result["loaded_cupti"] = sorted(set(maps))
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
