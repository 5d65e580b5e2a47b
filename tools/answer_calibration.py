#!/usr/bin/env python3
"""Fits a logistic model of the "answer" label on the TUNING part of the
evaluation and prints it as Rust constants (docs/SEARCH.md, ""answer" from
a model of the evidence"). An offline experiment, not product code: the
model was measured once on held-out and not adopted.

    ARBITER_SHARED_DIR=../shared cargo run --release --example search_eval -- --calibrate \\
        | grep '^EVID' > /tmp/evid.tsv
    python3 tools/answer_calibration.py /tmp/evid.tsv      # needs numpy, scikit-learn

`--calibrate` prints tuning questions only, so nothing here sees the
held-out part. A question is a positive when its first three passages hold
an expected id ("hit"); misses and questions the rules do not answer
("uncovered") are negatives. The threshold is chosen by cross-validation
(five folds, ten shuffles): the lowest probability, in steps of 0.05, at
which the out-of-fold labels are at least 97.5 % right, a margin over the
95 % target for questions unlike these.
"""

import math
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

NAMES = [
    "coverage",
    "highlight",
    "ln margin",
    "terms",
    "unknown topics > 0",
    "rivals",
    "strength",
    "ln family margin",
    "agree",
    "cosine",
    "cosine gap",
    "lexical rank 0",
    "semantic rank 0",
    "ln game passages",
]
PRECISION = 0.975


def features(r):
    """One EVID row's features (logarithms clamped at 1e-3)."""
    cov, hl, margin = float(r[2]), float(r[3]), float(r[4])
    terms, unknown = int(r[5]), int(r[6])
    rivals, strength, family, agree = int(r[9]), float(r[12]), float(r[13]), r[14] == "true"
    passages = int(r[15])
    cos, gap, lex, sem = float(r[16]), float(r[17]), int(r[18]), int(r[19])
    ln = lambda v: math.log(max(v, 1e-3))
    return [
        cov,
        hl,
        ln(margin),
        terms,
        unknown > 0,
        rivals,
        strength,
        ln(family),
        agree,
        cos,
        gap,
        lex == 0,
        sem == 0,
        ln(passages),
    ]


def main():
    rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1], encoding="utf-8")]
    # Rows without evidence ("none") or without the semantic stage are not labelled by the model.
    rows = [r for r in rows if r[2] != "-" and len(r) > 16 and r[16] != "-"]
    x = np.array([features(r) for r in rows], dtype=float)
    y = np.array([r[1] == "hit" for r in rows])
    kind = np.array([r[1] for r in rows])
    big = x[:, -1] > math.log(1000)
    out_of_fold = np.zeros(len(y))
    shuffles = 10
    for seed in range(shuffles):
        folds = StratifiedKFold(5, shuffle=True, random_state=seed)
        for train, test in folds.split(x, y):
            m = LogisticRegression(C=1.0, max_iter=5000).fit(x[train], y[train])
            out_of_fold[test] += m.predict_proba(x[test])[:, 1] / shuffles
    print(f"{len(y)} tuning questions with evidence, {y.sum()} hits; out-of-fold:")
    chosen = None
    for t in np.arange(0.95, 0.45, -0.05):
        sel = out_of_fold >= t
        right = (sel & y).sum()
        share = right / max(sel.sum(), 1)
        print(
            f"  p >= {t:.2f}: {sel.sum()} labelled, {right} right ({100 * share:.1f} %), "
            f"{100 * right / y.size:.1f} % of these questions; five games {(sel & y & ~big).sum()}/{(sel & ~big).sum()}, "
            f"whole rulebooks {(sel & y & big).sum()}/{(sel & big).sum()}, uncovered labelled {(sel & (kind == 'uncovered')).sum()}"
        )
        if share >= PRECISION and sel.sum() > 0:
            chosen = t
    m = LogisticRegression(C=1.0, max_iter=5000).fit(x, y)
    print(f"\nthreshold (lowest with out-of-fold precision >= {PRECISION}): {chosen:.2f}\n")
    print(f"const ANSWER_BIAS: f32 = {m.intercept_[0]:.4f};")
    print("const ANSWER_WEIGHTS: [f32; %d] = [" % len(NAMES))
    for n, c in zip(NAMES, m.coef_[0]):
        print(f"    {c:.4f}, // {n}")
    print("];")
    print(f"const ANSWER_PROBABILITY: f32 = {chosen:.2f};")


if __name__ == "__main__":
    main()
