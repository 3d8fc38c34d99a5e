"""``python -m referee.vision.train``: train the reader's two networks on synthetic photos
and write the files the app loads (``referee/vision/models/``).

Needs the ``train`` extra (``pip install -e '.[train]'``: PyTorch and ONNX); the app needs
neither. Every photo is drawn by ``referee.vision.scenes`` from a seed: the training
photos from seeds 0, 1, 2 …, the validation photos from seeds the training never draws, so
the accuracy printed at the end is on photos the networks did not train on. The same seed
and step count give the same networks on the same machine (``--seed``). On a 2-core CPU the
default run takes under an hour; a GPU, where there is one, is used and only makes it faster.

    python -m referee.vision.train [--steps N] [--batch B] [--workers W] [--out FOLDER]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import Counter as Multiset
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from referee.vision import geometry as g
from referee.vision import scenes as scene_drawing
from referee.vision.examples import VALIDATION_SEED, counter_examples, finder_example, scene_for
from referee.vision.model import (
    MODELS,
    TILE_THRESHOLDS,
    Settings,
    read_rgb,
    reads_by_tile_threshold,
    sure_threshold,
    tile_threshold,
)
from referee.vision.scenes import labelled

# -- the networks --------------------------------------------------------------------------


def conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class Finder(nn.Module):  # type: ignore[misc]
    """A small encoder (five halvings) and a decoder back to a quarter of the input's size."""

    def __init__(self) -> None:
        super().__init__()
        self.s2 = nn.Sequential(conv(3, 16, 2), conv(16, 16))
        self.s4 = nn.Sequential(conv(16, 32, 2), conv(32, 32))
        self.s8 = nn.Sequential(conv(32, 64, 2), conv(64, 64))
        self.s16 = nn.Sequential(conv(64, 96, 2), conv(96, 96))
        self.s32 = nn.Sequential(conv(96, 128, 2), conv(128, 128), conv(128, 128))
        self.up16 = conv(128 + 96, 96)
        self.up8 = conv(96 + 64, 64)
        self.up4 = conv(64 + 32, 48)
        self.head = nn.Sequential(conv(48, 48), nn.Conv2d(48, g.FINDER_CHANNELS, 1))
        with torch.no_grad():
            self.head[-1].bias.zero_()
            self.head[-1].bias[g.HEAT] = -4.0  # few cells hold a centre

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        s4 = self.s4(self.s2(x))
        s8 = self.s8(s4)
        s16 = self.s16(s8)
        s32 = self.s32(s16)
        up = self.up16(torch.cat([F.interpolate(s32, scale_factor=2.0), s16], 1))
        up = self.up8(torch.cat([F.interpolate(up, scale_factor=2.0), s8], 1))
        up = self.up4(torch.cat([F.interpolate(up, scale_factor=2.0), s4], 1))
        return self.head(up)  # type: ignore[no-any-return]


