"""``python -m bench vision [FOLDER] [--variants] [--count N] [--seed S]``:
how well photos are read.

FOLDER holds photos and a ``labels.json`` (``{"photos": [{"file", "tiles", ...}]}``, the
format of ``../shared/photos/``). For the folder it prints tile recall and precision, the
share of tiles read exactly (both halves), the share of photos whose pip total is exactly
right before any correction, the median and maximum seconds per photo, and last one JSON
object with the keys ``tile_recall``, ``tile_precision``, ``tiles_exact``,
``photos_total_exact``, ``seconds_median``, ``seconds_max``, ``photos``, ``sure_precision``
(the share of tiles read as sure that are right) and ``sure_share`` (the share of tiles read
that are sure).

``--variants`` also reads every photo changed as a phone or a room changes it (mirrored,
turned 90°, 180°, 270° and 15°, 25 % darker and brighter, warmer and cooler, JPEG quality
50, half size, blurred, noisy) and prints the same keys per kind and over all (the last JSON
line then has ``kinds`` and ``all``). The reader measured is the app's (``referee.vision``),
its tiles called sure as its calibrated threshold would call them, whether or not the app
claims sureness yet (``referee.vision.learned.CLAIMS_SURE``).

The labels name no positions, so tiles are matched as multisets per photo: recall is
min(tiles read, tiles labelled) over tiles labelled, precision the same over tiles read,
and a tile is read exactly when it is in the multiset intersection of the two.

``--where-lost`` reads the training's validation scenes (never trained on) and says, of each
wholly visible tile, where the reader lost it: no mark of the finder on it, the counter's
"no tile" on the finder's mark, or its halves misread, in all and by the tile's width as
seen: it says which of the two networks more training should go to; beside them it counts
the tiles read where no tile of the scene lies (``read_where_none_lies``). ``--tile-threshold``
reads them at another probability of a tile than reader.json's.

``--models FOLDER`` reads with the networks and ``reader.json`` of FOLDER (a training's, or a
candidate's beside the shipped ones) in every measure, so a candidate is measured as the app
would read with it before it replaces the shipped files.

Without FOLDER it first reads ``../shared/photos/`` when present (the real photos), then
a synthetic set generated into a temporary folder; the last JSON line is then the
synthetic set's.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from referee.vision import PhotoError, Reading, ReadTile
from referee.vision.model import MODELS, Found, Network, sure_threshold

if TYPE_CHECKING:  # the scenes' drawing is heavy: imported where they are drawn
    from referee.vision.scenes import SceneTile

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "photos"


def _highest(photo: dict[str, Any]) -> int:
    hint = str(photo.get("set_hint", ""))
    for n in (18, 15, 12, 9, 6):
        if f"double-{n}" in hint:
            return n
    return 12


Reader = Callable[[bytes, int], Reading]


def learned_reader(data: bytes, highest: int, models: Path = MODELS) -> Reading:
    """The app's reader on the photo's bytes, each tile sure where the calibrated threshold
    says so (the app itself claims none sure until that holds on real photos); ``models``, the
    folder of its networks and reader.json (a training's is measured before it replaces the
    shipped ones)."""
    from referee.vision.decode import decode
    from referee.vision.learned import read_learned

    return read_learned(decode(data), highest, claims_sure=True, models=models)


def measure(
    folder: Path,
    verbose: bool = True,
    reader: Reader = learned_reader,
    change: Callable[[bytes], bytes] | None = None,
) -> dict[str, Any]:
    labels = json.loads((folder / "labels.json").read_text())
    labelled = read = matched_count = exact = totals = sure = sure_right = 0
    seconds: list[float] = []
    for photo in labels["photos"]:
        data = (folder / photo["file"]).read_bytes()
        if change is not None:
            data = change(data)
        want = Counter(str(t) for t in photo["tiles"])
        start = time.perf_counter()
        try:
            reading = reader(data, _highest(photo))
            # a synthetic photo's tile cut by the frame, read right, is neither right nor wrong
            counted = [t for t in reading.tiles if not _cut_and_read_right(photo, t)]
            got = Counter(str(t.tile) for t in counted)
            sure_tiles = Counter(str(t.tile) for t in counted if t.sure)
            sure += sum(sure_tiles.values())
            sure_right += sum((sure_tiles & want).values())
            pips = reading.pips
        except PhotoError as error:
            got, pips = Counter(), -1
            if verbose:
                print(f"  {photo['file']}: {error.message}")
        seconds.append(time.perf_counter() - start)
        n_want, n_got = sum(want.values()), sum(got.values())
        labelled += n_want
        read += n_got
        matched_count += min(n_want, n_got)
        hits = sum((want & got).values())
        exact += hits
        right = pips == photo["total_pips"]
        totals += right
        if verbose:
            mark = "ok " if hits == n_want == n_got else "   "
            print(
                f"  {mark}{photo['file']}: {hits}/{n_want} exact, {n_got} read, total {pips} "
                f"(labelled {photo['total_pips']}), {seconds[-1]:.2f} s"
                + (
                    ""
                    if mark == "ok "
                    else f"; read {sorted(got.elements())}, labelled {sorted(want.elements())}"
                )
            )
    photos = len(labels["photos"])
    return {
        "tile_recall": round(matched_count / labelled, 4) if labelled else 1.0,
        "tile_precision": round(matched_count / read, 4) if read else 1.0,
        "tiles_exact": round(exact / labelled, 4) if labelled else 1.0,
        "photos_total_exact": round(totals / photos, 4) if photos else 1.0,
        "seconds_median": round(statistics.median(seconds), 3) if seconds else 0.0,
        "seconds_max": round(max(seconds), 3) if seconds else 0.0,
        "photos": photos,
        "sure_precision": round(sure_right / sure, 4) if sure else 1.0,
        "sure_share": round(sure / read, 4) if read else 0.0,
    }


def _summary(name: str, figures: dict[str, Any]) -> None:
    print(
        f"{name}: {figures['photos']} photos; tile recall {figures['tile_recall']:.1%}, "
        f"precision {figures['tile_precision']:.1%}, tiles read exactly {figures['tiles_exact']:.1%}, "
        f"photos with the exact total {figures['photos_total_exact']:.1%}; seconds per photo "
        f"median {figures['seconds_median']:.2f}, max {figures['seconds_max']:.2f}"
    )


def measure_variants(folder: Path, reader: Reader, verbose: bool) -> dict[str, Any]:
    """Every photo as it is and changed in each of the kinds of ``bench.variants``: the
    figures per kind, and over all the changed photos."""
    from bench.variants import KINDS

    kinds: dict[str, dict[str, Any]] = {"as_is": measure(folder, verbose=False, reader=reader)}
    _summary("as it is", kinds["as_is"])
    for name, change in KINDS.items():
        kinds[name] = measure(folder, verbose=False, reader=reader, change=change)
        _summary(name, kinds[name])
    changed = [figures for name, figures in kinds.items() if name != "as_is"]
    labelled = _labelled(folder)
    everything = {
        key: round(statistics.fmean(f[key] for f in changed), 4)
        for key in (
            "tile_recall",
            "tile_precision",
            "tiles_exact",
            "photos_total_exact",
            "sure_precision",
            "sure_share",
        )
    }
    everything["worst_kind_tiles_exact"] = min(f["tiles_exact"] for f in changed)
    everything["photos"] = sum(f["photos"] for f in changed)
    everything["tiles"] = labelled * len(changed)
    _ = verbose
    return {"kinds": kinds, "all": everything}


def calibrate(folder: Path, reader: Reader, precision: float = 0.995) -> dict[str, Any]:
    """The lowest confidence above which at least ``precision`` of the tiles read on the
    synthetic photos of ``folder`` (labels with boxes) are right; a tile read where none is
    labelled counts as wrong, unless it is a tile cut by the frame read right (the labels'
    ``cut_by_frame``: no person lists it, and the reading of it is not wrong either, as in the
    training's validation). How the app's threshold of a sure tile was chosen."""
    labels = json.loads((folder / "labels.json").read_text())
    scored: list[tuple[float, bool]] = []
    for photo in labels["photos"]:
        reading = reader((folder / photo["file"]).read_bytes(), _highest(photo))
        truth = list(zip(photo["tiles"], photo["boxes"], strict=True))
        for read in reading.tiles:
            right = any(str(read.tile) == tile and _box_overlap(read.box, box) > 0.5 for tile, box in truth)
            if not right and _cut_and_read_right(photo, read):
                continue  # a tile cut by the frame read right: no label lists it, nor is it wrong
            scored.append((read.confidence, right))
    threshold = sure_threshold(scored, precision)
    sure = [right for confidence, right in scored if confidence >= threshold]
    return {
        "threshold": threshold,
        "tiles_read": len(scored),
        "sure_share": round(len(sure) / max(1, len(scored)), 4),
        "sure_precision": round(sum(sure) / max(1, len(sure)), 4),
    }


def _cut_and_read_right(photo: dict[str, Any], read: ReadTile) -> bool:
    """Whether ``read`` is a tile the synthetic photo's labels list as cut by the frame (none
    listed on real photos), read right: no person would list it, and it is not wrong."""
    return any(
        str(read.tile) == cut["tile"] and _box_overlap(read.box, cut["box"]) > 0.5
        for cut in photo.get("cut_by_frame", [])
    )


def _box_overlap(a: Any, b: Any) -> float:
    ax, ay, aw, ah = (int(v) for v in a)
    bx, by, bw, bh = (int(v) for v in b)
    w = max(0, min(ax + aw, bx + bw) - max(ax, bx))
    h = max(0, min(ay + ah, by + bh) - max(ay, by))
    return float(w * h) / max(1, min(aw * ah, bw * bh))


# where a wholly visible tile of a scene went: read right, or lost at one of the reader's steps
LOSSES = ("read_right", "misread", "said_no_tile", "finder_missed")
# the tile's width as seen (its face's shorter side, in the scene's pixels): each bucket's
# floor and name (small tiles far from a camera seen from the side are the hard ones)
WIDTHS = {0: "under_20_px", 20: "20_to_35_px", 35: "35_px_and_over"}


def where_lost(
    count: int,
    finder: Network | None = None,
    counter: Network | None = None,
    tile_threshold: float | None = None,
    other_makers: bool = False,
    made_up_makers: bool = False,
    coloured_pips: bool = False,
    models: Path = MODELS,
) -> dict[str, Any]:
    """Of the wholly visible tiles of ``count`` validation scenes, how many the reader (the
    networks of the folder ``models``, the shipped ones by default, unless ``finder`` and
    ``counter`` are given; at the folder's tile threshold unless ``tile_threshold`` is) reads
    right, and where it loses the others. The scenes are read with every mark the finder makes
    counted (no tile threshold): a tile with no mark on it is the finder's loss; with a mark
    whose probability of a tile is under the threshold, the counter's "no tile"; over it, with
    the halves wrong, a misreading. ``read_where_none_lies`` counts the marks over the
    threshold on no tile of the scene (cut by the frame or not)."""
    from referee.vision import geometry as g
    from referee.vision import scenes
    from referee.vision.examples import VALIDATION_SEED, scene_for
    from referee.vision.model import Settings, load, read_rgb

    reader = load(models)
    # the shipped networks are read as the app reads them, counter.onnx saying what is a tile
    # and the outliner redrawing the retry's marks; networks given are read with no outliner
    shipped = finder is None and counter is None
    outliner = reader.outliner if shipped else None
    tile_counter = reader.tile_counter if shipped else None
    second_look_finder = reader.second_look_finder if shipped else None
    finder = reader.finder if finder is None else finder
    counter = reader.counter if counter is None else counter
    threshold = reader.settings.tile_threshold if tile_threshold is None else tile_threshold
    every_mark = Settings(tile_threshold=0.0)
    by_width = {floor: dict.fromkeys(LOSSES, 0) for floor in WIDTHS}
    where_none_lies = 0
    with scenes.other_makers_share(other_makers, made_up_makers), scenes.coloured_pips_share(coloured_pips):
        for i in range(count):
            scene, _factor = scene_for(VALIDATION_SEED + i)
            found = read_rgb(
                scene.rgb, 18, finder, counter, every_mark, tile_counter, outliner, second_look_finder
            )
            # a tile cut by the frame is neither right nor wrong to read
            for tile in (tile for tile in scene.tiles if tile.visible >= 0.95):
                corners = np.asarray(tile.corners, float)
                width = min(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[2] - corners[1]))
                by_width[max(floor for floor in WIDTHS if width >= floor)][_loss(tile, found, threshold)] += 1
            where_none_lies += sum(
                item.tile_probability >= threshold
                and not any(g.overlap(item.corners, tile.corners) > 0.5 for tile in scene.tiles)
                for item in found
            )
    return {
        "scenes": count,
        "tile_threshold": threshold,
        "other_makers": other_makers,
        "made_up_makers": made_up_makers,
        "coloured_pips": coloured_pips,
        **{loss: sum(counts[loss] for counts in by_width.values()) for loss in LOSSES},
        "read_where_none_lies": where_none_lies,
        "by_width": {WIDTHS[floor]: counts for floor, counts in by_width.items()},
    }


def _loss(tile: SceneTile, found: list[Found], threshold: float) -> str:
    """Where the reading of a scene's ``tile`` went (``LOSSES``), ``found`` read with every
    mark of the finder counted: of the marks on the tile, the one the counter is surest of."""
    from referee.vision import geometry as g

    on_it = [item for item in found if g.overlap(item.corners, tile.corners) > 0.5]
    best = max(on_it, key=lambda item: item.tile_probability, default=None)
    if best is None:
        return "finder_missed"
    if best.tile_probability < threshold:
        return "said_no_tile"
    return "read_right" if sorted(best.halves) == sorted(tile.halves) else "misread"


def _labelled(folder: Path) -> int:
    labels = json.loads((folder / "labels.json").read_text())
    return sum(len(photo["tiles"]) for photo in labels["photos"])


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench vision", description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, help="a folder with photos and labels.json")
    parser.add_argument("--count", type=int, default=200, help="synthetic photos when no FOLDER (200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the synthetic set (1)")
    parser.add_argument("--size", default="4000x3000", help="synthetic photo size (4000x3000, 12 MP)")
    parser.add_argument("--variants", action="store_true", help="also read each photo changed in 13 ways")
    parser.add_argument(
        "--scenes",
        action="store_true",
        help="the synthetic set drawn by the learned reader's generator (double-6 to double-18, any table)",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="synthetic photos without face-down backs, touching tiles, side views or marble",
    )
    parser.add_argument(
        "--thick",
        action="store_true",
        help="synthetic photos of thick tiles seen from a low angle (their shaded sides beside the face)",
    )
    parser.add_argument(
        "--grids",
        action="store_true",
        help="also lay a quarter of the synthetic photos' tiles in a seamless grid, half on a white table",
    )
    parser.add_argument(
        "--other-makers",
        action="store_true",
        help="with --scenes or --calibrate: half the sets printed in other makers' arrangements of numbers above six",
    )
    parser.add_argument(
        "--made-up-makers",
        action="store_true",
        help="with --other-makers: half of those sets printed by made-up makers (columns of their own)",
    )
    parser.add_argument(
        "--coloured-pips",
        action="store_true",
        help="with --scenes, --calibrate or --where-lost: some sets' pips in a colour apart from the face's by hue (orange on pink)",
    )
    parser.add_argument(
        "--models", type=Path, default=MODELS,
        help="read with the networks and reader.json of this folder (a training's; the shipped ones by default)",
    )  # fmt: skip
    parser.add_argument(
        "--tile-threshold", type=float, default=None,
        help="with --where-lost: the counter's least probability of a tile (the folder's reader.json)",
    )  # fmt: skip
    parser.add_argument("-q", "--quiet", action="store_true", help="only the summaries")
    parser.add_argument(
        "--calibrate", action="store_true", help="the confidence of a sure tile, from the synthetic photos"
    )
    parser.add_argument(
        "--where-lost",
        action="store_true",
        help="where the reader loses the tiles of --count validation scenes: the finder, the counter's no tile, or misread",
    )
    args = parser.parse_args(argv)
    if args.other_makers and not (args.scenes or args.calibrate or args.where_lost):
        parser.error(
            "--other-makers draws the learned reader's scenes: use it with --scenes, --calibrate or --where-lost"
        )
    if args.made_up_makers and not args.other_makers:
        parser.error("--made-up-makers prints some of the other makers' sets: give --other-makers too")
    if args.coloured_pips and not (args.scenes or args.calibrate or args.where_lost):
        parser.error(
            "--coloured-pips draws the learned reader's scenes: use it with --scenes, --calibrate or --where-lost"
        )
    if args.tile_threshold is not None and not args.where_lost:
        parser.error("--tile-threshold reads the validation scenes: use it with --where-lost")
    reader = functools.partial(learned_reader, models=args.models)
    if args.where_lost:
        lost = where_lost(
            args.count,
            tile_threshold=args.tile_threshold,
            other_makers=args.other_makers,
            made_up_makers=args.made_up_makers,
            coloured_pips=args.coloured_pips,
            models=args.models,
        )
        print(
            f"{lost['scenes']} validation scenes: of the wholly visible tiles, {lost['read_right']} read right, "
            f"{lost['misread']} misread, {lost['said_no_tile']} said no tile by the counter, "
            f"{lost['finder_missed']} with no mark of the finder; "
            f"{lost['read_where_none_lies']} read where no tile lies"
        )
        print(json.dumps(lost), flush=True)
        return
    if args.calibrate:
        from referee.vision.scenes import write_set as write_scenes

        w, h = (int(v) for v in args.size.lower().split("x"))
        with tempfile.TemporaryDirectory() as tmp:
            write_scenes(
                Path(tmp), args.count, seed=args.seed, size=(w, h), other_makers=args.other_makers,
                made_up_makers=args.made_up_makers, coloured_pips=args.coloured_pips,
            )  # fmt: skip
            print(json.dumps(calibrate(Path(tmp), reader)), flush=True)
        return
    if args.folder is not None:
        if args.variants:
            result = measure_variants(args.folder, reader, verbose=not args.quiet)
            print(json.dumps(result), flush=True)
            return
        figures = measure(args.folder, verbose=not args.quiet, reader=reader)
        _summary(str(args.folder), figures)
        print(json.dumps(figures), flush=True)
        return
    if (REAL / "labels.json").exists():
        print(f"Real photos ({REAL}):")
        _summary("real photos", measure(REAL, verbose=not args.quiet, reader=reader))
    w, h = (int(v) for v in args.size.lower().split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        if args.scenes:
            from referee.vision.scenes import write_set as write_scenes

            makers = ", half in other makers' arrangements" if args.other_makers else ""
            makers += " (half of those made up)" if args.made_up_makers else ""
            makers += ", some sets' pips coloured apart from the face" if args.coloured_pips else ""
            print(
                f"Synthetic scenes ({args.count}, {w}x{h}, seed {args.seed}{makers}), generated into {tmp}:"
            )
            write_scenes(
                Path(tmp), args.count, seed=args.seed, size=(w, h), other_makers=args.other_makers,
                made_up_makers=args.made_up_makers, coloured_pips=args.coloured_pips,
            )  # fmt: skip
        else:
            from referee.vision.synthetic import write_set  # heavy (OpenCV): only for the synthetic set

            kind = ("plain " if args.plain else "") + ("thick " if args.thick else "")
            print(f"Synthetic {kind}photos ({args.count}, {w}x{h}, seed {args.seed}), generated into {tmp}:")
            write_set(
                Path(tmp), args.count, seed=args.seed, size=(w, h), plain=args.plain, thick=args.thick,
                grids=args.grids,
            )  # fmt: skip
        figures = measure(Path(tmp), verbose=not args.quiet, reader=reader)
    _summary("synthetic photos", figures)
    print(json.dumps(figures), flush=True)
