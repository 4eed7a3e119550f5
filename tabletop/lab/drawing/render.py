"""Card faces drawn from scratch, in the three designs people own, so that the model can learn without photographs.

Every drawing choice that differs between real decks (the exact inks, the font, the stroke weight, the tilt of
the oval, which way up the big numeral is printed) is drawn from a random ``Deck`` so the model learns the card,
not one printing of it. Numerals come from the shipped glyph masks of ``glyphs`` and from OpenCV's vector fonts;
every symbol is drawn once as a mask and then printed in layers (shadow, outline, fill) as real cards are.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

import cv2
import numpy as np

from tabletop.game.cards import Card, Rank
from tabletop.lab.drawing import glyphs
from tabletop.vision.crop import CARD_ASPECT, Image

Design = Literal["classic", "modern", "sunburst"]
DESIGNS: tuple[Design, ...] = ("classic", "modern", "sunburst")
T = TypeVar("T")
WildPrint = Literal["oval", "word", "circle"]
WILD_PRINTS: dict[Design, tuple[tuple[WildPrint, float], ...]] = {
    "classic": (("oval", 0.7), ("circle", 0.3)),
    "modern": (("word", 0.6), ("circle", 0.25), ("oval", 0.15)),
    "sunburst": (("oval", 0.5), ("circle", 0.5))}
"""How each design's decks print their wilds, and how often: the four-colour tilted oval; that oval ringed in white
with the word-art WILD across it; or, in the newest decks, a full circle cut into four quarters on black, with no
oval and no word. Each print has its wild draw four."""
Blank = Literal["back", "other-game"]
BLANKS: tuple[Blank, ...] = ("back", "other-game")
"""Things that look like a card but are none of the 57: a card's back, and a card of another game (a playing card
with its suit and numerals on white). The referee must never read them as a play."""

WIDTH = 224
HEIGHT = round(WIDTH * CARD_ASPECT)
BGR = tuple[int, int, int]

INKS: dict[str, BGR] = {"red": (40, 30, 215), "yellow": (20, 205, 250), "green": (70, 160, 30),
                        "blue": (210, 120, 0), "black": (25, 25, 25), "white": (250, 250, 250)}
SHADOW_INK: BGR = (25, 25, 25)
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX)
FOUR_INKS = ("yellow", "red", "blue", "green")
QUARTER_INKS = ("red", "blue", "green", "yellow")
INDEX_SIZES = (0.085, 0.24)
"""How tall decks print their corner indexes, a share of the card's height (of which the numeral is about
two thirds): the decks photographed for measuring print them from 0.11 to 0.16, and the deck of the real
photographs at 0.23 (a numeral a seventh of the card tall), its index reaching well in from the corner."""
INDEX_INSET = (0.3, 0.35)
"""Where an index's middle lies in from the card's border, past ``INDEX_MARGIN``: this share of the index's size
across and down. A small index keeps a margin about as large as itself; a large one fills the corner."""
INDEX_MARGIN = 0.025
"""The margin between a card's border and its index, a share of the card's height."""
INDEX_SHADOWS = (0.03, 0.09)
"""How far the decks that shadow their corner indexes let the shadow fall, a share of the index's size: the deck of
the real photographs about 0.06, past an outline as wide."""


@dataclass(frozen=True)
class Deck:
    """One printing: its inks, font and proportions."""

    inks: dict[str, BGR]
    font: int
    typeface: str | None
    weight: float
    oval_tilt: float
    oval_size: float
    numeral_size: float
    numeral_flipped: bool
    border: float
    shadow: tuple[int, int]
    nine_is_base: bool
    two_slant: float
    """How far (degrees) the two small cards of the draw two lean: some decks print them upright, some at a slant."""
    four_huddle: bool
    four_scale: float
    """How large the four cards of the wild draw four are printed, and how far apart: some decks fill the oval."""
    four_inks: tuple[str, ...]
    """The four cards' colours in the order they are laid out: not every deck prints them in the same order."""
    wild_print: WildPrint
    quarter_inks: tuple[str, ...]
    """The wild's four quarters' colours, clockwise from the left: decks turn and order them differently."""
    word_white: bool
    """The word-art WILD in white letters outlined dark, rather than each letter in its own colour outlined white."""
    four_on_white: bool
    """The wild draw four's cards printed on a white oval rather than on the four colours."""
    symbol_white: bool
    """Action symbols (skip, reverse, draw two) printed white, as some decks do beside body-coloured numerals."""
    index_size: float
    """How tall the corner indexes are printed, a share of the card's height: from small and neat to bold ones
    twice as tall."""
    index_ringed: bool
    """The black cards' corner indexes ringed in white outside a thick black outline, as some decks print them to
    stand out on the black: at a glance a white ring with a dark inside, which a reader that never saw one takes for
    another symbol (a real deck's "+4" was read as the shuffle-hands' chasing arrows)."""
    index_shadow: float
    """How far (a share of the index's size) the corner indexes' black drop shadow falls to the left and down, as
    their big numeral's does; 0 where a deck prints them with an outline alone. Where the shadow fills the open left
    side of a "2", a "3" or the skip's ring, a reader that never saw one takes it for the closed loop of a 9 or a 6
    (the real photographs' yellow 2s were read as 9s so)."""

    @staticmethod
    def random(rng: np.random.Generator, design: Design) -> Deck:
        inks = {name: _vary(ink, rng) for name, ink in INKS.items()}
        if design == "modern" and rng.random() < 0.6:
            inks["blue"] = _vary((230, 165, 10), rng)
        italic = design == "sunburst" or rng.random() < 0.1
        font = int(rng.choice(FONTS)) | (cv2.FONT_ITALIC if italic else 0)
        faces = glyphs.fonts(italic)
        typeface = None if rng.random() < 0.15 else faces[int(rng.integers(len(faces)))]
        return Deck(inks=inks, font=font, typeface=typeface, weight=float(rng.uniform(0.75, 1.25)),
                    oval_tilt=float(rng.uniform(25, 40)), oval_size=float(rng.uniform(0.9, 1.08)),
                    numeral_size=float(rng.uniform(0.85, 1.12)), numeral_flipped=bool(rng.random() < 0.3),
                    border=float(rng.uniform(0.055, 0.08)),
                    shadow=(int(rng.integers(-7, -2)), int(rng.integers(2, 7))),
                    nine_is_base=bool(rng.random() < 0.5),
                    two_slant=float(rng.uniform(12, 38) * rng.choice((-1, 1)) if rng.random() < 0.5 else 0.0),
                    four_huddle=bool(rng.random() < 0.5), four_scale=float(rng.uniform(1.0, 1.5)),
                    four_inks=tuple(str(ink) for ink in (rng.permutation(FOUR_INKS) if rng.random() < 0.5
                                                         else FOUR_INKS)),
                    wild_print=pick(rng, WILD_PRINTS[design]),
                    quarter_inks=tuple(str(ink) for ink in np.roll(QUARTER_INKS if rng.random() < 0.6
                                                                   else rng.permutation(QUARTER_INKS),
                                                                   int(rng.integers(4)))),
                    word_white=bool(rng.random() < 0.5), four_on_white=bool(rng.random() < 0.5) or design == "modern",
                    symbol_white=design != "modern" and bool(rng.random() < 0.35),
                    index_size=float(rng.uniform(*INDEX_SIZES)), index_ringed=bool(rng.random() < 0.5),
                    index_shadow=_index_shadow(rng.spawn(1)[0]))


