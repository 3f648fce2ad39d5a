"""Benchmark (issue 18 item 8): mochi train's trainer against a plain transformers + peft loop.

Both train the same LoRA (rank 8, q/k/v/o + MLP) on the same random Llama (hidden 256, 4 layers,
vocabulary 512, float32, CPU unless torch sees a GPU) with the same token-id samples (seeded:
lengths 200-600, the first 70 % prompt), batches of 4, AdamW at 2e-4, for the same number of steps:
- mochi: apps/mochi-server/python/mochi_train.py as `mochi train` runs it (a process; its own
  tokens/s from its last step line, which leaves out loading and the step-0 validation);
- plain: the textbook loop in this process — model(input_ids, attention_mask, labels) with the
  prompt's labels at -100, loss.backward(), optimizer.step() — timed over the same steps.
Rounds alternate the two. Target: mochi ≥ 0.9× plain. Size: BENCH_TRAIN_STEPS (default 30),
BENCH_TRAIN_ROUNDS (default 3). CUDA_VISIBLE_DEVICES="" keeps both on the CPU.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch
from peft import LoraConfig, get_peft_model
from transformers import LlamaConfig, LlamaForCausalLM

ROOT = Path(__file__).resolve().parent.parent
TRAINER = ROOT / "apps" / "mochi-server" / "python" / "mochi_train.py"
STEPS = int(os.environ.get("BENCH_TRAIN_STEPS", "30"))
ROUNDS = int(os.environ.get("BENCH_TRAIN_ROUNDS", "3"))
BATCH = 4
TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


def write_data(work: Path) -> list[tuple[list[int], int]]:
    rng = random.Random(7)
    samples = []
    for _ in range(BATCH * STEPS):
        length = rng.randrange(200, 600)
        ids = [1] + [rng.randrange(3, 512) for _ in range(length - 2)] + [2]
        samples.append((ids, int(length * 0.7)))
    for name, part in (("train", samples), ("valid", samples[:8])):
        with (work / f"{name}.jsonl").open("w") as handle:
            for ids, prompt in part:
                handle.write(json.dumps({"ids": ids, "prompt_tokens": prompt}) + "\n")
    return samples


def plain(base: Path, samples: list[tuple[list[int], int]], device: str) -> float:
    """Tokens a second of the textbook loop over the samples in order."""
    torch.manual_seed(42)
    model = LlamaForCausalLM.from_pretrained(str(base), dtype=torch.float32)
    model = get_peft_model(
        model,
        LoraConfig(
            r=8,
            lora_alpha=16,
            target_modules=TARGETS,
            bias="none",
            task_type="CAUSAL_LM",
        ),
    ).to(device)
    optimizer = torch.optim.AdamW(
        [p for p in model.parameters() if p.requires_grad], lr=2e-4
    )
    model.train()
    tokens = 0
    started = time.perf_counter()
    for step in range(STEPS):
        batch = samples[step * BATCH : (step + 1) * BATCH]
        width = max(len(ids) for ids, _ in batch)
        input_ids = torch.zeros((len(batch), width), dtype=torch.long)
        mask = torch.zeros((len(batch), width), dtype=torch.long)
        labels = torch.full((len(batch), width), -100, dtype=torch.long)
        for row, (ids, prompt) in enumerate(batch):
            input_ids[row, : len(ids)] = torch.tensor(ids)
            mask[row, : len(ids)] = 1
            labels[row, prompt : len(ids)] = torch.tensor(ids[prompt:])
        loss = model(
            input_ids=input_ids.to(device),
            attention_mask=mask.to(device),
            labels=labels.to(device),
        ).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        tokens += sum(len(ids) for ids, _ in batch)
    if device == "cuda":
        torch.cuda.synchronize()
    return tokens / (time.perf_counter() - started)


def mochi(base: Path, work: Path, out: Path) -> float:
    """Tokens a second mochi_train.py reports at its last step."""
    args = [
        sys.executable,
        str(TRAINER),
        "--base",
        str(base),
        "--train",
        str(work / "train.jsonl"),
    ]
    args += [
        "--valid",
        str(work / "valid.jsonl"),
        "--out",
        str(out),
        "--max-steps",
        str(STEPS),
    ]
    args += [
        "--eval-every",
        str(STEPS * 10),
        "--batch-size",
        str(BATCH),
        "--rank",
        "8",
        "--alpha",
        "16",
    ]
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    steps = [
        json.loads(line)
        for line in done.stdout.splitlines()
        if line.startswith('{"event": "step"')
    ]
    return float(steps[-1]["tokens_per_s"])


def main() -> None:
    device = "cuda" if torch.cuda.is_available() else "cpu"
    with tempfile.TemporaryDirectory(prefix="bench-mochi-train-") as scratch:
        work = Path(scratch)
        torch.manual_seed(0)
        config = LlamaConfig(
            vocab_size=512,
            hidden_size=256,
            intermediate_size=688,
            num_hidden_layers=4,
            num_attention_heads=8,
            num_key_value_heads=4,
            max_position_embeddings=1024,
        )
        LlamaForCausalLM(config).save_pretrained(str(work / "model"))
        samples = write_data(work)
        print(
            f"device {device}, torch threads {torch.get_num_threads()}, {STEPS} steps of {BATCH} samples, load {os.getloadavg()[0]:.1f}"
        )
        ratios = []
        for round_ in range(ROUNDS):
            ours = mochi(work / "model", work, work / f"run-{round_}")
            theirs = plain(work / "model", samples, device)
            ratios.append(ours / theirs)
            print(
                f"round {round_ + 1}: mochi {ours:,.0f} tok/s, plain {theirs:,.0f} tok/s, ratio {ours / theirs:.2f}×"
            )
        print(
            f"median ratio {statistics.median(ratios):.2f}× (target ≥ 0.9×), load {os.getloadavg()[0]:.1f}"
        )


if __name__ == "__main__":
    main()
