"""``python -m referee.vision.quantize FOLDER``: the counters and the outliner of a models
folder written again with their weights and what flows between their layers in eight-bit
integers, and the finder so beside it for the second look, the files the app reads. Needs the ``train`` extra (ONNX's tools); the app runs the
files with onnxruntime alone, as it runs the networks as trained.

Why: a photo's reading is mostly the networks' time, and of it the counters' a few hundred
crops (each mark four times, the retry's shapes, the pips of the tiles read and their
recount). In eight bits the counter runs about 2.5 times faster on this 2-core CPU (its vector
unit multiplies eight-bit integers), and reads as it did: on 100 validation scenes of each
kind the same tiles to one or two (docs/BENCHMARKS.md). The finder's first look stays as
trained: in eight bits it marked fewer of the scenes' tiles (two to three of 364 more missed);
its second look, four runs at up to 1,280 x 960 and most of the slowest photos' time, is the
finder in eight bits (``model.SECOND_LOOK_FINDER``: the same tiles read).

How: each network's values are scaled as onnxruntime's static quantization measures them
(``CalibrationMethod.MinMax``: the least and greatest value each layer gives) on the inputs the
reader gives it reading ``CALIBRATION_SCENES`` training scenes (seeds from
``CALIBRATION_SEED``, never a validation scene) with the networks as trained, and each layer's
weights are scaled channel by channel. The same folder and scenes give the same files. A
counter resumed for training (``referee.vision.train --resume``) is rebuilt from the weights the
integers stand for (``as_float``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

from referee.vision import geometry as g
from referee.vision import scenes
from referee.vision.examples import VALIDATION_SEED, scene_for
from referee.vision.model import (
    MODELS,
    OUTLINER,
    PIP_COUNTERS,
    SECOND_LOOK_FINDER,
    TILE_COUNTERS,
    Network,
    load,
    read_rgb,
)

CALIBRATION_SEED = 4_000_000  # the training's seeds: a validation scene is never among them
CALIBRATION_SCENES = 24
CALIBRATION_STEP = 977  # scenes far apart in the training's seeds: sizes, tables and sets vary
# crops or squares shown to the calibration at once (the finder is shown one photo a run)
CALIBRATION_BATCH = 64
# reader.json's key: how the folder's networks were quantized, where they were (``quantize``)
QUANTIZED = "quantized"
# the file of the finder in eight bits, for the second look (model.SECOND_LOOK_FINDER)
SECOND_LOOK_FILE = "finder-second-look.onnx"

assert CALIBRATION_SEED + CALIBRATION_STEP * CALIBRATION_SCENES < VALIDATION_SEED


def networks(folder: Path) -> dict[str, tuple[str, str]]:
    """Each ONNX file of ``folder`` quantized (the counters and the outliner its reader.json
    names) and the file the quantized one is written to, with the name of its input: each in
    its own place, and the finder beside itself for the second look (above)."""
    meta = json.loads((folder / "reader.json").read_text())
    files = {"counter.onnx": ("counter.onnx", "crops")}
    files.update({name: (name, "crops") for name in meta.get(PIP_COUNTERS, [])})
    files.update({name: (name, "crops") for name in meta.get(TILE_COUNTERS, [])})
    if meta.get(OUTLINER):
        files[meta[OUTLINER]] = (meta[OUTLINER], "squares")
    files["finder.onnx"] = (SECOND_LOOK_FILE, "image")
    return files


def is_quantized(model: onnx.ModelProto) -> bool:
    return any(node.op_type == "DequantizeLinear" for node in model.graph.node)


def calibration_inputs(folder: Path) -> dict[str, list[np.ndarray]]:
    """What each network ``networks`` names is given while the reader reads the calibration
    scenes as the app reads them (other makers' and made-up makers' sets among them, as the
    shipped counters trained): the finder's photos of both looks one by one (it reads one a
    run), the counters' crops and the outliner's squares in batches of ``CALIBRATION_BATCH``."""
    load.cache_clear()
    reader = load(folder)
    load.cache_clear()
    meta = json.loads((folder / "reader.json").read_text())
    pip_counters = meta.get(PIP_COUNTERS, [])
    given: dict[str, list[np.ndarray]] = {"finder": [], "tile": [], "pips": [], "outliner": []}

    def seen(name: str, network: Network) -> Network:
        def recorded(x: np.ndarray) -> np.ndarray:
            given[name].append(x.copy())
            return network(x)

        return recorded

    finder, counter = seen("finder", reader.finder), seen("pips", reader.counter)
    tile_counter = seen("tile", reader.tile_counter)
    outliner = None if reader.outliner is None else seen("outliner", reader.outliner)
    # where reader.json names a finder for the second look already, what it is given is the finder's
    closer = None if reader.second_look_finder is None else seen("finder", reader.second_look_finder)
    with scenes.other_makers_share(True, made_up=True):
        for k in range(CALIBRATION_SCENES):
            scene, _factor = scene_for(CALIBRATION_SEED + CALIBRATION_STEP * k)
            read_rgb(scene.rgb, g.MAX_PIPS, finder, counter, reader.settings, tile_counter, outliner, closer)
    batched = {name: _batches(arrays) for name, arrays in given.items() if name != "finder"}
    # the pip counters count the crops of the tiles read (and their recount); counter.onnx sees
    # every mark and the retry's shapes, and counts them too where reader.json says it does
    inputs = {"finder.onnx": given["finder"], "counter.onnx": batched["tile"] + batched["pips"]}
    for name in pip_counters:
        inputs[name] = batched["pips"]
    for name in meta.get(TILE_COUNTERS, []):  # they see what counter.onnx sees of what is a tile
        inputs[name] = batched["tile"]
    if meta.get(OUTLINER):
        inputs[meta[OUTLINER]] = batched["outliner"]
    return inputs


def _batches(arrays: list[np.ndarray]) -> list[np.ndarray]:
    if not arrays:
        return []
    joined = np.concatenate(arrays)
    return [joined[i : i + CALIBRATION_BATCH] for i in range(0, len(joined), CALIBRATION_BATCH)]


def quantize(folder: Path, out: Path | None = None) -> dict[str, int]:
    """``folder``'s networks quantized into ``out`` (``folder`` itself where None), with a
    reader.json saying so; the files' sizes. A folder already quantized is refused: its
    networks no longer give the values to calibrate on."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Given(CalibrationDataReader):  # type: ignore[misc]
        """The calibration's inputs of one network, one after another."""

        def __init__(self, name: str, arrays: list[np.ndarray]) -> None:
            self._items: Iterator[dict[str, np.ndarray]] = iter([{name: a} for a in arrays])

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self._items, None)

    out = folder if out is None else out
    files = networks(folder)
    for name in files:
        if is_quantized(onnx.load(str(folder / name))):
            raise ValueError(f"{folder / name} is quantized already: quantize the networks as trained")
    inputs = calibration_inputs(folder)
    out.mkdir(parents=True, exist_ok=True)
    sizes = {}
    with tempfile.TemporaryDirectory() as scratch:
        for name, (written, input_name) in files.items():
            prepared = Path(scratch) / name
            # the graph simplified and its shapes written in, as the quantization wants it
            quant_pre_process(str(folder / name), str(prepared), skip_symbolic_shape=True)
            quantize_static(
                str(prepared),
                str(out / written),
                Given(input_name, inputs[name]),
                quant_format=QuantFormat.QDQ,
                per_channel=True,
                activation_type=QuantType.QUInt8,
                weight_type=QuantType.QInt8,
                calibrate_method=CalibrationMethod.MinMax,
                # each Relu kept in the file (onnxruntime still joins it to its layer when it
                # runs the file), so that the network of floats is rebuilt whole (``as_float``)
                extra_options={"QDQKeepRemovableActivations": True},
            )
            sizes[written] = (out / written).stat().st_size
    if out != folder:  # the finder as trained beside its copy in eight bits
        shutil.copyfile(folder / "finder.onnx", out / "finder.onnx")
    meta = json.loads((folder / "reader.json").read_text())
    meta[SECOND_LOOK_FINDER] = SECOND_LOOK_FILE
    meta[QUANTIZED] = {
        "method": "onnxruntime static quantization, QDQ, int8 weights per channel, uint8 values, MinMax",
        "calibration": f"{CALIBRATION_SCENES} training scenes, seeds {CALIBRATION_SEED} + {CALIBRATION_STEP} k",
    }
    (out / "reader.json").write_text(json.dumps(meta, indent=1) + "\n")
    return sizes