def _index_shadow(rng: np.random.Generator) -> float:
    """A deck's ``index_shadow``, drawn from a generator of its own (a child of the deck's, which spawning it leaves
    where it was): every other choice of the deck, and every later draw of the scene or film that drew the deck, is
    what it was before decks shadowed their indexes, so that a figure measured on the simulator's films before and
    after tells what the shadows changed, not a new deal."""
    return float(rng.uniform(*INDEX_SHADOWS)) if rng.random() < 0.5 else 0.0


def pick(rng: np.random.Generator, shares: tuple[tuple[T, float], ...]) -> T:
    """One of the choices, each as often as its share says (the shares adding up to 1); one draw of ``rng``."""
    draw, total = rng.random(), 0.0
    for choice, share in shares:
        total += share
        if draw < total:
            return choice
    return shares[-1][0]


def _vary(ink: BGR, rng: np.random.Generator) -> BGR:
    """The same named ink as another factory mixed it: a little off in hue, saturation and value."""
    pixel = np.array([[ink]], dtype=np.uint8)
    hsv = cv2.cvtColor(pixel, cv2.COLOR_BGR2HSV).astype(np.int32)
    hsv[0, 0, 0] = (hsv[0, 0, 0] + rng.integers(-5, 6)) % 180
    hsv[0, 0, 1] = np.clip(hsv[0, 0, 1] + rng.integers(-40, 20), 0, 255)
    hsv[0, 0, 2] = np.clip(hsv[0, 0, 2] + rng.integers(-40, 15), 0, 255)
    out = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    return int(out[0]), int(out[1]), int(out[2])


def render_card(card: Card, design: Design, rng: np.random.Generator, deck: Deck | None = None
                ) -> tuple[Image, Image]:
    """A face-up card as (BGR image, alpha mask), portrait, ``WIDTH`` x ``HEIGHT`` px, square to the image.

    Without ``deck`` every card comes from a printing of its own; the table simulator passes one deck per game.
    """
    deck = deck or Deck.random(rng, design)
    face = _blank_face(deck, "black" if card.is_wild else str(card.color))
    Painter(face, deck, design, card).paint()
    return face, card_mask()


def render_blank(kind: Blank, rng: np.random.Generator) -> tuple[Image, Image]:
    """A card that is not one of the 57: a back, or a card of another game."""
    deck = Deck.random(rng, DESIGNS[int(rng.integers(len(DESIGNS)))])
    if kind == "back":
        face = _blank_face(deck, "black")
        _paint_back(face, deck)
    else:
        face = _playing_card(deck, rng)
    return face, card_mask()


