#!/usr/bin/env python3
"""Compact comparison on the TUNING dump: the shipped formula
(1-λ)·score/best + λ·minmax(cosine) over the lexical top `depth`, for
several vectors files, using tools/emb_experiment.py's tallies (docs/SEARCH.md, "Other models").

    python3 tools/emb_compare.py DUMP NAME=VECTORS.json [NAME=VECTORS.json ...]
"""

import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import emb_experiment as E  # noqa: E402


def shipped(exp, lam=0.5, depth=20, lexnorm="max"):
    def ranker(q):
        ranked = q["ranked"]
        d = min(len(ranked), depth)
        if d < 2:
            return [c["id"] for c in ranked]
        s = np.array([c["score"] for c in ranked[:d]], dtype=np.float64)
        best = max(ranked[0]["score"], 1e-9)
        lex = s / best if lexnorm == "max" else E.norm_minmax(s)
        cos = exp.cosines("full", [exp.index[c["id"]] for c in ranked[:d]], q)
        lo, hi = cos.min(), cos.max()
        cn = (cos - lo) / (hi - lo) if hi > lo else np.zeros_like(cos)
        mixed = (1 - lam) * lex + lam * cn
        order = sorted(range(d), key=lambda i: (-mixed[i], i))
        return [ranked[i]["id"] for i in order] + [c["id"] for c in ranked[d:]]

    return ranker


def main():
    dump = pathlib.Path(sys.argv[1])
    runs = [a.split("=", 1) for a in sys.argv[2:]]
    exps = {name: E.Experiment(dump, path) for name, path in runs}
    first = next(iter(exps.values()))
    print(f"{len(first.questions)} tuning questions, {len(first.passages)} passages; "
          f"answerable: five {E.evaluate(first.questions, first.ours)['five games'].n}, "
          f"MTG {E.evaluate(first.questions, first.ours)['mtg'].n}\n")
    print("| model | variant | five top-1 | five top-3 | five MRR | MTG top-1 | MTG top-3 | MTG MRR |")
    print("|---|---|---|---|---|---|---|---|")
    t = E.evaluate(first.questions, first.ours)
    print(f"| - | ours (lexical, dump) | {t['five games'].cells()} | {t['mtg'].cells()} |")
    variants = [
        ("shipped: d20 λ=0.5", dict()),
        ("d20 λ=0.3", dict(lam=0.3)),
        ("d20 λ=0.7", dict(lam=0.7)),
        ("d10 λ=0.5", dict(depth=10)),
        ("d30 λ=0.5", dict(depth=30)),
        ("d30 λ=0.3", dict(depth=30, lam=0.3)),
        ("d20 λ=0.5 lex min-max", dict(lexnorm="minmax")),
    ]
    rankers = {}
    for name, exp in exps.items():
        for vname, kw in variants:
            r = shipped(exp, **kw)
            rankers[(name, vname)] = r
            t = E.evaluate(exp.questions, r)
            print(f"| {name} | {vname} | {t['five games'].cells()} | {t['mtg'].cells()} |")
        t = E.evaluate(exp.questions, exp.pure("full"))
        print(f"| {name} | pure cosine, whole game | {t['five games'].cells()} | {t['mtg'].cells()} |")
    names = list(exps)
    print()
    for name in names:
        exp = exps[name]
        r = rankers[(name, "shipped: d20 λ=0.5")]
        print(f"{name} shipped vs ours: top-1 {E.paired(exp, exp.ours, r, 1)}; top-3 {E.paired(exp, exp.ours, r)}")
    if len(names) >= 2:
        a, b = names[0], names[1]
        ra, rb = rankers[(a, "shipped: d20 λ=0.5")], rankers[(b, "shipped: d20 λ=0.5")]
        print(f"{b} vs {a} (shipped formula): top-1 {E.paired(exps[a], ra, rb, 1)}; top-3 {E.paired(exps[a], ra, rb)}")


if __name__ == "__main__":
    main()