class Counter(nn.Module):  # type: ignore[misc]
    """Counts each half's pips from the tile cut out and levelled; one head serves both halves
    (the right half's features mirrored, so each half is seen from the bar outwards)."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv(3, 32), conv(32, 32), nn.MaxPool2d(2),  # 20 x 40
            conv(32, 64), conv(64, 64), nn.MaxPool2d(2),  # 10 x 20
            conv(64, 96), conv(96, 96), nn.MaxPool2d(2),  # 5 x 10
            conv(96, 128),
        )  # fmt: skip
        self.halves = nn.Sequential(
            nn.Flatten(),
            nn.Linear(128 * 5 * 5, 192),
            nn.ReLU(inplace=True),
            nn.Dropout(0.2),
            nn.Linear(192, g.PIP_CLASSES),
        )
        self.tile = nn.Sequential(
            nn.Flatten(), nn.Linear(128 * 5 * 10, 64), nn.ReLU(inplace=True), nn.Linear(64, 1)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.features(x)
        left = self.halves(f[:, :, :, :5])
        right = self.halves(torch.flip(f[:, :, :, 5:], dims=[3]))
        return torch.cat([self.tile(f), left, right], 1)


class Scenes(torch.utils.data.IterableDataset):  # type: ignore[misc]
    """Training examples drawn from seeds ``start``, ``start + stride`` …: one scene each."""

    def __init__(
        self,
        seed: int,
        counter_only: bool = False,
        other_makers: float = 0.0,
        made_up: float = 0.0,
        coloured_pips: float = 0.0,
        camera_crops: bool = False,
        between_tiles: bool = False,
    ) -> None:
        self.seed, self.counter_only = seed, counter_only
        self.other_makers, self.made_up, self.coloured_pips = other_makers, made_up, coloured_pips
        self.camera_crops, self.between_tiles = camera_crops, between_tiles

    def __iter__(self) -> Any:
        scene_drawing.OTHER_MAKERS_SHARE = self.other_makers  # in each worker, however it was started
        scene_drawing.MADE_UP_SHARE = self.made_up
        scene_drawing.COLOURED_PIPS_SHARE = self.coloured_pips
        for scene_seed in worker_scene_seeds(self.seed):
            scene, factor = scene_for(scene_seed)
            if self.counter_only:  # the finder's example is not drawn: the counter's are cheap
                image = target = weight = np.zeros(1, np.float32)
            else:
                image, target, weight = finder_example(scene, factor)
            camera = random.Random(scene_seed * 7 + 5) if self.camera_crops else None
            between = random.Random(scene_seed * 11 + 7) if self.between_tiles else None
            crops, labels = counter_examples(scene, random.Random(scene_seed + 1), camera, between)
            yield image, target, weight, np.stack(crops), np.array(labels, np.int64)


def worker_scene_seeds(seed: int) -> Iterator[int]:
    """The seeds of the scenes this data-loading worker draws, without end: ``seed`` *
    10,000,000 plus the worker's number, then every number of workers on."""
    info = torch.utils.data.get_worker_info()
    worker, workers = (info.id, info.num_workers) if info is not None else (0, 1)
    index = worker
    while True:
        yield seed * 10_000_000 + index
        index += workers


def _collate(batch: list[Any]) -> tuple[torch.Tensor, ...]:
    images, targets, weights, crops, labels = zip(*batch, strict=True)
    return (
        torch.from_numpy(np.stack(images)),
        torch.from_numpy(np.stack(targets)),
        torch.from_numpy(np.stack(weights)),
        torch.from_numpy(np.concatenate(crops)),
        torch.from_numpy(np.concatenate(labels)),
    )


# -- more steps from each drawn scene ----------------------------------------------------------
# Drawing scenes takes the CPU's time; a GPU learns faster than they come. ``--repeat R`` takes
# R steps from each batch, the later ones on the batch turned, mirrored and relit on the GPU,
# so a drawn scene teaches more: each turn and mirror moves the finder's targets with it.