def card_mask() -> Image:
    """The card's outline with its rounded corners, as a 0/255 mask."""
    mask = np.zeros((HEIGHT, WIDTH), np.uint8)
    _rounded_rect(mask, (0, 0), (WIDTH - 1, HEIGHT - 1), round(WIDTH * 0.07), 255)
    return mask


def _blank_face(deck: Deck, body: str) -> Image:
    face = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    face[:] = deck.inks["white"]
    inset = round(WIDTH * deck.border)
    _rounded_rect(face, (inset, inset), (WIDTH - 1 - inset, HEIGHT - 1 - inset), round(WIDTH * 0.05),
                  deck.inks[body])
    return face


def _rounded_rect(img: Image, top_left: tuple[int, int], bottom_right: tuple[int, int], radius: int,
                  colour: BGR | int) -> None:
    (x0, y0), (x1, y1) = top_left, bottom_right
    cv2.rectangle(img, (x0 + radius, y0), (x1 - radius, y1), colour, -1)
    cv2.rectangle(img, (x0, y0 + radius), (x1, y1 - radius), colour, -1)
    for cx, cy in ((x0 + radius, y0 + radius), (x1 - radius, y0 + radius), (x0 + radius, y1 - radius),
                   (x1 - radius, y1 - radius)):
        cv2.circle(img, (cx, cy), radius, colour, -1, cv2.LINE_AA)


def _upside_down(img: Image, paint: Callable[[Image], None]) -> None:
    """Paint on the card turned half round, as the second corner index and reversed numerals are printed."""
    turned = np.ascontiguousarray(img[::-1, ::-1])
    paint(turned)
    img[:] = turned[::-1, ::-1]