def as_float(model: onnx.ModelProto) -> onnx.ModelProto:
    """A quantized network as the network of the weights its integers stand for: each weight
    and bias dequantized (named as before its quantization), and the quantization of what
    flows between layers taken out. Given a network as trained, the same network."""
    graph = model.graph
    initializers = {i.name: i for i in graph.initializer}
    renamed: dict[str, str] = {}
    weights: list[onnx.TensorProto] = []
    dropped: set[int] = set()
    # each value's producer, and where it stands among the nodes
    producers = {output: (index, node) for index, node in enumerate(graph.node) for output in node.output}
    for index, node in enumerate(graph.node):
        if node.op_type == "DequantizeLinear" and node.input[0] in initializers:
            quantized = numpy_helper.to_array(initializers[node.input[0]]).astype(np.float64)
            scale = numpy_helper.to_array(initializers[node.input[1]]).astype(np.float64)
            zero = numpy_helper.to_array(initializers[node.input[2]]).astype(np.float64)
            axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
            if scale.ndim == 1 and quantized.ndim > 1:
                shape = [1] * quantized.ndim
                shape[axis] = -1
                scale, zero = scale.reshape(shape), zero.reshape(shape)
            name = node.input[0].removesuffix("_quantized")
            weights.append(numpy_helper.from_array(((quantized - zero) * scale).astype(np.float32), name))
            if node.output[0] != name:
                renamed[node.output[0]] = name
            dropped.add(index)
        elif node.op_type == "DequantizeLinear":
            at, quantizer = producers.get(node.input[0], (-1, None))
            if quantizer is None or quantizer.op_type != "QuantizeLinear":
                raise ValueError(f"a DequantizeLinear ({node.name}) of no QuantizeLinear")
            renamed[node.output[0]] = quantizer.input[0]
            dropped.update((index, at))
    if not dropped:
        return model

    def source(name: str) -> str:  # a value's name in the network of floats
        while name in renamed:
            name = renamed[name]
        return name

    kept = []
    for index, node in enumerate(graph.node):
        if index in dropped:
            continue
        copy = onnx.NodeProto()
        copy.CopyFrom(node)
        for i, name in enumerate(copy.input):
            copy.input[i] = source(name)
        kept.append(copy)
    # an output the quantization had dequantized keeps its name
    kept += [
        onnx.helper.make_node("Identity", [source(output.name)], [output.name])
        for output in graph.output
        if output.name in renamed
    ]
    used = {name for node in kept for name in node.input}
    others = [i for i in graph.initializer if i.name in used and i.name not in {w.name for w in weights}]
    floats = onnx.helper.make_graph(
        kept,
        graph.name,
        list(graph.input),
        list(graph.output),
        initializer=[w for w in weights if w.name in used] + others,
    )
    rebuilt = onnx.helper.make_model(floats, opset_imports=list(model.opset_import))
    rebuilt.ir_version = model.ir_version
    return rebuilt


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m referee.vision.quantize", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("folder", type=Path, nargs="?", default=MODELS, help="a models folder as trained")
    parser.add_argument("--out", type=Path, default=None, help="where the quantized files go (the folder)")
    args = parser.parse_args(argv)
    sizes = quantize(args.folder, args.out)
    print(json.dumps(sizes))


if __name__ == "__main__":
    main()
