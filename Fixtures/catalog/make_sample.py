#!/usr/bin/env python3
"""Writes the built-in sample catalog (sample-cards.json, sample-sets.json) from facts typed in below.

Nothing here is read from ../shared. Each card row is a fact about a real printing (name, set,
collector number, rarity, mana cost, type line, layout). Ids are NOT Scryfall's: `id` is a
deterministic UUID (uuid5 of "cardscan-sample:<set>/<number>/<lang>") and `oracle_id` is uuid5 of
"cardscan-sample-oracle:<name>", so the files are reproducible; real imports replace them.
Output is Scryfall's format: a JSON array of card objects, and a Scryfall `/sets` list.

Run: python3 Fixtures/catalog/make_sample.py   (rewrites the two JSON files beside it)
"""
import json
import os
import re
import uuid

# code, name, release date, set type, printed size (the "/274" on cards; None where cards print none)
SETS = [
    ("lea", "Limited Edition Alpha", "1993-08-05", "core", None),
    ("2ed", "Unlimited Edition", "1993-12-01", "core", None),
    ("atq", "Antiquities", "1994-03-04", "expansion", None),
    ("3ed", "Revised Edition", "1994-04-01", "core", None),
    ("apc", "Apocalypse", "2001-06-04", "expansion", 143),
    ("7ed", "Seventh Edition", "2001-04-11", "core", 350),
    ("8ed", "Eighth Edition", "2003-07-28", "core", 350),
    ("tsp", "Time Spiral", "2006-10-06", "expansion", 301),
    ("fut", "Future Sight", "2007-05-04", "expansion", 180),
    ("m10", "Magic 2010", "2009-07-17", "core", 249),
    ("wwk", "Worldwake", "2010-02-05", "expansion", 145),
    ("isd", "Innistrad", "2011-09-30", "expansion", 264),
    ("rtr", "Return to Ravnica", "2012-10-05", "expansion", 274),
    ("ths", "Theros", "2013-09-27", "expansion", 249),
    ("m15", "Magic 2015", "2014-07-18", "core", 269),
    ("ktk", "Khans of Tarkir", "2014-09-26", "expansion", 269),
    ("frf", "Fate Reforged", "2015-01-23", "expansion", 185),
    ("dtk", "Dragons of Tarkir", "2015-03-27", "expansion", 264),
    ("ori", "Magic Origins", "2015-07-17", "core", 272),
    ("bfz", "Battle for Zendikar", "2015-10-02", "expansion", 274),
    ("cn2", "Conspiracy: Take the Crown", "2016-08-26", "draft_innovation", 221),
    ("ogw", "Oath of the Gatewatch", "2016-01-22", "expansion", 184),
    ("kld", "Kaladesh", "2016-09-30", "expansion", 264),
    ("c16", "Commander 2016", "2016-11-11", "commander", 351),
    ("aer", "Aether Revolt", "2017-01-20", "expansion", 184),
    ("xln", "Ixalan", "2017-09-29", "expansion", 279),
    ("dom", "Dominaria", "2018-04-27", "expansion", 269),
    ("rna", "Ravnica Allegiance", "2019-01-25", "expansion", 259),
    ("war", "War of the Spark", "2019-05-03", "expansion", 264),
    ("eld", "Throne of Eldraine", "2019-10-04", "expansion", 269),
    ("mb1", "Mystery Booster", "2019-11-07", "masters", None),  # (printed size not recorded here)
    ("mh2", "Modern Horizons 2", "2021-06-18", "draft_innovation", 303),
    ("pz2", "Treasure Chest", "2016-11-16", "treasure_chest", None),  # Magic Online only
    ("neo", "Kamigawa: Neon Dynasty", "2022-02-18", "expansion", 302),
    ("snc", "Streets of New Capenna", "2022-04-29", "expansion", 281),
    ("dmu", "Dominaria United", "2022-09-09", "expansion", 281),
    ("ltr", "The Lord of the Rings: Tales of Middle-earth", "2023-06-23", "expansion", None),
]