CENTRE = (WIDTH // 2, HEIGHT // 2)


class Painter:
    """Paints one face: the oval, the big symbol and the two corner indices, in one design."""

    def __init__(self, face: Image, deck: Deck, design: Design, card: Card) -> None:
        self.face, self.deck, self.design, self.card = face, deck, design, card

    def paint(self) -> None:
        if self.card.is_special:
            self._paint_special()
        elif self.card.is_wild:
            self._paint_wild()
        else:
            self._paint_oval()
            if self.deck.numeral_flipped:
                _upside_down(self.face, self._paint_symbol)
            else:
                self._paint_symbol(self.face)
        self._paint_index(self.face)
        _upside_down(self.face, self._paint_index)

    @property
    def body(self) -> BGR:
        return self.deck.inks[self.card.color or "black"]

    def _paint_oval(self) -> None:
        axes = (round(WIDTH * 0.35 * self.deck.oval_size), round(HEIGHT * 0.47 * self.deck.oval_size))
        white, tilt = self.deck.inks["white"], self.deck.oval_tilt
        if self.design == "classic":
            cv2.ellipse(self.face, CENTRE, axes, tilt, 0, 360, white, -1, cv2.LINE_AA)
        elif self.design == "modern":
            cv2.ellipse(self.face, CENTRE, axes, tilt, 0, 360, white, max(2, round(WIDTH * 0.022)), cv2.LINE_AA)
        else:
            radius = round(WIDTH * 0.36 * self.deck.oval_size)
            cv2.circle(self.face, CENTRE, radius, white, -1, cv2.LINE_AA)
            ray = _mix(white, self.body, 0.35)
            for k in range(48):
                angle = 2 * math.pi * k / 48
                end = (round(CENTRE[0] + radius * math.cos(angle)), round(CENTRE[1] + radius * math.sin(angle)))
                cv2.line(self.face, CENTRE, end, ray, 1, cv2.LINE_AA)

    def _styles(self) -> tuple[BGR, BGR | None, bool]:
        """Fill, outline and whether a drop shadow is printed, for the big symbol of this design."""
        black, white = self.deck.inks["black"], self.deck.inks["white"]
        if self.design == "modern" or (self.deck.symbol_white and not self.card.is_number):
            return white, black, True
        return self.body, black, self.design == "classic"

    def _paint_symbol(self, img: Image) -> None:
        fill, outline, shadow = self._styles()
        size = HEIGHT * 0.36 * self.deck.numeral_size
        mask = _symbol_mask(self.card.rank, CENTRE, size, self.deck)
        _print_layers(img, mask, fill, outline, self.deck.shadow if shadow else None, round(size * 0.05))

    def _paint_index(self, img: Image) -> None:
        white, black = self.deck.inks["white"], self.deck.inks["black"]
        inset = WIDTH * self.deck.border
        size = HEIGHT * self.deck.index_size
        inside = inset + HEIGHT * INDEX_MARGIN
        centre = (round(inside + size * INDEX_INSET[0]), round(inside + size * INDEX_INSET[1]))
        rank = self.card.rank
        if rank == Rank.WILD:
            round_index = self.deck.wild_print == "circle"
            axes = (round(size * 0.5), round(size * 0.5)) if round_index else (round(size * 0.42), round(size * 0.55))
            tilt = 0.0 if round_index else self.deck.oval_tilt * 0.5
            centre = _oval_inside(centre, axes, tilt, inside)
            _quadrants(img, centre, axes, tilt, self.deck)
            if self.deck.wild_print == "word":
                cv2.ellipse(img, centre, axes, tilt, 0, 360, self.deck.inks["white"], 1, cv2.LINE_AA)
            return
        text = {"draw-two": "+2", "wild-draw-four": "+4"}.get(rank, rank)
        edge = max(1, round(size * 0.06))
        ringed = self.card.is_wild and self.deck.index_ringed
        fall = 0 if ringed else round(size * self.deck.index_shadow)
        reach = 3 * edge if ringed else edge + fall
        mask = _ink_inside(_symbol_mask(text, centre, size, self.deck, index=True), round(inside) + reach)
        if ringed:
            ring = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
            _blend(img, cv2.dilate(mask, ring), white)
            edge *= 2
        if fall:
            _blend(img, _fallen(_outer(mask, edge), fall), SHADOW_INK)
        _print_layers(img, mask, white, black, None, edge)

    def _paint_special(self) -> None:
        """The 112-card deck's wilds: the deck's wild print, and over it the card's own white picture (two arrows
        chasing round a fan of cards, two hands trading cards) or the white field a table writes its rule in."""
        self._paint_wild_ground(four=False)
        size = HEIGHT * 0.4 * self.deck.numeral_size
        if self.card.rank == Rank.WILD_CUSTOMIZABLE:
            _writing_field(self.face, self.deck, size)
            return
        mask = _symbol_mask(self.card.rank, CENTRE, size, self.deck)
        _print_layers(self.face, mask, self.deck.inks["white"], self.deck.inks["black"], self.deck.shadow,
                      round(size * 0.05))

    def _paint_wild(self) -> None:
        """The wild's print (see ``WILD_PRINTS``), and for the wild draw four its four cards over it."""
        deck, face = self.deck, self.face
        four = self.card.rank == Rank.WILD_DRAW_FOUR
        self._paint_wild_ground(four)
        if four:
            _four_cards(face, CENTRE, HEIGHT * 0.36 * deck.numeral_size, deck)
        elif deck.wild_print == "word":
            _wild_word(face, deck)

    def _paint_wild_ground(self, four: bool) -> None:
        """The four-colour oval or circle every wild is printed on (a wild draw four's oval may be white)."""
        deck, face = self.deck, self.face
        if deck.wild_print == "circle":
            radius = round(WIDTH * 0.4 * deck.oval_size)
            _quadrants(face, CENTRE, (radius, radius), 45.0 * (deck.oval_tilt > 32), deck)
        else:
            axes = (round(WIDTH * 0.35 * deck.oval_size), round(HEIGHT * 0.46 * deck.oval_size))
            if four and deck.four_on_white:
                cv2.ellipse(face, CENTRE, axes, deck.oval_tilt, 0, 360, deck.inks["white"], -1, cv2.LINE_AA)
            else:
                _quadrants(face, CENTRE, axes, deck.oval_tilt, deck)
            if deck.wild_print == "word" or self.design == "modern":
                cv2.ellipse(face, CENTRE, axes, deck.oval_tilt, 0, 360, deck.inks["white"],
                            max(2, round(WIDTH * 0.022)), cv2.LINE_AA)


def _ink_inside(mask: Image, inside: int) -> Image:
    """``mask`` moved right and down just enough that its ink begins ``inside`` pixels in from the face's left and
    top edges. Decks print an index inside the border, however wide or large: a deck's large "+4" lies well in from
    the corner, its white ring on the black, where a ring run into the border would teach the index model that a
    ring standing alone on the black is one of the special wilds' symbols."""
    rows, columns = np.nonzero(mask)
    if not len(rows):
        return mask
    down, right = max(0, inside - int(rows.min())), max(0, inside - int(columns.min()))
    moved = np.zeros_like(mask)
    moved[down:, right:] = mask[:mask.shape[0] - down, :mask.shape[1] - right]
    return moved


def _oval_inside(centre: tuple[int, int], axes: tuple[int, int], tilt: float, inside: float) -> tuple[int, int]:
    """The middle of an oval index with ``axes`` and ``tilt`` (degrees), moved right and down just enough that the
    oval lies ``inside`` pixels in from the face's left and top edges (see ``_ink_inside``)."""
    turn = math.radians(tilt)
    across = math.hypot(axes[0] * math.cos(turn), axes[1] * math.sin(turn))
    down = math.hypot(axes[0] * math.sin(turn), axes[1] * math.cos(turn))
    return max(centre[0], math.ceil(inside + across)), max(centre[1], math.ceil(inside + down))


def _mix(a: BGR, b: BGR, t: float) -> BGR:
    return round(a[0] * (1 - t) + b[0] * t), round(a[1] * (1 - t) + b[1] * t), round(a[2] * (1 - t) + b[2] * t)


def _stroke(size: float, deck: Deck) -> int:
    return max(1, round(size * 0.11 * deck.weight))


def _print_layers(img: Image, mask: Image, fill: BGR, outline: BGR | None, shadow: tuple[int, int] | None,
                  edge: int) -> None:
    """Print a symbol mask as cards do: a black drop shadow, then a black outline, then the fill."""
    outer = _outer(mask, edge)
    if shadow is not None:
        _blend(img, np.roll(outer, (shadow[1], shadow[0]), axis=(0, 1)), SHADOW_INK)
    if outline is not None:
        _blend(img, outer, outline)
    _blend(img, mask, fill)


def _outer(mask: Image, edge: int) -> Image:
    """The mask grown by its outline, ``edge`` pixels all round."""
    return cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * edge + 1, 2 * edge + 1)))


