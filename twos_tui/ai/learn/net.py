"""The move scorer's network: two hidden layers (ReLU) and two outputs per move, in
numpy: a policy logit (a softmax over the legal moves gives the move to play) and a
value logit (a sigmoid gives the chance that the seat wins the deal after the move).

Weights ship as ``weights/<name>.npz`` with the arrays ``w1 b1 w2 b2 w3 b3`` and
``meta`` (a JSON string: the format version, the input size, the games it is for).
:func:`load` checks all of it and raises :class:`WeightsError`, with a sentence saying
what is wrong, for a file that is missing, damaged, of another shape or not finite.
"""

from __future__ import annotations

import json
import zipfile
from importlib import resources
from pathlib import Path
from typing import NotRequired, TypedDict

import numpy as np

from .features import DIM

FORMAT = 1
ARRAYS = ("w1", "b1", "w2", "b2", "w3", "b3")

#: variant id -> the weight file its networks use (one file may serve several games)
WEIGHTS = {
    "twos": "twos",
    "big-two": "big-two",
    "big-two-5r": "big-two",
    "chinese-poker": "chinese-poker",
}


class TrainedFor(TypedDict):
    """What a network was trained for (``train.py`` writes it into the file)."""

    variant: str
    players: list[int]  #: the player counts of its games
    hidden: list[int]  #: the sizes of its two hidden layers
    seed: int


class WeightsMeta(TypedDict):
    """A weight file's ``meta``: the format and input size, then (a trained network)
    what it was trained for. Read back, only the keys of these types are kept."""

    format: int
    inputs: NotRequired[int]
    variant: NotRequired[str]
    players: NotRequired[list[int]]
    hidden: NotRequired[list[int]]
    seed: NotRequired[int]


class WeightsError(ValueError):
    """A weight file that cannot be used (the message says why)."""


class Net:
    """A loaded network: per row of ``x`` (one legal move), ``logits(x)`` the policy's
    preference and ``value(x)`` the chance to win after the move."""

    def __init__(self, arrays: dict[str, np.ndarray], meta: WeightsMeta, name: str = "") -> None:
        self.w1, self.b1 = arrays["w1"], arrays["b1"]
        self.w2, self.b2 = arrays["w2"], arrays["b2"]
        self.w3, self.b3 = arrays["w3"], arrays["b3"]
        self.meta = meta
        self.name = name

    def outputs(self, x: np.ndarray) -> np.ndarray:
        """(rows, 2): the policy logit and the value logit of each row."""
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        h = np.maximum(h @ self.w2 + self.b2, 0.0)
        out: np.ndarray = h @ self.w3 + self.b3
        return out

    def logits(self, x: np.ndarray) -> np.ndarray:
        return self.outputs(x)[:, 0]

    def value(self, x: np.ndarray) -> np.ndarray:
        out: np.ndarray = 1.0 / (1.0 + np.exp(-self.outputs(x)[:, 1]))
        return out

    def score(self, x: np.ndarray) -> np.ndarray:
        """The policy's probabilities over the rows (one decision's legal moves)."""
        z = self.logits(x)
        e = np.exp(z - z.max())
        out: np.ndarray = e / e.sum()
        return out

    def arrays(self) -> dict[str, np.ndarray]:
        return {k: getattr(self, k) for k in ARRAYS}


def init(rng: np.random.Generator, hidden: tuple[int, int] = (128, 64)) -> Net:
    """A fresh network (He initialisation) for training."""
    h1, h2 = hidden
    arrays = {
        "w1": (rng.standard_normal((DIM, h1)) * np.sqrt(2.0 / DIM)).astype(np.float32),
        "b1": np.zeros(h1, dtype=np.float32),
        "w2": (rng.standard_normal((h1, h2)) * np.sqrt(2.0 / h1)).astype(np.float32),
        "b2": np.zeros(h2, dtype=np.float32),
        "w3": (rng.standard_normal((h2, 2)) * np.sqrt(1.0 / h2)).astype(np.float32),
        "b3": np.zeros(2, dtype=np.float32),
    }
    return Net(arrays, {"format": FORMAT, "inputs": DIM})


