#!/usr/bin/env python3
# Lesson 1's layer on a real GPU, to check its roofline against: one layer Y = W X (W n x n, X n x B)
# timed at batch B, cold (a rotating set of weight matrices far larger than the L2, so each is read
# from HBM) and warm (one matrix, read again from L2), in FP32 (TF32 off), BF16 and FP8; and whole
# tiny networks at batch 1, where the kernel launches are the time. The calls are captured in a CUDA
# graph and replayed back to back on one stream, so the GPU's time is measured without Python's and
# PyTorch's time on the host between calls ("eager" rows: the same calls issued one by one from
# Python, for the host's cost). Timed with CUDA events.
# Needs PyTorch with CUDA. Prints CSV rows and writes them to $OUT/h200_sweep.csv when OUT is set.
import os
import sys

import torch

dev = "cuda"
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
rows = ["what,precision,cache,n,batch,seconds"]


def per_call(fn, iters, graph=True):
    for i in range(3):
        fn(i)
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    if graph:
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for i in range(iters):
                fn(i)
        g.replay()
        torch.cuda.synchronize()
        start.record()
        g.replay()
    else:
        start.record()
        for i in range(iters):
            fn(i)
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / 1e3 / iters


def layer(precision, n, batches):
    size = {"fp32": 4, "bf16": 2, "fp8": 1}[precision]
    cold_count = max(2, (512 << 20) // (n * n * size))  # 512 MB of weights: ten times the L2
    dtype = torch.float32 if precision == "fp32" else torch.bfloat16
    ws = [torch.randn(n, n, device=dev, dtype=dtype) / n**0.5 for _ in range(cold_count)]
    if precision == "fp8":
        ws = [w.to(torch.float8_e4m3fn) for w in ws]
        one = torch.tensor(1.0, device=dev)
    for b in batches:
        if precision == "fp8":
            x = torch.randn(b, n, device=dev, dtype=torch.bfloat16).to(torch.float8_e4m3fn).t()  # column-major n x b
            call = lambda w: torch._scaled_mm(w, x, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
        else:
            x = torch.randn(n, b, device=dev, dtype=dtype)
            call = lambda w: torch.mm(w, x)
        flops = 2.0 * n * n * b
        iters = int(min(200, max(8, 2e-2 / max(flops / 5e14, 1e-6)), 1e9 / (n * b * 4)))
        for cache, pick in (("cold", lambda i: ws[i % cold_count]), ("warm", lambda i: ws[0])):
            t = per_call(lambda i: call(pick(i)), iters)
            rows.append(f"layer,{precision},{cache},{n},{b},{t:.6g}")
            print(rows[-1], flush=True)
    del ws
    torch.cuda.empty_cache()


def network(widths, iters=1000):
    ws = [torch.randn(widths[i + 1], widths[i], device=dev) for i in range(len(widths) - 1)]
    x = torch.randn(widths[0], 1, device=dev)

    def run(_):
        a = x
        for w in ws:
            a = torch.mm(w, a)
        return a

    for graph in (True, False):
        t = per_call(run, iters if not graph else 200, graph)
        rows.append(f"network {'-'.join(map(str, widths))}{'' if graph else ' eager'},fp32,warm,0,1,{t:.6g}")
        print(rows[-1], flush=True)


print(torch.__version__, torch.cuda.get_device_name(0), file=sys.stderr, flush=True)
batches = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]
x0 = torch.zeros(16384, device=dev)
for graph in (True, False):  # the floor: a tiny kernel after a tiny kernel
    rows.append(f"tiny kernel{'' if graph else ' eager'},fp32,warm,0,0,{per_call(lambda i: x0.add_(1.0), 200, graph):.6g}")
    print(rows[-1], flush=True)
for precision in ("fp32", "bf16", "fp8"):
    for n in (1024, 4096):
        try:
            layer(precision, n, [b for b in batches if precision != "fp8" or b >= 16])
        except Exception as e:  # noqa: BLE001 - report and go on to the next precision
            print(f"# {precision} n={n} failed: {e}", flush=True)
for widths in ([4, 6, 6, 3], [4, 1, 1, 3], [4, 512, 512, 3], [64, 512, 512, 512, 10]):
    network(widths)
if os.environ.get("OUT"):
    with open(os.path.join(os.environ["OUT"], "h200_sweep.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")
