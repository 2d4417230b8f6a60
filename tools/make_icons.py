"""Draw the web app's icons: three Skyjo cards fanned on the table's green felt.

    .venv/bin/python tools/make_icons.py

writes src/skyjo/web/static/icons/: icon-192.png and icon-512.png (the manifest's),
maskable-512.png (the same cards inside the safe circle of a maskable icon, the felt
to every edge), apple-touch-icon.png (180 px), favicon.ico (16, 32 and 48 px) and
icon.svg (the same drawing as a vector, the page's favicon). The colours are the
cards' of style.css (-2 dark blue, 5-8 yellow, 9-12 red); the -2 is drawn in
Matplotlib's DejaVu Sans Bold, so the pictures come out the same on every machine.
Pillow is installed with Matplotlib."""

from __future__ import annotations

from pathlib import Path

import matplotlib
from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parent.parent / "src" / "skyjo" / "web" / "static" / "icons"
FONT = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans-Bold.ttf"
FELT = "#1f5f4f"
#: The cards, back to front: (face colour, digits' colour, text, turn in degrees, centre x).
CARDS = [
    ("#d6452f", "#ffffff", "", -18.0, 0.30),
    ("#f2cf3b", "#2c2500", "", 18.0, 0.70),
    ("#3341a6", "#ffffff", "-2", 0.0, 0.50),
]
CARD_W, CARD_H = 0.38, 0.54  # of the picture's side
SUPER = 4  # drawn this many times larger, then scaled down: smooth edges


def card(side: int, face: str, ink: str, text: str) -> Image.Image:
    """One upright card on a transparent square of `side` pixels (its centre the square's)."""
    layer = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    w, h = CARD_W * side, CARD_H * side
    left, top = (side - w) / 2, (side - h) / 2
    radius = 0.14 * w
    border = 0.05 * w
    draw.rounded_rectangle((left, top, left + w, top + h), radius, fill="#ffffff")
    inner = (left + border, top + border, left + w - border, top + h - border)
    draw.rounded_rectangle(inner, radius - border, fill=face)
    if text:
        font = ImageFont.truetype(str(FONT), round(h * 0.44))
        draw.text((side / 2, side / 2), text, font=font, fill=ink, anchor="mm")
    return layer


def picture(size: int, safe: float = 1.0, corner: float = 0.22) -> Image.Image:
    """The icon at `size` pixels: the felt (a rounded square, `corner` of the side; 0:
    to the edges), the cards scaled by `safe` about the centre."""
    big = size * SUPER
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle((0, 0, big - 1, big - 1), corner * big, fill=FELT)
    cards_side = round(big * safe)
    offset = (big - cards_side) // 2
    for face, ink, text, turn, centre in CARDS:
        layer = card(cards_side, face, ink, text).rotate(
            -turn, resample=Image.Resampling.BICUBIC, center=(cards_side / 2, cards_side / 2)
        )
        shift = round((centre - 0.5) * cards_side)
        image.alpha_composite(layer, (offset + shift, offset + round(0.01 * cards_side)))
    return image.resize((size, size), Image.Resampling.LANCZOS)


def svg() -> str:
    """The same drawing in a 100-unit square, for browsers that take an SVG favicon."""
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">',
        f'<rect width="100" height="100" rx="22" fill="{FELT}"/>',
    ]
    w, h = CARD_W * 100, CARD_H * 100
    for face, ink, text, turn, centre in CARDS:
        cx, cy = centre * 100, 51.0
        border = 0.05 * w
        size = h * 0.44
        parts.append(f'<g transform="rotate({turn:g} {cx:g} {cy:g})">')
        parts.append(
            f'<rect x="{cx - w / 2:g}" y="{cy - h / 2:g}" width="{w:g}" height="{h:g}" '
            f'rx="{0.14 * w:g}" fill="#fff"/>'
        )
        parts.append(
            f'<rect x="{cx - w / 2 + border:g}" y="{cy - h / 2 + border:g}" '
            f'width="{w - 2 * border:g}" height="{h - 2 * border:g}" '
            f'rx="{0.14 * w - border:g}" fill="{face}"/>'
        )
        if text:
            parts.append(
                f'<text x="{cx:g}" y="{cy:g}" dy="0.35em" text-anchor="middle" '
                f'font-family="DejaVu Sans, Verdana, sans-serif" font-weight="bold" '
                f'font-size="{size:.1f}" fill="{ink}">{text}</text>'
            )
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        picture(size).save(OUT / f"icon-{size}.png", optimize=True)
    # A maskable icon may be cut to its central circle of 80% of the side: the fan's
    # farthest corners are 0.48 of its side from the centre, so 0.8 of it keeps them in.
    picture(512, safe=0.8, corner=0).save(OUT / "maskable-512.png", optimize=True)
    picture(180, corner=0).save(OUT / "apple-touch-icon.png", optimize=True)
    picture(48).save(OUT / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
    (OUT / "icon.svg").write_text(svg(), encoding="utf-8")


if __name__ == "__main__":
    main()