def _fallen(mask: Image, fall: int) -> Image:
    """The shadow ``mask`` casts ``fall`` pixels to the left and down, unbroken from the symbol to its far edge, as a
    small print's is: a copy set that far off would leave a gap along a thin stroke. Each pixel takes the most of
    the mask 1 to ``fall`` steps up and to the right of it: a dilation by that diagonal."""
    diagonal = np.fliplr(np.eye(fall + 1, dtype=np.uint8))
    diagonal[fall, 0] = 0
    return cv2.dilate(mask, diagonal, anchor=(0, fall))


def _blend(img: Image, mask: Image, colour: BGR) -> None:
    alpha = mask.astype(np.float32)[..., None] / 255
    img[:] = (img * (1 - alpha) + np.array(colour, np.float32) * alpha).astype(np.uint8)


def _symbol_mask(text: str, centre: tuple[int, int], size: float, deck: Deck, index: bool = False) -> Image:
    """The mask of a numeral, a label such as "+2", or an action symbol, ``size`` px tall around ``centre``."""
    mask = np.zeros((HEIGHT, WIDTH), np.uint8)
    draw = _SYMBOLS.get(text)
    if draw is not None:
        draw(mask, centre, size * (0.9 if index else 1.0), 255, deck)
    elif deck.typeface is None:
        _hershey(mask, text, centre, size, deck, index)
    else:
        _glyphs(mask, text, centre, size, deck, index)
    return mask


def _glyphs(mask: Image, text: str, centre: tuple[int, int], size: float, deck: Deck, index: bool) -> None:
    assert deck.typeface is not None
    ink = glyphs.text_mask(deck.typeface, _turned_twin(text, deck))
    if _turned_twin(text, deck) != text:
        ink = ink[::-1, ::-1]
    height = size * (0.62 if index else 0.8)
    width = ink.shape[1] * height / ink.shape[0] * (0.9 + 0.25 * (deck.weight - 0.75))
    if not index:
        width = min(width, WIDTH * 0.55)
    w, h = max(1, round(width)), max(1, round(height))
    ink = cv2.resize(ink, (w, h), interpolation=cv2.INTER_AREA)
    grow = max(0, round((deck.weight - 0.9) * size * 0.06))
    if grow:
        ink = cv2.dilate(ink, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1)))
    x0, y0 = centre[0] - w // 2, centre[1] - h // 2
    _stamp(mask, ink, x0, y0)
    if text in ("6", "9"):
        bar = max(2, round(h * (0.07 + 0.05 * (deck.weight - 0.75) * 2)))
        y = y0 + h + round(bar * deck.numeral_size)
        cv2.rectangle(mask, (x0 + round(w * 0.08), y), (x0 + w - round(w * 0.08), y + bar), 255, -1, cv2.LINE_AA)


def _turned_twin(text: str, deck: Deck) -> str:
    """The numeral to draw: decks print 6 and 9 as one glyph turned over, told apart only by the underline.

    Each deck takes its glyph from one of the two, so the model cannot learn a typeface's 6 from its 9 and must
    read the underline, as a person does.
    """
    if text not in ("6", "9"):
        return text
    return "9" if deck.nine_is_base else "6"


def _stamp(mask: Image, ink: Image, x0: int, y0: int) -> None:
    """Copy ``ink`` into ``mask`` at (x0, y0), clipped to the mask."""
    h, w = ink.shape
    top, left = max(0, -y0), max(0, -x0)
    bottom, right = min(h, mask.shape[0] - y0), min(w, mask.shape[1] - x0)
    if bottom > top and right > left:
        region = mask[y0 + top:y0 + bottom, x0 + left:x0 + right]
        np.maximum(region, ink[top:bottom, left:right], out=region)


def _hershey(mask: Image, text: str, centre: tuple[int, int], size: float, deck: Deck, index: bool) -> None:
    """Text in one of OpenCV's stroke fonts, drawn heavy; 6 and 9 get their underline."""
    thickness = _stroke(size, deck)
    (w1, h1), _ = cv2.getTextSize(text, deck.font, 1.0, thickness)
    scale = size * (0.95 if index else 1.15) / h1
    if not index:
        scale = min(scale, WIDTH * 0.5 / w1)
    (w, h), _ = cv2.getTextSize(text, deck.font, scale, thickness)
    origin = (round(centre[0] - w / 2), round(centre[1] + h / 2))
    drawn = np.zeros_like(mask)
    cv2.putText(drawn, _turned_twin(text, deck), origin, deck.font, scale, 255, thickness, cv2.LINE_AA)
    if _turned_twin(text, deck) != text:
        box = (slice(origin[1] - h, origin[1] + 1), slice(origin[0], origin[0] + w + 1))
        drawn[box] = drawn[box][::-1, ::-1].copy()
    np.maximum(mask, drawn, out=mask)
    if text in ("6", "9"):
        y = origin[1] + round(thickness * 1.3)
        inset = round(w * 0.12)
        cv2.line(mask, (origin[0] + inset, y), (origin[0] + w - inset, y), 255, max(1, round(thickness * 0.7)),
                 cv2.LINE_AA)