def turn_finder_example(
    image: torch.Tensor, target: torch.Tensor, weight: torch.Tensor, view: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """One finder example (3 x S x S, FINDER_CHANNELS x C x C, C x C) seen one of eight ways
    (``geometry.turn_picture``): its targets turned as the reading turns the finder's answers
    (``geometry.turn_answer``)."""
    return (
        g.turn_picture(image, view).contiguous(),
        g.turn_answer(target, view).contiguous(),
        g.turn_picture(weight, view).contiguous(),
    )


def relight(images: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
    """Normalised images (B x 3 x H x W) brighter or darker, with more or less contrast and a
    colour cast; the padding (0, the finder's grey) left as it is."""
    b = images.shape[0]
    pixels = images * 0.25 + 0.5
    gain = torch.empty(b, 1, 1, 1, device=images.device).uniform_(0.7, 1.3, generator=generator)
    cast = torch.empty(b, 3, 1, 1, device=images.device).uniform_(0.88, 1.12, generator=generator)
    shift = torch.empty(b, 1, 1, 1, device=images.device).uniform_(-0.08, 0.08, generator=generator)
    mean = pixels.mean(dim=(1, 2, 3), keepdim=True)
    lit = ((pixels - mean) * gain + mean) * cast + shift
    padding = (images == 0).all(dim=1, keepdim=True)
    return torch.where(padding, images, (lit.clamp(0, 1) - 0.5) / 0.25)


def turn_crops(crops: torch.Tensor, labels: torch.Tensor, view: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The counter's crops (N x 3 x H x W) mirrored: left to right (``view`` & 1) the halves
    change places; top to bottom (& 2) they stay. Each half's pips, mirrored, count the same."""
    if view & 1:
        crops = crops.flip(3)
        labels = labels[:, [0, 2, 1]]
    if view & 2:
        crops = crops.flip(2)
    return crops, labels


# -- the losses ----------------------------------------------------------------------------


def finder_loss(output: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    heat = torch.sigmoid(output[:, g.HEAT]).clamp(1e-4, 1 - 1e-4)
    want = target[:, g.HEAT]
    positive = (want >= 0.999).float()
    negative = (1 - positive) * weight
    # centre-point focal loss: easy cells count little, cells near a centre count less
    pos_loss = -(torch.log(heat) * (1 - heat) ** 2 * positive).sum()
    neg_loss = -(torch.log(1 - heat) * heat**2 * (1 - want) ** 4 * negative).sum()
    count = positive.sum().clamp(min=1)
    near = (want > 0.45).float().unsqueeze(1)
    regress = output[:, [g.COS, g.SIN, g.LOG_LENGTH, g.LOG_WIDTH, g.DX, g.DY]]
    goal = target[:, [g.COS, g.SIN, g.LOG_LENGTH, g.LOG_WIDTH, g.DX, g.DY]]
    l1 = (F.smooth_l1_loss(regress, goal, reduction="none", beta=0.1) * near).sum() / near.sum().clamp(min=1)
    return (pos_loss + neg_loss) / count + 2.0 * l1


def counter_loss(output: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    is_tile = labels[:, 0].float()
    loss = F.binary_cross_entropy_with_logits(output[:, 0], is_tile)
    tiles = labels[:, 0] == 1
    if tiles.any():
        left = output[tiles, 1 : 1 + g.PIP_CLASSES]
        right = output[tiles, 1 + g.PIP_CLASSES :]
        loss = loss + F.cross_entropy(left, labels[tiles, 1], label_smoothing=0.02)
        loss = loss + F.cross_entropy(right, labels[tiles, 2], label_smoothing=0.02)
    return loss


# -- going on from the shipped networks ---------------------------------------------------------
# The ONNX files the app loads are all a fresh clone has of the trained networks (their
# weights.pt is not shipped). The export folded each batch norm into the convolution before
# it (W' = W * g / s, b' = beta - mean * g / s); any norm whose statistics and scale undo
# that again gives back the same network, exactly as read. Its statistics are measured on
# training photos, so that the first training steps (which normalise by each batch's own)
# start near the network as shipped.


def _conv_and_norm(net: nn.Module) -> list[tuple[nn.Conv2d, nn.BatchNorm2d | None]]:
    """Each convolution in the order the network runs them (as the export writes them), with
    the batch norm after it where there is one."""
    norm_after: dict[nn.Conv2d, nn.BatchNorm2d] = {}
    for module in net.modules():
        if (
            isinstance(module, nn.Sequential)
            and len(module) > 1
            and isinstance(module[0], nn.Conv2d)
            and isinstance(module[1], nn.BatchNorm2d)
        ):
            norm_after[module[0]] = module[1]
    return [(m, norm_after.get(m)) for m in net.modules() if isinstance(m, nn.Conv2d)]


def _from_onnx(net: nn.Module, path: Path, examples: torch.Tensor) -> None:
    import onnx
    import onnxruntime as ort
    from onnx import numpy_helper

    from referee.vision.quantize import as_float

    # a quantized file (python -m referee.vision.quantize) is the network of the weights its
    # integers stand for: training goes on from those, and the check below runs that network
    model = as_float(onnx.load(str(path)))
    graph = model.graph
    saved = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in graph.initializer}
    convs = [node for node in graph.node if node.op_type == "Conv"]
    pairs = _conv_and_norm(net)
    if len(convs) != len(pairs):
        raise ValueError(f"{path}: {len(convs)} convolutions, the network has {len(pairs)}")
    state = net.state_dict()
    with torch.no_grad():
        for name, value in saved.items():  # the linear layers keep their names
            if name in state and state[name].shape == value.shape:
                state[name].copy_(value)
        folded: list[tuple[nn.Conv2d, nn.BatchNorm2d, torch.Tensor]] = []
        for node, (module, norm) in zip(convs, pairs, strict=True):
            weight = saved[node.input[1]]
            bias = saved[node.input[2]] if len(node.input) > 2 else torch.zeros(weight.shape[0])
            if weight.shape != module.weight.shape:
                raise ValueError(
                    f"{path}: a convolution of {tuple(weight.shape)} where {tuple(module.weight.shape)} runs"
                )
            module.weight.copy_(weight)
            if norm is None:
                module.bias.copy_(bias)
            else:
                folded.append((module, norm, bias))
                norm.running_mean.zero_()  # first a norm that changes nothing: the folded network
                norm.running_var.fill_(1.0 - norm.eps)
                norm.weight.fill_(1.0)
                norm.bias.copy_(bias)
        # run once on training photos, each convolution's output (without its bias) measured
        net.eval()
        measured: dict[nn.Module, tuple[torch.Tensor, torch.Tensor]] = {}
        hooks = [
            module.register_forward_hook(
                lambda m, _i, out: measured.__setitem__(
                    m, (out.mean((0, 2, 3)), out.var((0, 2, 3), correction=0))
                )
            )
            for module, _norm, _bias in folded
        ]
        net(examples)
        for hook in hooks:
            hook.remove()
        for module, norm, bias in folded:  # the same network, normalised by what it measured
            mean, var = measured[module]
            # conv() makes norms that track their statistics
            assert norm.running_mean is not None and norm.running_var is not None
            norm.running_mean.copy_(mean)
            norm.running_var.copy_(var)
            norm.weight.copy_(torch.sqrt(var + norm.eps))
            norm.bias.copy_(bias + mean)
        session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        name = session.get_inputs()[0].name  # the finder's file reads one photo at a time
        want = np.concatenate([session.run(None, {name: one[None].numpy()})[0] for one in examples])
        got = net(examples).numpy()
    scale = float(np.abs(want).max()) + 1e-6
    if float(np.abs(got - want).max()) > 1e-3 * scale:
        raise ValueError(f"{path}: the networks rebuilt do not say what the file says")


def networks_from_onnx(folder: Path, examples: int = 4) -> tuple[Finder, Counter]:
    """The finder and the counter of ``folder``'s ONNX files as trainable PyTorch networks that
    say exactly what the files say (checked against onnxruntime on ``examples`` training photos)."""
    scenes = [scene_for(seed) for seed in range(examples)]
    images = torch.from_numpy(np.stack([finder_example(scene, factor)[0] for scene, factor in scenes]))
    crops = np.concatenate([np.stack(counter_examples(scene, random.Random(1))[0]) for scene, _f in scenes])
    crops_in = torch.from_numpy(np.ascontiguousarray(g.normalise(crops).transpose(0, 3, 1, 2)))
    finder, counter = Finder(), Counter()
    _from_onnx(finder, folder / "finder.onnx", images)
    _from_onnx(counter, folder / "counter.onnx", crops_in)
    return finder, counter


# -- training, measuring, writing ------------------------------------------------------------


def train(args: argparse.Namespace) -> tuple[Finder, Counter]:
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    finder, counter = Finder(), Counter()
    if args.resume is not None:  # go on from networks trained before
        if args.resume.is_dir():  # a folder of ONNX files: the shipped networks, rebuilt
            finder, counter = networks_from_onnx(args.resume)
        else:
            saved = torch.load(args.resume, map_location="cpu")
            finder.load_state_dict(saved["finder"])
            counter.load_state_dict(saved["counter"])
    finder, counter = finder.to(device), counter.to(device)
    # --counter-only: the finder is kept as it is, and only the counter learns (a step costs
    # a fraction of a joint one, so a CPU can show the counter many more tiles); --finder-only:
    # the counter is kept as it is (what it learned of backs and phantoms stays), and only the
    # finder learns where tiles lie
    params = ([] if args.finder_only else list(counter.parameters())) + (
        [] if args.counter_only else list(finder.parameters())
    )
    optimiser = torch.optim.AdamW(params, lr=args.lr, weight_decay=1e-4)
    loader = torch.utils.data.DataLoader(
        Scenes(args.seed, args.counter_only, scene_drawing.OTHER_MAKERS_SHARE, scene_drawing.MADE_UP_SHARE, scene_drawing.COLOURED_PIPS_SHARE, args.camera_crops, args.between_tiles), batch_size=args.batch, num_workers=args.workers, collate_fn=_collate,
        persistent_workers=args.workers > 0, prefetch_factor=4 if args.workers > 0 else None,
    )  # fmt: skip
    start = time.monotonic()
    finder.train(not args.counter_only)
    counter.train(not args.finder_only)  # a kept network's batch norms keep their statistics
    amp = device.type == "cuda"
    budget = args.minutes * 60 if args.minutes else math.inf
    views = random.Random(args.seed)
    step = 0
    for batch in loader:
        # how far the training is: by steps, or by time when it is given minutes
        progress = max(step / args.steps, (time.monotonic() - start) / budget)
        if progress >= 1:
            break
        images, targets, weights, crops, labels = (part.to(device) for part in batch)
        crops = (crops.permute(0, 3, 1, 2).float() / 255.0 - 0.5) / 0.25
        for turn in range(args.repeat):
            progress = max(step / args.steps, (time.monotonic() - start) / budget)
            for group in optimiser.param_groups:  # a short warm-up, then a cosine decay
                group["lr"] = scheduled_lr(args.lr, progress)
            seen: tuple[torch.Tensor, ...] = (images, targets, weights, crops, labels)
            if turn:  # the batch again, each example turned or mirrored, the photos relit
                seen = _another_view(seen, views, args.counter_only)
            f_loss, c_loss = _losses(finder, counter, seen, args.counter_only, args.finder_only, amp, device)
            optimiser.zero_grad(set_to_none=True)
            (f_loss + c_loss).backward()
            torch.nn.utils.clip_grad_norm_(params, 5.0)
            optimiser.step()
            if step % 50 == 0:
                print(
                    f"step {step}/{args.steps}: finder {f_loss.item():.3f}, counter {c_loss.item():.3f}, "
                    f"{time.monotonic() - start:.0f} s",
                    flush=True,
                )
            step += 1
    args.steps_done = step
    return finder.cpu().eval(), counter.cpu().eval()


def scheduled_lr(highest: float, progress: float) -> float:
    """The learning rate ``progress`` (0 to 1) of the way through a training: a short warm-up to
    ``highest``, then a cosine decay."""
    return highest * min(1.0, progress / 0.03) * 0.5 * (1 + math.cos(math.pi * progress))


def _another_view(
    batch: tuple[torch.Tensor, ...], views: random.Random, counter_only: bool
) -> tuple[torch.Tensor, ...]:
    images, targets, weights, crops, labels = batch
    if not counter_only:
        turned = [
            turn_finder_example(images[i], targets[i], weights[i], views.randrange(8))
            for i in range(images.shape[0])
        ]
        images = relight(torch.stack([t[0] for t in turned]))
        targets = torch.stack([t[1] for t in turned])
        weights = torch.stack([t[2] for t in turned])
    crops, labels = turn_crops(crops, labels, views.randrange(4))
    return images, targets, weights, crops, labels


def _losses(
    finder: Finder,
    counter: Counter,
    batch: tuple[torch.Tensor, ...],
    counter_only: bool,
    finder_only: bool,
    amp: bool,
    device: torch.device,
) -> tuple[torch.Tensor, torch.Tensor]:
    images, targets, weights, crops, labels = batch
    with torch.autocast(device.type, dtype=torch.bfloat16, enabled=amp):
        f_out = None if counter_only else finder(images)
        c_out = None if finder_only else counter(crops)
    f_loss = torch.zeros((), device=device) if f_out is None else finder_loss(f_out.float(), targets, weights)
    c_loss = torch.zeros((), device=device) if c_out is None else counter_loss(c_out.float(), labels)
    return f_loss, c_loss


def export(finder: Finder, counter: Counter, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        torch.onnx.export(
            finder, (torch.zeros(1, 3, 480, 640),), str(folder / "finder.onnx"), input_names=["image"],
            output_names=["found"], dynamic_axes={"image": {2: "h", 3: "w"}, "found": {2: "h4", 3: "w4"}},
            opset_version=17, dynamo=False,
        )  # fmt: skip
        torch.onnx.export(
            counter, (torch.zeros(4, 3, g.CROP_H, g.CROP_W),), str(folder / "counter.onnx"),
            input_names=["crops"], output_names=["pips"], dynamic_axes={"crops": {0: "n"}, "pips": {0: "n"}},
            opset_version=17, dynamo=False,
        )  # fmt: skip


def match_reads(found: list[Any], truth: list[Any]) -> list[tuple[Any, Any | None]]:
    """Each tile read with the labelled tile it lies on (None: no tile there)."""
    pairs = []
    for item in found:
        best = None
        for tile in truth:
            if g.overlap(item.corners, tile.corners) > 0.5:
                best = tile
                break
        pairs.append((item, best))
    return pairs


def exact_reads(found: list[Any], truth: list[Any]) -> int:
    """How many of the tiles ``found`` on a scene are tiles of its ``truth``, each listed tile
    counted once (by their halves, wherever they were read)."""
    got = Multiset(str(sorted(f.halves)) for f in found)
    want = Multiset(str(sorted(t.halves)) for t in truth)
    return sum((got & want).values())


def choose_tile_threshold(
    reader_finder: Any, reader_counter: Any, count: int
) -> tuple[float, dict[str, tuple[int, int]]]:
    """The counter's least probability of a tile (``model.tile_threshold``), chosen on the
    ``count`` validation scenes read at the lowest one, and the reads it chose from."""
    lowest = Settings(tile_threshold=TILE_THRESHOLDS[0])
    reads: list[tuple[float, bool]] = []
    for i in range(count):
        scene, _factor = scene_for(VALIDATION_SEED + i)
        found = read_rgb(scene.rgb, 18, reader_finder, reader_counter, lowest)
        reads += [(item.tile_probability, tile is not None) for item, tile in match_reads(found, scene.tiles)]
    return tile_threshold(reads), reads_by_tile_threshold(reads)


def validate(reader_finder: Any, reader_counter: Any, count: int, settings: Settings) -> dict[str, Any]:
    """Read ``count`` validation scenes (never trained on); measure, and choose the threshold
    of a sure tile: the lowest confidence above which at least 99.5 % of the tiles read are
    right, tiles read where none is counted as wrong."""
    scored: list[tuple[float, bool]] = []
    labelled_tiles = exact = read = 0
    totals = 0
    for i in range(count):
        scene, _factor = scene_for(VALIDATION_SEED + i)
        truth = labelled(scene)
        highest = 18
        found = read_rgb(scene.rgb, highest, reader_finder, reader_counter, settings)
        read += len(found)
        labelled_tiles += len(truth)
        exact += exact_reads(found, truth)
        totals += sum(sum(f.halves) for f in found) == sum(sum(t.halves) for t in truth)
        for item, tile in match_reads(found, scene.tiles):
            right = tile is not None and tile.visible >= 0.95 and sorted(item.halves) == sorted(tile.halves)
            if tile is not None and tile.visible < 0.95:
                continue  # a tile cut by the frame: neither right nor wrong to read
            scored.append((item.confidence, right))
    threshold = sure_threshold(scored)
    return {
        "validation_photos": count,
        "tiles_exact": round(exact / max(1, labelled_tiles), 4),
        "tile_precision": round(sum(r for _c, r in scored) / max(1, len(scored)), 4),
        "photos_total_exact": round(totals / max(1, count), 4),
        "sure_threshold": round(max(0.5, min(1.0, threshold)), 4),
        "sure_share": round(sum(c >= threshold for c, _r in scored) / max(1, len(scored)), 4),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m referee.vision.train", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--steps", type=int, default=300, help="training steps (300: about an hour on 2 CPU cores)"
    )
    parser.add_argument("--batch", type=int, default=8, help="photos a step (8)")
    parser.add_argument("--lr", type=float, default=2e-3, help="the highest learning rate (0.002)")
    parser.add_argument("--workers", type=int, default=2, help="processes drawing photos (2)")
    parser.add_argument("--seed", type=int, default=1, help="the training photos' seed (1)")
    parser.add_argument("--validation", type=int, default=100, help="validation photos (100)")
    parser.add_argument(
        "--threshold-scenes", type=int, default=300,
        help="validation photos the tile threshold is chosen on (300: 0.2 %% of a few hundred reads is one tile)",
    )  # fmt: skip
    parser.add_argument("--minutes", type=float, default=0, help="stop after this many minutes (0: by steps)")
    parser.add_argument(
        "--counter-only", action="store_true", help="train the counter alone, the finder as resumed"
    )
    parser.add_argument(
        "--finder-only", action="store_true", help="train the finder alone, the counter as resumed"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="steps from each batch, the later ones turned and relit (1)"
    )
    parser.add_argument(
        "--resume", type=Path, default=None,
        help="go on from a weights.pt, or from a folder's ONNX files (referee/vision/models: the shipped networks)",
    )  # fmt: skip
    parser.add_argument(
        "--other-makers", action="store_true",
        help="draw half the sets, training and validation alike, in another maker's arrangement of the numbers above six",
    )  # fmt: skip
    parser.add_argument(
        "--made-up-makers", action="store_true",
        help="with --other-makers: half of those sets printed by made-up makers, columns of their own (scenes.layout)",
    )  # fmt: skip
    parser.add_argument(
        "--coloured-pips", action="store_true",
        help="print some sets' pips in a colour apart from the face's by hue more than lightness (orange on pink), training and validation alike",
    )  # fmt: skip
    parser.add_argument(
        "--camera-crops", action="store_true",
        help="change most of the counter's crops as another camera or room would (examples.camera_change): channels, hues, tone, blur, sharpening, noise, JPEG",
    )  # fmt: skip
    parser.add_argument(
        "--between-tiles", action="store_true",
        help="show the counter crops of the table between neighbouring tiles as no tile (examples.between_tiles)",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, default=MODELS, help="where the model files go")
    args = parser.parse_args(argv)
    if args.made_up_makers and not args.other_makers:
        parser.error("--made-up-makers prints some of the other makers' sets: give --other-makers too")
    if args.other_makers:
        scene_drawing.OTHER_MAKERS_SHARE = scene_drawing.OTHER_MAKERS_ASKED
    if args.made_up_makers:
        scene_drawing.MADE_UP_SHARE = scene_drawing.MADE_UP_ASKED
    if args.coloured_pips:
        scene_drawing.COLOURED_PIPS_SHARE = scene_drawing.COLOURED_PIPS_ASKED
    if args.counter_only and args.finder_only:
        parser.error("--counter-only and --finder-only together would train neither network: give one")
    kept = "--counter-only" if args.counter_only else "--finder-only" if args.finder_only else None
    if kept and args.resume is None:
        parser.error(f"{kept} goes on from trained networks: give --resume weights.pt or a models folder")
    started = time.monotonic()
    finder, counter = train(args)
    export(finder, counter, args.out)
    (args.out / "reader.json").write_text(json.dumps({"settings": {}}) + "\n")
    torch.save({"finder": finder.state_dict(), "counter": counter.state_dict()}, args.out / "weights.pt")
    print(
        f"trained {args.steps_done} steps in {(time.monotonic() - started) / 60:.1f} min; measuring",
        flush=True,
    )
    from referee.vision.model import load

    load.cache_clear()
    reader = load(args.out)
    chosen, chosen_from = choose_tile_threshold(reader.finder, reader.counter, args.threshold_scenes)
    figures = validate(reader.finder, reader.counter, args.validation, Settings(tile_threshold=chosen))
    # on how many scenes, and at each threshold the tiles read and of them where no tile lies
    figures["threshold_scenes"] = args.threshold_scenes
    figures["reads_by_tile_threshold"] = chosen_from
    settings = {"tile_threshold": chosen, "sure_threshold": figures["sure_threshold"]}
    meta = {
        "settings": settings,
        "trained": {
            "steps": args.steps_done, "resumed": args.resume is not None, "counter_only": args.counter_only, "finder_only": args.finder_only, "other_makers": args.other_makers, "made_up_makers": args.made_up_makers, "coloured_pips": args.coloured_pips, "camera_crops": args.camera_crops, "between_tiles": args.between_tiles, "repeat": args.repeat, "batch": args.batch, "seed": args.seed, "lr": args.lr,
            "device": "cuda" if torch.cuda.is_available() else "cpu",
            "minutes": round((time.monotonic() - started) / 60, 1),
        },
        "validation": figures,
    }  # fmt: skip
    (args.out / "reader.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
