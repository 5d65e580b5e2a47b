#!/usr/bin/env python3
"""Measures the "answer" label with the highlighted sentence's meaning on the
TUNING and CALIBRATION parts of the evaluation (docs/SEARCH.md, ""answer"
from the highlighted sentence's meaning"). An offline check, not product
code; it never sees the held-out part.

    ARBITER_SHARED_DIR=../shared cargo run --release --example search_eval -- --calibrate > /tmp/tun.txt
    ARBITER_SHARED_DIR=../shared cargo run --release --example search_eval -- --calibrate --part calibration > /tmp/cal.txt
    python3 tools/answer_sentence.py /tmp/tun.txt /tmp/cal.txt

Each EVID line ends with the sentence cosine (between the question and the
first passage's highlighted sentence; "-" without the semantic stage). The
script prints, per part and for the five games and MTG apart, the labels
right / labelled and the share of answerable questions labelled, for the
lexical rule, candidate 1 (0.3 / 0.6) and its neighbours (0.55, 0.65), and
candidate 2. Both candidates were measured once on held-out and not
adopted; the label rule is the lexical one. The evidence is read as printed
(rounded to two decimals: a margin of 1.198 reads 1.20), so a row or two can
differ from the product's own figures in docs/SEARCH.md.
Row counts can differ by a label or two from `search_eval`'s tables, which
ask through the app (card names, question sentence) as `arbiter ask` does.
"""
import sys


def load(path, part):
    rows = []
    for line in open(path, encoding="utf-8"):
        f = line.rstrip("\n").split("\t")
        if f[0] != "EVID":
            continue
        d = dict(part=part, kind=f[1], mtg=f[-1] == "mtg" if f[2] == "-" else f[11] == "mtg")
        if f[2] == "-":
            d.update(ev=False)
            rows.append(d)
            continue
        d.update(ev=True, cov=float(f[2]), hl=float(f[3]), margin=float(f[4]), unk=int(f[6]),
                 label=f[7], q=f[8], rivals=int(f[9]), strength=float(f[12]))
        if f[16] != "-":
            d.update(lr=int(f[18]), sr=int(f[19]))
            rest = f[20:]
        else:
            d.update(lr=None, sr=None)
            rest = f[17:]
        d["sc"] = None if rest[0] == "-" else float(rest[0])
        rows.append(d)
    return rows


def lexical(r):
    return (r["cov"] >= 0.5 and r["hl"] >= 0.3 and r["margin"] >= 1.6
            and r["strength"] >= 1.6 and r["rivals"] == 0 and r["unk"] == 0)


def support(r):
    return r["lr"] == 0 and r["strength"] >= 1.0 and r["margin"] >= 1.2


def rule(agrees, answers, first_by_cosine=False):
    def f(r):
        if r["cov"] < 0.2:
            return False
        if r["sc"] is None:
            return lexical(r)
        second = support(r) and r["sc"] >= answers and (r["sr"] == 0 or not first_by_cosine)
        return (lexical(r) and r["sc"] >= agrees) or second
    return f


def show(rows, name, f):
    out = []
    for part in ("tuning", "calibration"):
        for mtg in (False, True):
            sub = [r for r in rows if r["part"] == part and r["mtg"] == mtg]
            lab = [r for r in sub if r["ev"] and f(r)]
            right = sum(r["kind"] == "hit" for r in lab)
            unc = sum(r["kind"] == "uncovered" for r in lab)
            answerable = sum(r["kind"] in ("hit", "miss") for r in sub)
            out.append(f"{part} {'mtg' if mtg else 'five'} {right}/{len(lab)} "
                       f"({100 * right / max(answerable, 1):.0f} %, uncovered {unc})")
    print(f"{name:42s}", " | ".join(out))


def main():
    rows = load(sys.argv[1], "tuning") + load(sys.argv[2], "calibration")
    show(rows, "lexical rule", lambda r: r["cov"] >= 0.2 and lexical(r))
    for answers in (0.55, 0.6, 0.65):
        show(rows, f"sentence 0.3 / {answers}", rule(0.3, answers))
    show(rows, "candidate 2 (0.3 / 0.65, first by cosine)", rule(0.3, 0.65, True))


if __name__ == "__main__":
    main()