def save(net: Net, path: str | Path, trained: TrainedFor) -> None:
    meta: WeightsMeta = {"format": FORMAT, "inputs": DIM, **trained}
    w = net.arrays()
    np.savez_compressed(
        path,
        w1=w["w1"],
        b1=w["b1"],
        w2=w["w2"],
        b2=w["b2"],
        w3=w["w3"],
        b3=w["b3"],
        meta=np.array(json.dumps(meta)),
    )


def _ints(v: object) -> list[int] | None:
    if isinstance(v, list) and all(type(x) is int for x in v):
        return [int(x) for x in v]
    return None


def read_meta(raw: object, name: str) -> WeightsMeta:
    """The ``meta`` of weight file ``name`` as JSON just parsed: :class:`WeightsError`
    unless it is an object of this format; its known keys of the right type are kept."""
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise WeightsError(f"the AI weight file {name} is of an unknown format")
    meta: WeightsMeta = {"format": FORMAT}
    inputs, variant, seed = raw.get("inputs"), raw.get("variant"), raw.get("seed")
    players, hidden = _ints(raw.get("players")), _ints(raw.get("hidden"))
    if type(inputs) is int:
        meta["inputs"] = inputs
    if isinstance(variant, str):
        meta["variant"] = variant
    if players is not None:
        meta["players"] = players
    if hidden is not None:
        meta["hidden"] = hidden
    if type(seed) is int:
        meta["seed"] = seed
    return meta


def load(path: str | Path) -> Net:
    """The network in ``path``; :class:`WeightsError` if it cannot be used."""
    name = Path(path).name
    try:
        with np.load(path, allow_pickle=False) as z:
            missing = [k for k in (*ARRAYS, "meta") if k not in z.files]
            if missing:
                raise WeightsError(
                    f"the AI weight file {name} is damaged: it lacks {', '.join(missing)}"
                )
            arrays = {k: np.asarray(z[k], dtype=np.float32) for k in ARRAYS}
            raw_meta: object = json.loads(str(z["meta"]))
    except WeightsError:
        raise
    except FileNotFoundError:
        raise WeightsError(f"the AI weight file {name} is missing") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError, KeyError) as e:
        raise WeightsError(
            f"the AI weight file {name} is damaged and cannot be read ({e})"
        ) from None
    meta = read_meta(raw_meta, name)
    h1 = arrays["w1"].shape[-1] if arrays["w1"].ndim == 2 else -1
    h2 = arrays["w2"].shape[-1] if arrays["w2"].ndim == 2 else -1
    want = {
        "w1": (DIM, h1),
        "b1": (h1,),
        "w2": (h1, h2),
        "b2": (h2,),
        "w3": (h2, 2),
        "b3": (2,),
    }
    for k, shape in want.items():
        if arrays[k].shape != shape or h1 < 1 or h2 < 1:
            raise WeightsError(
                f"the AI weight file {name} does not fit this version: {k} is "
                f"{arrays[k].shape}, expected {shape}"
            )
        if not np.all(np.isfinite(arrays[k])):
            raise WeightsError(f"the AI weight file {name} is damaged: {k} is not finite")
    return Net(arrays, meta, name)


_CACHE: dict[str, Net] = {}


def weights_path(variant_id: str) -> Path:
    file = WEIGHTS.get(variant_id)
    if file is None:
        raise WeightsError(f"there are no AI weights for {variant_id}")
    return Path(str(resources.files(__package__).joinpath("weights", f"{file}.npz")))


def net_for(variant_id: str) -> Net:
    """The shipped network of a climbing game (loaded once); :class:`WeightsError`."""
    path = weights_path(variant_id)
    key = str(path)
    got = _CACHE.get(key)
    if got is None:
        got = _CACHE[key] = load(path)
    return got
