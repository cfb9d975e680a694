"""Draws the installed app's icons (static/sevn/app-icon-*.png, apple-touch-icon.png) from the
site's look: the favicon's card (white, the brand's red band on top, a bold ink 7) on the
table's felt green. Run once when the
look changes; the PNGs are committed (Pillow is needed only here, not by the site):

    .venv/bin/pip install pillow && .venv/bin/python deploy/app_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parent.parent / "static" / "sevn"
FELT, INK, BRAND, PAPER = "#0f3b2f", "#15202b", "#d6402b", "#ffffff"
FONTS = (
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
)


def _font(size: int) -> ImageFont.FreeTypeFont:
    for path in FONTS:
        if Path(path).exists():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


def draw(size: int, *, maskable: bool) -> Image.Image:
    """The card fills the icon (a rounded felt square behind it), or sits inside the middle 80 %
    a maskable icon's mask keeps, on felt to the edges."""
    scale = 4  # drawn large, then scaled down: smooth edges
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    if maskable:
        pen.rectangle((0, 0, big, big), fill=FELT)
        card_h = big * 0.56
    else:
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.22, fill=FELT)
        card_h = big * 0.74
    card_w = card_h * 44 / 56  # the favicon's card
    left, top = (big - card_w) / 2, (big - card_h) / 2
    radius = card_h * 8 / 56
    pen.rounded_rectangle(
        (left, top, left + card_w, top + card_h),
        radius=radius,
        fill=PAPER,
        outline=INK,
        width=max(2, round(card_h * 3 / 56)),
    )
    band = card_h * 9 / 56
    pen.rounded_rectangle(
        (left + card_h * 3 / 56, top + card_h * 3 / 56, left + card_w - card_h * 3 / 56, top + band),
        radius=radius * 0.5,
        fill=BRAND,
    )
    font = _font(round(card_h * 0.62))
    pen.text((big / 2, top + card_h * 0.60), "7", font=font, fill=INK, anchor="mm")
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    for size in (192, 512):
        draw(size, maskable=False).save(OUT / f"app-icon-{size}.png", optimize=True)
    draw(512, maskable=True).save(OUT / "app-icon-maskable-512.png", optimize=True)
    draw(180, maskable=True).convert("RGB").save(OUT / "apple-touch-icon.png", optimize=True)


if __name__ == "__main__":
    main()
