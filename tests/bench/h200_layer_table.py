#!/usr/bin/env python3
# The README's table of Lesson 1's GPU model against a real H200: reads the CSV that
# h200_layer_sweep.py wrote (docs/measurements/h200_layer_sweep.csv) and asks
# `math-to-metal sim layers --mode hardware --gpu h200` for the same layer or network.
# Usage: tests/bench/h200_layer_table.py [build/math-to-metal] [csv]
import csv
import json
import subprocess
import sys

app = sys.argv[1] if len(sys.argv) > 1 else "build/math-to-metal"
path = sys.argv[2] if len(sys.argv) > 2 else "docs/measurements/h200_layer_sweep.csv"


def model(widths, batch, precision, cache):
    out = subprocess.run([app, "sim", "layers", "--mode", "hardware", "--gpu", "h200", "--widths", widths,
                          "--batch", str(batch), "--precision", precision, "--cache", cache, "--json"],
                         check=True, capture_output=True, text=True).stdout
    j = json.loads(out)
    return j["gpu_time"], j["layers"][0]["gpu_bound"]


print("| what | precision | weights | batch | H200 measured | model | measured / model | model's bound |")
print("|---|---|---|---|---|---|---|---|")
for row in csv.DictReader(open(path)):
    what = row["what"]
    if "eager" in what or what == "tiny kernel":
        continue
    if what == "layer":
        n = row["n"]
        widths, label = f"{n},{n}", f"layer {n} x {n}"
    else:
        widths, label = what.split()[1].replace("-", ","), what
    batch = int(row["batch"])
    predicted, bound = model(widths, batch, row["precision"], row["cache"])
    measured = float(row["seconds"])
    print(f"| {label} | {row['precision']} | {row['cache']} | {batch} | {measured * 1e6:.1f} us | "
          f"{predicted * 1e6:.1f} us | {measured / predicted:.2f} | {bound} |")
