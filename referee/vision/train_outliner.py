"""``python -m referee.vision.train_outliner``: train the outliner (``referee.vision.outline``)
on synthetic photos and write ``outliner.onnx`` beside the reader's other networks.

Needs the ``train`` extra, as ``referee.vision.train`` does. The outliner learns from marks
misdrawn around the tiles of training scenes (``examples.misdrawn``) where each tile truly
lies; the finder and the counter are not needed to train it. At the end the validation
scenes (seeds the training never draws) are read by the reader in ``--reader`` with and
without the new outliner, and the figures of both are printed and kept in ``reader.json``.
The same seed and step count give the same network on the same machine.

    python -m referee.vision.train_outliner [--steps N | --minutes M] [--seed S] [--out FOLDER]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from referee.vision import geometry as g
from referee.vision import outline
from referee.vision import scenes as scene_drawing
from referee.vision.examples import VALIDATION_SEED, outline_examples, scene_for
from referee.vision.model import (
    MODELS,
    OUTLINER,
    PIP_COUNTERS,
    SECOND_LOOK_FINDER,
    TILE_COUNTERS,
    Reader,
    load,
    read_rgb,
)
from referee.vision.scenes import labelled
from referee.vision.train import conv, exact_reads, match_reads, scheduled_lr, worker_scene_seeds

FILE = "outliner.onnx"


class Outliner(nn.Module):  # type: ignore[misc]
    """Four halvings of the square (64 to 4 pixels) and a small head saying the outline."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv(3, 24), conv(24, 32, 2),  # 32 x 32
            conv(32, 48), conv(48, 48, 2),  # 16 x 16
            conv(48, 64), conv(64, 64, 2),  # 8 x 8
            conv(64, 96), conv(96, 96, 2),  # 4 x 4
        )  # fmt: skip
        self.head = nn.Sequential(
            nn.Flatten(), nn.Linear(96 * 16, 128), nn.ReLU(inplace=True), nn.Linear(128, outline.OUTLINE_OUTPUTS)
        )  # fmt: skip

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))  # type: ignore[no-any-return]


class Squares(torch.utils.data.IterableDataset):  # type: ignore[misc]
    """The outliner's examples of training scenes ``seed`` * 10,000,000 + 0, 1, 2 …"""

    def __init__(self, seed: int, other_makers: float) -> None:
        self.seed, self.other_makers = seed, other_makers

    def __iter__(self) -> Any:
        scene_drawing.OTHER_MAKERS_SHARE = self.other_makers  # in each worker, however started
        for scene_seed in worker_scene_seeds(self.seed):
            scene, _factor = scene_for(scene_seed)
            squares, targets = outline_examples(scene, random.Random(scene_seed + 7))
            if squares:
                yield np.stack(squares), np.stack(targets)


def _collate(batch: list[Any]) -> tuple[torch.Tensor, torch.Tensor]:
    return (
        torch.from_numpy(np.concatenate([squares for squares, _t in batch])),
        torch.from_numpy(np.concatenate([targets for _s, targets in batch])),
    )


