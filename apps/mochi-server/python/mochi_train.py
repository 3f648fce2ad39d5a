"""LoRA fine-tuning for `mochi train` on token ids.

The samples are JSON lines `{"ids": [...], "prompt_tokens": N}` that `mochi train` writes with the
base GGUF's own tokenizer (node-llama-cpp): the ids the model is served, so no Hugging Face
tokenizer is involved here. Loss is taken on ids[N:] (the completion and its end token).

Backends:
- peft: transformers + peft, on CUDA when torch sees a GPU, else on the CPU.
- mlx: mlx-lm on Apple Silicon (LoRA layers from mlx_lm.tuner); writes an mlx_lm adapter
  directory (adapters.safetensors + adapter_config.json), which `mochi adapter convert` reads.

Output directory:
- best/: the adapter with the lowest validation loss so far (+ training_metadata.json);
- checkpoint/: the last evaluated state for --resume (peft: adapter, optimizer, step, best, random
  states; mlx: adapter, step, best — the optimizer starts afresh);
both written to a temporary directory first and renamed into place, so neither is ever half made.

Progress: one JSON object a line on stdout ("start", "step", "eval", "done"); errors end the
process with a non-zero status and a message on stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import sys
import time
from pathlib import Path

DEFAULT_TARGETS = "q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj"


def emit(event: str, **fields: object) -> None:
    print(json.dumps({"event": event, **fields}), flush=True)


def read_samples(path: Path, max_length: int) -> list[tuple[list[int], int]]:
    samples = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            record = json.loads(line)
            ids = [int(i) for i in record["ids"]]
            prompt = int(record["prompt_tokens"])
            if not 0 < prompt < len(ids):
                raise ValueError(
                    f"{path}:{number}: prompt_tokens must be in 1..{len(ids) - 1}, got {prompt}"
                )
            if len(ids) > max_length:
                # `mochi train` shortens prompts as the server does; what is still too long is left out, never cut.
                continue
            samples.append((ids, prompt))
    return samples


def batches(samples: list, batch_size: int, rng: random.Random) -> list[list]:
    order = list(range(len(samples)))
    rng.shuffle(order)
    return [
        [samples[i] for i in order[k : k + batch_size]]
        for k in range(0, len(order), batch_size)
    ]


def replace_dir(staging: Path, target: Path) -> None:
    """Moves a complete directory into place: the old one goes only once the new one is whole."""
    old = target.with_name(target.name + ".old")
    if old.exists():
        shutil.rmtree(old)
    if target.exists():
        target.rename(old)
    staging.rename(target)
    if old.exists():
        shutil.rmtree(old)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="LoRA fine-tuning on token-id JSONL files (mochi train)."
    )
    parser.add_argument("--backend", choices=["peft", "mlx"], default="peft")
    parser.add_argument(
        "--base",
        required=True,
        help="Hugging Face model directory (peft) or mlx model (mlx)",
    )
    parser.add_argument("--train", required=True, type=Path)
    parser.add_argument("--valid", required=True, type=Path)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--rank", type=int, default=8)
    parser.add_argument("--alpha", type=float, default=16.0)
    parser.add_argument("--rslora", action="store_true")
    parser.add_argument("--dropout", type=float, default=0.0)
    parser.add_argument(
        "--targets", default=DEFAULT_TARGETS, help="comma-separated module names"
    )
    parser.add_argument("--epochs", type=float, default=None)
    parser.add_argument("--minutes", type=float, default=None)
    parser.add_argument("--max-steps", type=int, default=None)
    parser.add_argument("--lr", type=float, default=2e-4)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--max-length", type=int, default=2048)
    parser.add_argument("--eval-every", type=int, default=50)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args(argv)
    if args.epochs is None and args.minutes is None and args.max_steps is None:
        args.epochs = 3.0
    for name in ("rank", "batch_size", "max_length", "eval_every"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    return args


class Plan:
    """When training stops: after --epochs, --max-steps or --minutes, whichever comes first."""

    def __init__(self, args: argparse.Namespace, steps_per_epoch: int) -> None:
        limits = []
        if args.epochs is not None:
            limits.append(max(1, math.ceil(args.epochs * steps_per_epoch)))
        if args.max_steps is not None:
            limits.append(args.max_steps)
        self.total_steps = min(limits) if limits else None
        self.deadline = (
            time.monotonic() + args.minutes * 60 if args.minutes is not None else None
        )

    def done(self, step: int) -> bool:
        if self.total_steps is not None and step >= self.total_steps:
            return True
        return self.deadline is not None and time.monotonic() >= self.deadline

    def eta(self, step: int, seconds_per_step: float) -> float | None:
        left = []
        if self.total_steps is not None:
            left.append((self.total_steps - step) * seconds_per_step)
        if self.deadline is not None:
            left.append(self.deadline - time.monotonic())
        return round(max(0.0, min(left)), 1) if left else None


def train_peft(args: argparse.Namespace, train: list, valid: list) -> None:
    import torch
    from peft import LoraConfig, get_peft_model, set_peft_model_state_dict
    from transformers import AutoModelForCausalLM

    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = AutoModelForCausalLM.from_pretrained(str(args.base), dtype=torch.float32)
    config = LoraConfig(
        r=args.rank,
        lora_alpha=args.alpha,
        use_rslora=args.rslora,
        lora_dropout=args.dropout,
        target_modules=[t for t in args.targets.split(",") if t],
        bias="none",
        task_type="CAUSAL_LM",
    )
    model = get_peft_model(model, config)
    model.to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.0)
    pad = 0

    def tensors(batch: list) -> tuple:
        width = max(len(ids) for ids, _ in batch)
        input_ids = torch.full((len(batch), width), pad, dtype=torch.long)
        mask = torch.zeros((len(batch), width), dtype=torch.long)
        labels = torch.full((len(batch), width), -100, dtype=torch.long)
        for row, (ids, prompt) in enumerate(batch):
            input_ids[row, : len(ids)] = torch.tensor(ids)
            mask[row, : len(ids)] = 1
            labels[row, prompt : len(ids)] = torch.tensor(ids[prompt:])
        return input_ids.to(device), mask.to(device), labels.to(device)

    def batch_loss(batch: list) -> tuple:
        input_ids, mask, labels = tensors(batch)
        logits = model(input_ids=input_ids, attention_mask=mask).logits[:, :-1, :]
        targets = labels[:, 1:]
        total = torch.nn.functional.cross_entropy(
            logits.reshape(-1, logits.size(-1)).float(),
            targets.reshape(-1),
            ignore_index=-100,
            reduction="sum",
        )
        count = int((targets != -100).sum())
        return total, count

    def validation_loss() -> float:
        model.eval()
        total, count = 0.0, 0
        with torch.no_grad():
            for k in range(0, len(valid), args.batch_size):
                loss, n = batch_loss(valid[k : k + args.batch_size])
                total += float(loss)
                count += n
        model.train()
        return total / max(1, count)

    def save_adapter(target: Path, metadata: dict, state: dict | None = None) -> None:
        staging = target.with_name(target.name + ".tmp")
        if staging.exists():
            shutil.rmtree(staging)
        model.save_pretrained(str(staging))
        (staging / "training_metadata.json").write_text(
            json.dumps(metadata, indent=2) + "\n"
        )
        if state is not None:
            torch.save(state, staging / "trainer.pt")
        replace_dir(staging, target)

    rng = random.Random(args.seed)
    steps_per_epoch = math.ceil(len(train) / args.batch_size)
    plan = Plan(args, steps_per_epoch)
    step, best, history = 0, None, []
    checkpoint = args.out / "checkpoint"
    if args.resume and (checkpoint / "trainer.pt").exists():
        from safetensors.torch import load_file

        state = torch.load(checkpoint / "trainer.pt", weights_only=False)
        set_peft_model_state_dict(
            model,
            load_file(str(checkpoint / "adapter_model.safetensors"), device=device),
        )
        optimizer.load_state_dict(state["optimizer"])
        step, best, history = state["step"], state["best"], state["history"]
        rng.setstate(state["rng"])
        torch.set_rng_state(state["torch_rng"])
        # The time budget counts from now: a resumed run gets --minutes again.
    model.train()
    emit(
        "start",
        device=device,
        train_samples=len(train),
        valid_samples=len(valid),
        steps_per_epoch=steps_per_epoch,
        total_steps=plan.total_steps,
        trainable_parameters=sum(p.numel() for p in params),
        resumed_from=step if step > 0 else None,
    )

    def evaluate() -> None:
        nonlocal best
        val = validation_loss()
        improved = best is None or val < best["val_loss"]
        if improved:
            best = {"step": step, "val_loss": val}
        history.append({"step": step, "val_loss": val})
        metadata = {
            "backend": "peft",
            "base": str(args.base),
            "step": step,
            "epoch": round(step / steps_per_epoch, 3),
            "val_loss": val,
            "best": best,
            "history": history,
            "rank": args.rank,
            "alpha": args.alpha,
            "rslora": args.rslora,
            "lr": args.lr,
            "seed": args.seed,
            "train_samples": len(train),
            "valid_samples": len(valid),
        }
        if improved:
            save_adapter(args.out / "best", metadata)
        state = {
            "optimizer": optimizer.state_dict(),
            "step": step,
            "best": best,
            "history": history,
            "rng": rng.getstate(),
            "torch_rng": torch.get_rng_state(),
        }
        save_adapter(checkpoint, metadata, state)
        emit(
            "eval",
            step=step,
            val_loss=round(val, 5),
            best_step=best["step"],
            best_val_loss=round(best["val_loss"], 5),
        )

    if step == 0:
        evaluate()
    started = time.monotonic()
    tokens = 0
    steps_here = 0
    epoch_batches: list = []
    skip = step % steps_per_epoch
    while not plan.done(step):
        if not epoch_batches:
            epoch_batches = batches(train, args.batch_size, rng)
            if skip:
                epoch_batches = epoch_batches[skip:]
                skip = 0
        batch = epoch_batches.pop(0)
        loss, count = batch_loss(batch)
        optimizer.zero_grad(set_to_none=True)
        (loss / max(1, count)).backward()
        optimizer.step()
        step += 1
        steps_here += 1
        tokens += sum(len(ids) for ids, _ in batch)
        elapsed = time.monotonic() - started
        emit(
            "step",
            step=step,
            epoch=round(step / steps_per_epoch, 3),
            loss=round(float(loss.detach()) / max(1, count), 5),
            tokens_per_s=round(tokens / elapsed, 1) if elapsed > 0 else None,
            eta_s=plan.eta(step, elapsed / steps_here),
            total_steps=plan.total_steps,
        )
        if step % args.eval_every == 0 or plan.done(step):
            evaluate()
    emit(
        "done",
        steps=step,
        best_step=best["step"],
        best_val_loss=round(best["val_loss"], 5),
        best_dir=str(args.out / "best"),
    )


def train_mlx(args: argparse.Namespace, train: list, valid: list) -> None:
    """mlx-lm's LoRA layers trained on the same ids. Runs only where mlx runs (Apple Silicon)."""
    import mlx.core as mx
    import mlx.optimizers as optim
    from mlx import nn
    from mlx.utils import tree_flatten
    from mlx_lm import load
    from mlx_lm.tuner.utils import linear_to_lora_layers

    mx.random.seed(args.seed)
    model, _tokenizer = load(str(args.base))
    model.freeze()
    targets = [t for t in args.targets.split(",") if t]
    # mlx_lm's keys are paths inside a layer (self_attn.q_proj, mlp.gate_proj): match on the last part.
    keys = sorted(
        {
            name.split(".layers.", 1)[1].split(".", 1)[1]
            for name, _ in model.named_modules()
            if ".layers." in name and name.split(".")[-1] in targets
        }
    )
    scale = args.alpha / math.sqrt(args.rank) if args.rslora else args.alpha / args.rank
    lora = {"rank": args.rank, "scale": scale, "dropout": args.dropout, "keys": keys}
    layers = len(model.layers)
    linear_to_lora_layers(model, layers, lora)
    optimizer = optim.AdamW(learning_rate=args.lr)

    def loss_fn(model, inputs, labels, mask):
        logits = model(inputs)
        ce = nn.losses.cross_entropy(logits, labels) * mask
        return ce.sum() / mask.sum(), mask.sum()

    def arrays(batch):
        width = max(len(ids) for ids, _ in batch) - 1
        inputs, labels, mask = [], [], []
        for ids, prompt in batch:
            pad = width - (len(ids) - 1)
            inputs.append(ids[:-1] + [0] * pad)
            labels.append(ids[1:] + [0] * pad)
            mask.append(
                [0.0] * (prompt - 1) + [1.0] * (len(ids) - prompt) + [0.0] * pad
            )
        return mx.array(inputs), mx.array(labels), mx.array(mask)

    grad = nn.value_and_grad(model, loss_fn)

    def validation_loss() -> float:
        total, count = 0.0, 0.0
        for k in range(0, len(valid), args.batch_size):
            loss, n = loss_fn(model, *arrays(valid[k : k + args.batch_size]))
            total += float(loss) * float(n)
            count += float(n)
        return total / max(1.0, count)

    def save(target: Path, metadata: dict) -> None:
        staging = target.with_name(target.name + ".tmp")
        if staging.exists():
            shutil.rmtree(staging)
        staging.mkdir(parents=True)
        mx.save_safetensors(
            str(staging / "adapters.safetensors"),
            dict(tree_flatten(model.trainable_parameters())),
        )
        config = {
            "fine_tune_type": "lora",
            "num_layers": layers,
            "lora_parameters": lora,
            "model": str(args.base),
        }
        (staging / "adapter_config.json").write_text(
            json.dumps(config, indent=2) + "\n"
        )
        (staging / "training_metadata.json").write_text(
            json.dumps(metadata, indent=2) + "\n"
        )
        replace_dir(staging, target)

    rng = random.Random(args.seed)
    steps_per_epoch = math.ceil(len(train) / args.batch_size)
    plan = Plan(args, steps_per_epoch)
    step, best, history = 0, None, []
    checkpoint = args.out / "checkpoint"
    if args.resume and (checkpoint / "adapters.safetensors").exists():
        model.load_weights(str(checkpoint / "adapters.safetensors"), strict=False)
        meta = json.loads((checkpoint / "training_metadata.json").read_text())
        step, best, history = meta["step"], meta["best"], meta["history"]
    emit(
        "start",
        device="mlx",
        train_samples=len(train),
        valid_samples=len(valid),
        steps_per_epoch=steps_per_epoch,
        total_steps=plan.total_steps,
        resumed_from=step if step > 0 else None,
    )

    def evaluate() -> None:
        nonlocal best
        val = validation_loss()
        improved = best is None or val < best["val_loss"]
        if improved:
            best = {"step": step, "val_loss": val}
        history.append({"step": step, "val_loss": val})
        metadata = {
            "backend": "mlx",
            "base": str(args.base),
            "step": step,
            "val_loss": val,
            "best": best,
            "history": history,
            "rank": args.rank,
            "alpha": args.alpha,
            "rslora": args.rslora,
            "lr": args.lr,
            "seed": args.seed,
        }
        if improved:
            save(args.out / "best", metadata)
        save(checkpoint, metadata)
        emit(
            "eval",
            step=step,
            val_loss=round(val, 5),
            best_step=best["step"],
            best_val_loss=round(best["val_loss"], 5),
        )

    if step == 0:
        evaluate()
    started, tokens, steps_here, epoch_batches = time.monotonic(), 0, 0, []
    while not plan.done(step):
        if not epoch_batches:
            epoch_batches = batches(train, args.batch_size, rng)
        batch = epoch_batches.pop(0)
        (loss, _count), grads = grad(model, *arrays(batch))
        optimizer.update(model, grads)
        mx.eval(model.parameters(), optimizer.state, loss)
        step += 1
        steps_here += 1
        tokens += sum(len(ids) for ids, _ in batch)
        elapsed = time.monotonic() - started
        emit(
            "step",
            step=step,
            epoch=round(step / steps_per_epoch, 3),
            loss=round(float(loss), 5),
            tokens_per_s=round(tokens / elapsed, 1) if elapsed > 0 else None,
            eta_s=plan.eta(step, elapsed / steps_here),
            total_steps=plan.total_steps,
        )
        if step % args.eval_every == 0 or plan.done(step):
            evaluate()
    emit(
        "done",
        steps=step,
        best_step=best["step"],
        best_val_loss=round(best["val_loss"], 5),
        best_dir=str(args.out / "best"),
    )


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    random.seed(args.seed)
    train = read_samples(args.train, args.max_length)
    valid = read_samples(args.valid, args.max_length)
    if not train:
        print(f"mochi_train: no training samples in {args.train}", file=sys.stderr)
        return 1
    if not valid:
        print(f"mochi_train: no validation samples in {args.valid}", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    if args.backend == "mlx":
        train_mlx(args, train, valid)
    else:
        train_peft(args, train, valid)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