# Sets released only in a video game: their cards get Scryfall's `"digital": true`.
DIGITAL = {"pz2"}

# Sets printed with a white border (Scryfall's `border_color`); every other set here is black-bordered.
WHITE_BORDER = {"2ed", "3ed", "7ed", "8ed"}

# set, number, name, rarity, mana cost, type line[, layout, faces [(name, cost, type)], lang, printed name]
CARDS = [
    # The synthetic fixtures' cards.
    ("bfz", "171", "Broodhunter Wurm", "common", "{3}{G}", "Creature — Wurm"),
    ("xln", "179", "Carnage Tyrant", "mythic", "{4}{G}{G}", "Creature — Dinosaur"),
    ("dtk", "57", "Gurmag Drowner", "common", "{3}{U}", "Creature — Naga Wizard"),
    ("dmu", "107", "Sheoldred, the Apocalypse", "mythic", "{2}{B}{B}", "Legendary Creature — Phyrexian Praetor"),
    ("ltr", "246", "The One Ring", "mythic", "{4}", "Legendary Artifact"),
    # Counterspell in several sets (ambiguity by name).
    ("lea", "54", "Counterspell", "uncommon", "{U}{U}", "Instant"),
    ("2ed", "55", "Counterspell", "uncommon", "{U}{U}", "Instant"),
    ("7ed", "67", "Counterspell", "uncommon", "{U}{U}", "Instant"),
    ("mh2", "267", "Counterspell", "uncommon", "{U}{U}", "Instant"),
    # Basic lands: several numbers in one set (ambiguity by number).
    *[("ori", str(n), "Forest", "common", "", "Basic Land — Forest") for n in range(269, 273)],
    *[("ori", str(n), "Mountain", "common", "", "Basic Land — Mountain") for n in range(265, 269)],
    *[("ori", str(n), "Swamp", "common", "", "Basic Land — Swamp") for n in range(261, 265)],
    *[("ktk", str(n), "Mountain", "common", "", "Basic Land — Mountain") for n in range(262, 266)],
    *[("m15", str(n), "Swamp", "common", "", "Basic Land — Swamp") for n in range(258, 262)],
    # Labelled photos and scans in ../shared/photos/labels.csv.
    ("tsp", "142", "Aetherflame Wall", "common", "{1}{R}", "Creature — Wall"),
    ("ori", "6", "Aven Battle Priest", "common", "{5}{W}", "Creature — Bird Cleric"),
    # Its Mystery Booster reprint: a photo taken before 2019 cannot show it.
    ("mb1", "30", "Aven Battle Priest", "common", "{5}{W}", "Creature — Bird Cleric"),
    # A name close to it (the matcher's margin between names).
    ("ktk", "1", "Abzan Battle Priest", "uncommon", "{3}{W}", "Creature — Human Cleric"),
    ("ori", "211", "Blood-Cursed Knight", "uncommon", "{1}{W}{B}", "Creature — Vampire Knight"),
    ("8ed", "181", "Canyon Wildcat", "common", "{1}{R}", "Creature — Cat"),
    ("ori", "54", "Disperse", "common", "{1}{U}", "Instant"),
    ("bfz", "25", "Felidar Cub", "common", "{1}{W}", "Creature — Cat Beast"),
    ("bfz", "30", "Gideon's Reproach", "common", "{1}{W}", "Instant"),
    ("frf", "16", "Lightform", "uncommon", "{1}{W}{W}", "Enchantment"),
    ("ori", "154", "Mage-Ring Bully", "common", "{1}{R}", "Creature — Human Warrior"),
    ("neo", "29", "Michiko's Reign of Truth // Portrait of Michiko", "uncommon", "{1}{W}",
     "Enchantment — Saga // Enchantment Creature — Human Noble", "transform",
     [("Michiko's Reign of Truth", "{1}{W}", "Enchantment — Saga"),
      ("Portrait of Michiko", "", "Enchantment Creature — Human Noble")]),
    ("bfz", "179", "Natural Connection", "common", "{2}{G}", "Instant"),
    ("frf", "81", "Reach of Shadows", "common", "{4}{B}", "Instant"),
    ("bfz", "243", "Sandstone Bridge", "common", "", "Land"),
    ("bfz", "13", "Scour from Existence", "common", "{7}", "Instant"),
    ("wwk", "111", "Slingbow Trap", "uncommon", "{3}{G}", "Instant — Trap"),
    ("bfz", "157", "Sure Strike", "common", "{1}{R}", "Instant"),
    ("dtk", "233", "Swift Warkite", "uncommon", "{4}{B}{R}", "Creature — Dragon"),
    ("ori", "80", "Tower Geist", "uncommon", "{3}{U}", "Creature — Spirit"),
    ("ori", "39", "Valor in Akros", "uncommon", "{3}{W}", "Enchantment"),
    ("dtk", "247", "Vial of Dragonfire", "common", "{2}", "Artifact"),
    ("frf", "58", "Will of the Naga", "common", "{4}{U}{U}", "Instant"),
    ("c16", "143", "Burgeoning", "rare", "{G}", "Enchantment"),
    # Labelled photos added with the esbillyjack, notavu and lexicalunit folders.
    ("atq", "80a", "Mishra's Factory", "rare", "", "Land"),
    ("3ed", "283", "Bayou", "rare", "", "Land — Swamp Forest"),
    ("war", "55", "Jace's Triumph", "uncommon", "{2}{U}", "Sorcery"),
    ("snc", "116", "Professional Face-Breaker", "rare", "{2}{R}", "Creature — Human Warrior"),
    ("kld", "64", "Shrewd Negotiation", "uncommon", "{4}{U}", "Sorcery"),
    ("ogw", "42", "Cultivator Drone", "common", "{2}{U}", "Creature — Eldrazi Drone"),
    ("c16", "35", "Kydele, Chosen of Kruphix", "mythic", "{2}{G}{U}", "Legendary Creature — Human Wizard"),
    ("cn2", "78", "Queen Marchesa", "mythic", "{1}{R}{W}{B}", "Legendary Creature — Human Assassin"),
    # Its Magic Online-only printing: no photo can show it.
    ("pz2", "50", "Queen Marchesa", "mythic", "{1}{R}{W}{B}", "Legendary Creature — Human Assassin"),
    ("frf", "150", "Cunning Strike", "common", "{3}{U}{R}", "Instant"),
    ("frf", "56", "Torrent Elemental", "mythic", "{4}{U}", "Creature — Elemental"),
    ("ori", "121", "Thornbow Archer", "common", "{B}", "Creature — Elf Archer"),
    ("frf", "1", "Ugin, the Spirit Dragon", "mythic", "{8}", "Legendary Planeswalker — Ugin"),
    ("rtr", "174", "Jarad, Golgari Lich Lord", "mythic", "{B}{B}{G}{G}", "Legendary Creature — Zombie Elf"),
    # Well-known cards for demos.
    ("m10", "146", "Lightning Bolt", "common", "{R}", "Instant"),
    ("m10", "146", "Lightning Bolt", "common", "{R}", "Instant", "normal", None, "ja", "稲妻"),
    ("dom", "168", "Llanowar Elves", "common", "{G}", "Creature — Elf Druid"),
    ("dom", "33", "Serra Angel", "uncommon", "{3}{W}{W}", "Creature — Angel"),
    ("xln", "65", "Opt", "common", "{U}", "Instant"),
    ("aer", "57", "Fatal Push", "uncommon", "{B}", "Instant"),
    ("ths", "107", "Thoughtseize", "rare", "{B}", "Sorcery"),
    ("fut", "153", "Tarmogoyf", "rare", "{1}{G}", "Creature — Lhurgoyf"),
    ("isd", "51", "Delver of Secrets // Insectile Aberration", "common", "{U}",
     "Creature — Human Wizard // Creature — Human Insect", "transform",
     [("Delver of Secrets", "{U}", "Creature — Human Wizard"), ("Insectile Aberration", "", "Creature — Human Insect")]),
    ("isd", "78", "Snapcaster Mage", "rare", "{1}{U}", "Creature — Human Wizard"),
    ("wwk", "31", "Jace, the Mind Sculptor", "mythic", "{2}{U}{U}", "Legendary Planeswalker — Jace"),
    ("mh2", "138", "Ragavan, Nimble Pilferer", "mythic", "{R}", "Legendary Creature — Monkey Pirate"),
    ("apc", "128", "Fire // Ice", "uncommon", "{1}{R} // {1}{U}", "Instant // Instant", "split",
     [("Fire", "{1}{R}", "Instant"), ("Ice", "{1}{U}", "Instant")]),
    ("eld", "39", "Brazen Borrower // Petty Theft", "mythic", "{1}{U}{U} // {1}{U}",
     "Creature — Faerie Rogue // Instant — Adventure", "adventure",
     [("Brazen Borrower", "{1}{U}{U}", "Creature — Faerie Rogue"), ("Petty Theft", "{1}{U}", "Instant — Adventure")]),
    ("rna", "22", "Smothering Tithe", "rare", "{3}{W}", "Enchantment"),
]