def _skip(mask: Image, centre: tuple[int, int], size: float, ink: int, deck: Deck) -> None:
    radius = round(size * 0.36)
    thickness = _stroke(size, deck)
    cv2.circle(mask, centre, radius, ink, thickness, cv2.LINE_AA)
    d = round(radius * 0.68)
    cv2.line(mask, (centre[0] - d, centre[1] + d), (centre[0] + d, centre[1] - d), ink, thickness, cv2.LINE_AA)


def _reverse(mask: Image, centre: tuple[int, int], size: float, ink: int, deck: Deck) -> None:
    """Two fat arrows along the rising diagonal whose tails hook past each other into an S, as decks print it.

    Each arrow clears a thin gap around itself before it is drawn, so that the outline printed later shows as the
    dark seam between the two tails.
    """
    height = size * 0.95
    thickness = max(1, round(height * 0.17 * deck.weight))
    gap = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * max(1, round(height * 0.03)) + 1,) * 2)
    head = np.array([[0.37, -0.48], [-0.01, -0.46], [0.29, -0.14]])
    t = np.linspace(0, 1, 24)[:, None]
    base, bend, tail = head[1:].mean(axis=0), np.array([-0.03, -0.12]), np.array([-0.13, -0.04])
    shaft = (1 - t) ** 2 * base + 2 * t * (1 - t) * bend + t ** 2 * tail
    for sign in (1, -1):
        arrow = np.zeros_like(mask)
        cv2.polylines(arrow, [_points(centre, sign * height, shaft)], False, ink, thickness, cv2.LINE_AA)
        cv2.fillConvexPoly(arrow, _points(centre, sign * height, head), ink, cv2.LINE_AA)
        mask[cv2.dilate(arrow, gap) > 0] = 0
        np.maximum(mask, arrow, out=mask)


def _points(centre: tuple[int, int], scale: float, shape: np.ndarray) -> np.ndarray:
    """A shape drawn in units of the symbol's height around its centre, as integer pixel points."""
    return np.round(np.array(centre) + shape * scale).astype(np.int32)


def _draw_two(mask: Image, centre: tuple[int, int], size: float, ink: int, deck: Deck) -> None:
    """Two small cards, one behind the other, the front one's edge showing over the back one, upright or leaning
    by the deck's ``two_slant``."""
    w, h = size * 0.3, size * 0.45
    gap = size * 0.04
    for dx, dy in ((0.18, -0.14), (-0.14, 0.12)):
        middle = (centre[0] + dx * size, centre[1] + dy * size)
        clear = cv2.boxPoints((middle, (w + 2 * gap, h + 2 * gap), deck.two_slant))
        cv2.fillConvexPoly(mask, np.round(clear).astype(np.int32), 0, cv2.LINE_AA)
        card = cv2.boxPoints((middle, (w, h), deck.two_slant))
        cv2.fillConvexPoly(mask, np.round(card).astype(np.int32), ink, cv2.LINE_AA)


def _arrow_head(mask: Image, tip: np.ndarray, heading: float, length: float, ink: int) -> None:
    """A filled triangular head pointing along ``heading`` (radians) with its point at ``tip``."""
    back = np.array([math.cos(heading), math.sin(heading)]) * length
    side = np.array([-math.sin(heading), math.cos(heading)]) * length * 0.6
    head = np.array([tip, tip - back + side, tip - back - side])
    cv2.fillConvexPoly(mask, np.round(head).astype(np.int32), ink, cv2.LINE_AA)


def _shuffle(mask: Image, centre: tuple[int, int], size: float, ink: int, deck: Deck) -> None:
    """Wild Shuffle Hands: two arrows chasing each other round a ring, three small cards fanned inside it."""
    radius = size * 0.42
    thickness = max(1, round(size * 0.08 * deck.weight))
    for start in (200.0, 20.0):
        cv2.ellipse(mask, centre, (round(radius), round(radius)), 0, start, start + 130, ink, thickness, cv2.LINE_AA)
        end = math.radians(start + 130)
        tip = np.array(centre) + radius * np.array([math.cos(end), math.sin(end)])
        _arrow_head(mask, tip, end + math.pi / 2, size * 0.16, ink)
    w, h = size * 0.2, size * 0.3
    for lean in (-25.0, 0.0, 25.0):
        box = cv2.boxPoints(((centre[0] + lean * size * 0.004, centre[1]), (w, h), lean))
        cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), ink, cv2.LINE_AA)
        cv2.polylines(mask, [np.round(box).astype(np.int32)], True, 0, max(1, round(size * 0.02)), cv2.LINE_AA)