def outline_loss(output: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Where the centre lies and how long and wide the tile is (smooth L1), and its direction
    (the squared distance between the cos 2δ, sin 2δ said and wanted)."""
    places = [outline.CENTRE_X, outline.CENTRE_Y, outline.LOG_LENGTH, outline.LOG_WIDTH]
    turn = [outline.COS, outline.SIN]
    shape = F.smooth_l1_loss(output[:, places], target[:, places], beta=0.05) * len(places) / 2
    return shape + F.mse_loss(output[:, turn], target[:, turn]) * len(turn) / 2


def train(args: argparse.Namespace) -> Outliner:
    torch.manual_seed(args.seed)
    net = Outliner()
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    loader = torch.utils.data.DataLoader(
        Squares(args.seed, scene_drawing.OTHER_MAKERS_SHARE), batch_size=args.batch, num_workers=args.workers,
        collate_fn=_collate, persistent_workers=args.workers > 0, prefetch_factor=4 if args.workers > 0 else None,
    )  # fmt: skip
    start = time.monotonic()
    budget = args.minutes * 60 if args.minutes else math.inf
    net.train()
    step = 0
    for squares, targets in loader:
        progress = max(step / args.steps, (time.monotonic() - start) / budget)
        if progress >= 1:
            break
        for group in optimiser.param_groups:
            group["lr"] = scheduled_lr(args.lr, progress)
        x = torch.from_numpy(g.normalise(squares.numpy()).transpose(0, 3, 1, 2).copy())
        loss = outline_loss(net(x), targets)
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 5.0)
        optimiser.step()
        if step % 50 == 0:
            print(
                f"step {step}/{args.steps}: outliner {loss.item():.3f}, {time.monotonic() - start:.0f} s",
                flush=True,
            )
        step += 1
    args.steps_done = step
    return net.eval()


def export(net: Outliner, path: Path) -> None:
    with torch.no_grad():
        torch.onnx.export(
            net, (torch.zeros(4, 3, outline.OUTLINE_SIDE, outline.OUTLINE_SIDE),), str(path),
            input_names=["squares"], output_names=["outline"],
            dynamic_axes={"squares": {0: "n"}, "outline": {0: "n"}}, opset_version=17, dynamo=False,
        )  # fmt: skip


def measure(reader: Reader, count: int, with_outliner: bool) -> dict[str, Any]:
    """The validation scenes 0 to ``count`` - 1 read at the reader's own settings: the share
    of the tiles a person would list read exact, and the tiles read where none lies."""
    labelled_tiles = exact = read = phantoms = 0
    for i in range(count):
        scene, _factor = scene_for(VALIDATION_SEED + i)
        truth = labelled(scene)
        found = read_rgb(
            scene.rgb, 18, reader.finder, reader.counter, reader.settings, reader.tile_counter,
            reader.outliner if with_outliner else None, reader.second_look_finder,
        )  # fmt: skip
        labelled_tiles += len(truth)
        read += len(found)
        exact += exact_reads(found, truth)
        phantoms += sum(tile is None for _item, tile in match_reads(found, scene.tiles))
    return {
        "validation_photos": count,
        "tiles_exact": round(exact / max(1, labelled_tiles), 4),
        "tiles_read": read,
        "read_where_none_lies": phantoms,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m referee.vision.train_outliner", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--steps", type=int, default=3000, help="training steps (3000)")
    parser.add_argument("--minutes", type=float, default=0, help="stop after this many minutes (0: by steps)")
    parser.add_argument("--batch", type=int, default=8, help="scenes a step (8; four squares a tile)")
    parser.add_argument("--lr", type=float, default=2e-3, help="the highest learning rate (0.002)")
    parser.add_argument("--workers", type=int, default=1, help="processes drawing scenes (1)")
    parser.add_argument("--threads", type=int, default=1, help="the training's own threads (1)")
    parser.add_argument("--seed", type=int, default=60, help="the training scenes' seed (60)")
    parser.add_argument("--validation", type=int, default=150, help="validation scenes read at the end (150)")
    parser.add_argument(
        "--other-makers", action="store_true",
        help="draw half the sets in another maker's arrangement of the numbers above six",
    )  # fmt: skip
    parser.add_argument(
        "--reader", type=Path, default=MODELS, help="the finder and counters the validation reads with"
    )
    parser.add_argument("--out", type=Path, default=MODELS, help="where outliner.onnx goes")
    args = parser.parse_args(argv)
    if args.other_makers:
        scene_drawing.OTHER_MAKERS_SHARE = scene_drawing.OTHER_MAKERS_ASKED
    torch.set_num_threads(args.threads)
    started = time.monotonic()
    net = train(args)
    args.out.mkdir(parents=True, exist_ok=True)
    export(net, args.out / FILE)
    torch.save(net.state_dict(), args.out / "outliner.pt")
    print(
        f"trained {args.steps_done} steps in {(time.monotonic() - started) / 60:.1f} min; measuring",
        flush=True,
    )
    meta: dict[str, Any] = json.loads((args.reader / "reader.json").read_text())
    if args.out.resolve() != args.reader.resolve():  # the reader's networks beside the new outliner
        closer = [meta[SECOND_LOOK_FINDER]] if meta.get(SECOND_LOOK_FINDER) else []
        for name in [
            "finder.onnx",
            *closer,
            "counter.onnx",
            *meta.get(PIP_COUNTERS, []),
            *meta.get(TILE_COUNTERS, []),
        ]:
            shutil.copyfile(args.reader / name, args.out / name)
    meta[OUTLINER] = FILE
    meta["outliner_trained"] = {
        "steps": args.steps_done, "batch": args.batch, "seed": args.seed, "lr": args.lr,
        "other_makers": args.other_makers, "minutes": round((time.monotonic() - started) / 60, 1),
    }  # fmt: skip
    (args.out / "reader.json").write_text(json.dumps(meta, indent=1) + "\n")
    load.cache_clear()
    reader = load(args.out)
    figures = {
        "without": measure(reader, args.validation, with_outliner=False),
        "with": measure(reader, args.validation, with_outliner=True),
    }
    meta["outliner_validation"] = figures
    (args.out / "reader.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
