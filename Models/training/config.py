"""What the training lines are made of: character sets, fonts (Debian packages, installed by
scripts/train-model), and the ranges of the conditions they are rendered in."""

# The collector model's characters: the collector lines (`171/274 C`, `BFZ • EN`, `0171 C`,
# `BFZ ★ EN` on foils), the artist after them, and the copyright line of older frames
# (`™ & © 2009 Wizards of the Coast, Inc. 111/145`, `Illus. Name`), which tells the reader that
# the number is in the copyright band. Lower case is there for those lines only.
COLLECTOR_CHARSET = set(
    "0123456789"
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    "abcdefghijklmnopqrstuvwxyz"
    " /•★*™&©,.-'"
)

# The share of each kind of line (lines.py `collector_line`). Number lines are short and copyright
# lines long: by characters, 22% copyright lines made 47% of a first run's text and its young
# model wrote `Wizards of the Coast` over any small print, so the numbers come first.
# Run C moved 5% from number lines to set lines: run B read numbers far better than set + language.
COLLECTOR_LINE_MIX = {
    "number_2015": 0.40,     # 171/274 C
    "number_2023": 0.12,     # 0171 C, R 0200
    "set_language": 0.33,    # BFZ • EN, and the artist after it
    "copyright_number": 0.05,  # ™ & © 2009 Wizards of the Coast, Inc. 111/145
    "copyright": 0.03,       # ™ & © 2015 Wizards of the Coast
    "illustrator": 0.02,     # Illus. Name
    "random": 0.05,          # digits and capitals in no order
}

# The share of set lines followed by the pen symbol and the artist (nearly every 2015+ card; run B
# drew it on half, and read the pen as letters that ate the language code).
ARTIST_AFTER_SET = 0.8

# Spacing of the collector lines, in units of the font size: letter spacing (none, some, or the very
# wide spacing of some set codes, `O R I`), word gaps in units of a space (the rarity letter stands
# two or three spaces from the number: run B, trained on single spaces, read a lone `U` as `LU`),
# and the gap before the pen symbol.
COLLECTOR_SPACING = {
    "tracking": (0.02, 0.25),
    "wide_tracking": (0.2, 0.45),
    "tracking_weights": (0.35, 0.45, 0.2),
    "wide_gaps": 0.6,
    "word_gap": (1.0, 2.8),
    "pen_gap": (0.35, 1.0),
}

# Printed rarity letters (common, uncommon, rare, mythic, special, land, token, promo).
RARITIES = list("CCCCUUURRRMMSLTP")

# Printed language codes (field notes: SP, JP, KR, CS, CT are what cards print), English most often.
LANGUAGES_WEIGHTED = ["EN"] * 12 + ["DE", "FR", "IT", "SP", "PT", "JP", "KR", "RU", "CS", "CT", "PH"]

# Sans faces close to the collector lines' (a wide geometric sans, widely spaced, on 2015+ frames;
# narrower faces in older copyright lines), from fonts-dejavu-core, fonts-liberation,
# fonts-roboto-unhinted, fonts-urw-base35, fonts-texgyre, fonts-open-sans, fonts-crosextra-carlito.
COLLECTOR_FONTS = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/open-sans/OpenSans-Regular.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSans-Bold.otf",
    "/usr/share/fonts/opentype/urw-base35/URWGothic-Book.otf",
    "/usr/share/fonts/opentype/urw-base35/URWGothic-Demi.otf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Regular.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Medium.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Bold.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Medium.ttf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Regular.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Bold.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreheroscn-regular.otf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreheroscn-bold.otf",
    "/usr/share/fonts/truetype/open-sans/OpenSans-CondBold.ttf",
    "/usr/share/fonts/truetype/open-sans/OpenSans-Semibold.ttf",
    "/usr/share/fonts/truetype/crosextra/Carlito-Regular.ttf",
    "/usr/share/fonts/truetype/crosextra/Carlito-Bold.ttf",
]

# Serif faces for titles (fonts-linuxlibertine, fonts-dejavu, fonts-liberation, fonts-crosextra-caladea,
# fonts-urw-base35, fonts-texgyre).
TITLE_FONTS = [
    "/usr/share/fonts/opentype/linux-libertine/LinLibertine_RB.otf",
    "/usr/share/fonts/opentype/linux-libertine/LinLibertine_R.otf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerifCondensed-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
    "/usr/share/fonts/truetype/crosextra/Caladea-Bold.ttf",
    "/usr/share/fonts/opentype/urw-base35/NimbusRoman-Bold.otf",
    "/usr/share/fonts/opentype/urw-base35/URWBookman-Demi.otf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyrepagella-bold.otf",
]

# Ranges each rendered line draws from (uniform), and the share of lines given each effect.
# Cap heights 7-30 px are those of the lines in the shared photos; the reader rectifies them to
# capitals of ~30 px (CardLayout.bottomCardHeight), so lines are drawn small, degraded, and scaled up.
COLLECTOR_CONDITIONS = {
    "cap_height": (7, 30),        # px, as photographed
    "rectified_cap": (24, 36),    # px, after the reader's warp
    "ink": (0, 90),
    "paper": (120, 255),
    "min_contrast": 60,
    "blur": (0.0, 1.2),           # Gaussian radius at the photographed size
    "noise": (0.0, 12.0),         # grey levels
    "jpeg_quality": (30, 90),
    "warp": 0.6,
    "uneven_light": 0.4,
    "clutter": 0.3,
    "white_on_black": 0.5,        # printed white on black (2015+ black borders) ...
    "keep_inverted": 0.2,         # ... and of those, left white-on-black (the reader's inversion missed)
}
TITLE_CONDITIONS = dict(COLLECTOR_CONDITIONS, cap_height=(9, 40), white_on_black=0.1)