def _swap(mask: Image, centre: tuple[int, int], size: float, ink: int, deck: Deck) -> None:
    """Wild Swap Hands: two open hands, one high and one low, and two arrows trading places between them."""
    thickness = max(1, round(size * 0.07 * deck.weight))
    for sign in (1, -1):
        palm = np.array(centre) + np.array([sign * size * 0.2, -sign * size * 0.18])
        cv2.ellipse(mask, np.round(palm).astype(np.int32).tolist(), (round(size * 0.1), round(size * 0.13)),
                    20 * sign, 0, 360, ink, -1, cv2.LINE_AA)
        for finger in range(4):
            tip = palm + np.array([-sign * size * (0.1 - 0.065 * finger), -sign * size * 0.24])
            cv2.line(mask, np.round(palm).astype(np.int32).tolist(), np.round(tip).astype(np.int32).tolist(), ink,
                     max(1, round(size * 0.05)), cv2.LINE_AA)
        start = np.array(centre) + np.array([-sign * size * 0.32, -sign * size * 0.02])
        end = np.array(centre) + np.array([sign * size * 0.05, sign * size * 0.3])
        cv2.line(mask, np.round(start).astype(np.int32).tolist(), np.round(end).astype(np.int32).tolist(), ink,
                 thickness, cv2.LINE_AA)
        heading = math.atan2(*(end - start)[::-1])
        _arrow_head(mask, end + (end - start) / np.linalg.norm(end - start) * size * 0.08, heading, size * 0.16, ink)


def _blank_index(mask: Image, centre: tuple[int, int], size: float, ink: int, deck: Deck) -> None:
    """Wild Customizable's corner: a small solid field, as wide as it is tall, no numeral in it."""
    side = size * 0.55
    x0, y0 = round(centre[0] - side / 2), round(centre[1] - side / 2)
    _rounded_rect(mask, (x0, y0), (x0 + round(side), y0 + round(side)), max(1, round(side * 0.15)), ink)


_SYMBOLS: dict[str, Callable[[Image, tuple[int, int], float, int, Deck], None]] = {
    "skip": _skip, "reverse": _reverse, "draw-two": _draw_two, "wild-shuffle-hands": _shuffle,
    "wild-swap-hands": _swap, "wild-customizable": _blank_index}


def _writing_field(face: Image, deck: Deck, size: float) -> None:
    """Wild Customizable's middle: a white field outlined dark, blank or with a rule written on it in pen."""
    w, h = round(size * 0.95), round(size * 0.75)
    x0, y0 = CENTRE[0] - w // 2, CENTRE[1] - h // 2
    edge = max(2, round(size * 0.03))
    _rounded_rect(face, (x0 - edge, y0 - edge), (x0 + w + edge, y0 + h + edge), round(size * 0.1), deck.inks["black"])
    _rounded_rect(face, (x0, y0), (x0 + w, y0 + h), round(size * 0.08), deck.inks["white"])
    pen = (int(deck.shadow[0] * 13) % 120 + 20, 40, 40)
    for k in range(int(abs(deck.shadow[1])) % 4):
        y = round(y0 + h * (0.3 + 0.2 * k))
        xs = np.linspace(x0 + w * 0.12, x0 + w * 0.88, 14)
        ys = y + np.sin(xs * 0.35 + k) * size * 0.025
        cv2.polylines(face, [np.round(np.stack([xs, ys], 1)).astype(np.int32)], False, pen, 2, cv2.LINE_AA)