SYMBOL = re.compile(r"\{([^}]*)\}")


def mana_value(cost, layout):
    # A split card's mana value is the sum of its halves; other multi-face cards use the front face.
    total = 0
    part = cost if layout == "split" else (cost.split(" // ")[0] if cost else "")
    for sym in SYMBOL.findall(part):
        total += int(sym) if sym.isdigit() else (0 if sym == "X" else 1)
    return total


def colors(cost):
    return [c for c in "WUBRG" if "{%s}" % c in (cost or "")]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    sets = {s[0]: s for s in SETS}
    cards = []
    for row in CARDS:
        set_code, number, name, rarity, cost, type_line = row[:6]
        layout = row[6] if len(row) > 6 else "normal"
        faces = row[7] if len(row) > 7 else None
        lang = row[8] if len(row) > 8 else "en"
        printed = row[9] if len(row) > 9 else None
        code, set_name, released, set_type, _ = sets[set_code]
        card = {
            "object": "card",
            "id": str(uuid.uuid5(uuid.NAMESPACE_URL, "cardscan-sample:%s/%s/%s" % (set_code, number, lang))),
            "oracle_id": str(uuid.uuid5(uuid.NAMESPACE_URL, "cardscan-sample-oracle:%s" % name)),
            "name": name,
            "lang": lang,
            "released_at": released,
            "layout": layout,
            "mana_cost": cost,
            "cmc": mana_value(cost, layout),
            "type_line": type_line,
            "colors": colors(cost),
            "set": code,
            "set_name": set_name,
            "set_type": set_type,
            "collector_number": number,
            "rarity": rarity,
            "digital": set_code in DIGITAL,
            "border_color": "white" if set_code in WHITE_BORDER else "black",
        }
        if printed:
            card["printed_name"] = printed
        if faces:
            card["card_faces"] = [
                {"object": "card_face", "name": n, "mana_cost": c, "type_line": t} for n, c, t in faces
            ]
        cards.append(card)
    with open(os.path.join(here, "sample-cards.json"), "w", encoding="utf-8") as f:
        json.dump(cards, f, ensure_ascii=False, indent=1)
        f.write("\n")
    used = sorted({c["set"] for c in cards})
    data = []
    for code in used:
        _, name, released, set_type, printed_size = sets[code]
        entry = {"object": "set", "code": code, "name": name, "released_at": released, "set_type": set_type}
        if printed_size:
            entry["printed_size"] = printed_size
        data.append(entry)
    with open(os.path.join(here, "sample-sets.json"), "w", encoding="utf-8") as f:
        json.dump({"object": "list", "has_more": False, "data": data}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print("wrote %d cards in %d sets" % (len(cards), len(data)))


if __name__ == "__main__":
    main()