def _playing_card(deck: Deck, rng: np.random.Generator) -> Image:
    """A card of another game: a playing card, white all over, a numeral and a suit in its corners and pips in the
    middle, printed red or black."""
    face = np.full((HEIGHT, WIDTH, 3), deck.inks["white"], np.uint8)
    ink = deck.inks["red" if rng.random() < 0.5 else "black"]
    rank = str(rng.choice(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]))
    pips = int(rng.integers(1, 11))
    for k in range(pips):
        x = round(WIDTH * (0.35 + 0.3 * (k % 2)))
        y = round(HEIGHT * (0.22 + 0.56 * (k // 2) / max(1, (pips - 1) // 2)))
        cv2.circle(face, (x, y), round(WIDTH * 0.06), ink, -1, cv2.LINE_AA)
    for turned in (False, True):
        layer = face[::-1, ::-1].copy() if turned else face
        cv2.putText(layer, rank, (round(WIDTH * 0.05), round(HEIGHT * 0.12)), deck.font, 1.1, ink, 3, cv2.LINE_AA)
        cv2.circle(layer, (round(WIDTH * 0.11), round(HEIGHT * 0.17)), round(WIDTH * 0.035), ink, -1, cv2.LINE_AA)
        if turned:
            face[:] = layer[::-1, ::-1]
    return face


def _quadrants(img: Image, centre: tuple[int, int], axes: tuple[int, int], tilt: float, deck: Deck) -> None:
    """The four-colour oval (or circle) of the wild cards, its quarters in the deck's order."""
    for start, ink in zip((180, 270, 0, 90), deck.quarter_inks, strict=True):
        cv2.ellipse(img, centre, axes, tilt, start, start + 90, deck.inks[ink], -1, cv2.LINE_AA)


FANNED = ((-0.3, 0.2), (-0.08, -0.2), (0.1, 0.06), (0.3, -0.28))
HUDDLED = ((-0.26, 0.2), (-0.12, -0.16), (0.2, -0.19), (0.07, 0.13))
"""Where the four cards of the wild draw four lie round the middle, in units of the symbol's size, in the order
they are printed: spread in a fan, or huddled, each overlapping the next, as newer decks print them."""


def _four_cards(img: Image, centre: tuple[int, int], size: float, deck: Deck) -> None:
    """The four cards of the wild draw four, each with a dark rim, in the deck's layout."""
    size *= deck.four_scale
    w, h = (size * 0.3, size * 0.44) if deck.four_huddle else (size * 0.26, size * 0.38)
    edge = max(2, round(w * 0.07))
    for (dx, dy), ink in zip(HUDDLED if deck.four_huddle else FANNED, deck.four_inks, strict=True):
        x, y = round(centre[0] + dx * size - w / 2), round(centre[1] + dy * size - h / 2)
        cv2.rectangle(img, (x - edge // 2, y - edge // 2), (x + round(w) + edge // 2, y + round(h) + edge // 2),
                      deck.inks["black"], -1, cv2.LINE_AA)
        cv2.rectangle(img, (x, y), (x + round(w), y + round(h)), deck.inks[ink], -1, cv2.LINE_AA)


def _wild_word(img: Image, deck: Deck) -> None:
    """The word-art WILD across the oval, tilted up to the right, on a deep black extrusion: each letter in its own
    colour outlined in white, or white letters outlined dark (``Deck.word_white``)."""
    font = deck.typeface or glyphs.fonts(False)[0]
    letters = [glyphs.glyph(font, c) for c in "WILD"]
    height = round(HEIGHT * 0.18 * deck.numeral_size)
    widths = [max(round(height * 0.3), round(m.shape[1] * height / m.shape[0])) for m in letters]
    word = np.zeros(img.shape[:2], np.uint8)
    masks = []
    x = CENTRE[0] - sum(widths) // 2
    for letter, width in zip(letters, widths, strict=True):
        one = np.zeros(img.shape[:2], np.uint8)
        _stamp(one, cv2.resize(letter, (width, height), interpolation=cv2.INTER_AREA), x, CENTRE[1] - height // 2)
        masks.append(one)
        np.maximum(word, one, out=word)
        x += width
    edge = max(3, round(height * 0.08))
    outlined = cv2.dilate(word, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * edge + 1, 2 * edge + 1)))
    layer = img.copy()
    depth = round(height * 0.22)
    for step in range(depth, 0, -1):  # the extrusion: the outlined word stacked down and to the left
        _blend(layer, np.roll(outlined, (step, -step // 2), axis=(0, 1)), deck.inks["black"])
    _blend(layer, outlined, deck.inks["black" if deck.word_white else "white"])
    for one, ink in zip(masks, ("red", "yellow", "green", "blue"), strict=True):
        _blend(layer, one, deck.inks["white" if deck.word_white else ink])
    cover = np.zeros_like(word)
    for step in range(depth + 1):
        np.maximum(cover, np.roll(outlined, (step, -step // 2), axis=(0, 1)), out=cover)
    turn = cv2.getRotationMatrix2D(CENTRE, float(15 + deck.oval_tilt * 0.4), 1.0)
    layer = cv2.warpAffine(layer, turn, (WIDTH, HEIGHT))
    cover = cv2.warpAffine(cover, turn, (WIDTH, HEIGHT))
    img[cover > 127] = layer[cover > 127]


def _paint_back(face: Image, deck: Deck) -> None:
    axes = (round(WIDTH * 0.40), round(HEIGHT * 0.45))
    cv2.ellipse(face, CENTRE, axes, deck.oval_tilt, 0, 360, deck.inks["red"], -1, cv2.LINE_AA)
    layer = face.copy()
    (w1, _), _ = cv2.getTextSize("UNO", deck.font, 1.0, 8)
    scale = WIDTH * 0.75 / w1
    (w, h), _ = cv2.getTextSize("UNO", deck.font, scale, 8)
    origin = (CENTRE[0] - w // 2, CENTRE[1] + h // 2)
    cv2.putText(layer, "UNO", (origin[0] - 5, origin[1] + 5), deck.font, scale, deck.inks["black"], 14, cv2.LINE_AA)
    cv2.putText(layer, "UNO", origin, deck.font, scale, deck.inks["yellow"], 8, cv2.LINE_AA)
    turn = cv2.getRotationMatrix2D(CENTRE, 25, 1.0)
    face[:] = cv2.warpAffine(layer, turn, (WIDTH, HEIGHT), borderMode=cv2.BORDER_REFLECT)
    _frame(face, deck)


def _frame(face: Image, deck: Deck) -> None:
    """Redraw the white border that a whole-face warp smeared."""
    inset = round(WIDTH * deck.border)
    outside = np.full(face.shape[:2], 255, np.uint8)
    _rounded_rect(outside, (inset, inset), (WIDTH - 1 - inset, HEIGHT - 1 - inset), round(WIDTH * 0.05), 0)
    face[outside > 0] = deck.inks["white"]
