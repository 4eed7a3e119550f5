"""Every card in a picture: the whole ones, read from the whole card and its two indexes, and the ones under
them of which only an index corner shows, read from that corner alone.

This is how a hand laid down to be counted is read (the reveal zone, ``tabletop classify --all``): dropped in a
heap, fanned or in a row, most of its cards show no more than a corner.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial

import cv2
import numpy as np
import numpy.typing as npt

from tabletop.game.cards import Card
from tabletop.vision import borders, finder
from tabletop.vision.crop import (
    INDEX_SIZE,
    WHITE_LEVEL,
    Corners,
    Image,
    index_cuts,
    index_views,
    levels,
    on_card,
    rectify,
)
from tabletop.vision.found import card_sized, height
from tabletop.vision.index_finder import (
    CARDS_IN_VIEW,
    INDEX_MIDDLE,
    PEAK,
    FoundIndex,
    IndexFinder,
    default_index_finder,
)
from tabletop.vision.model import CardReader, Reading
from tabletop.vision.reader import GUESS_FLOOR, read_found

WHOLE_CANDIDATES = 12
"""How many of each finder's most prominent shapes are read as whole cards."""
SAME_CARD = 0.5
"""Two whole cards found sharing more than this share of the smaller are one card, found twice."""
UNDER = 0.15
"""A covered card, placed whole from its index, lies at least this share of it under a card of the hand."""
INDEX_VIEWS = (0.9, 1.0, 1.15, 1.3)
"""Where the cards' height is not known (no whole card found, no camera's layout): the heights, as shares of the
one the index finder gives, of the cards a covered index is cut from and read as, the readings of all the cuts
averaged (the first also balances the colours: see ``crop.index_views``): the
finder's height is often a tenth off, more often short than long. On the real fans, with the floors and the
border below (measured with an earlier index model): these four cuts read 2,485 of 2,697 cards, 49 where none
lies, every card right in 668 of 899 pictures; 1.0, 1.15 and 1.3 2,471, 52 and 652; 0.9 to 1.45 (five) 2,491,
51 and 675, but 196 of the simulator's dropped hands' 223 cards instead of 199 (these four: 200); 1.0 to 1.45
(four) 2,472, 49 and 656; 0.8 to 1.3 (five) 2,484, 53 and 665. Before, each balanced as its own card: 1.0 to
1.3 read 2,197, 0.87 to 1.15 2,164, 1.0 alone 2,148. With the shipped index model these four read 2,595, 50 and
770; 0.8 to 1.45 (six) 2,600, 48 and 778; 0.9 to 1.45 (five) 2,595, 48 and 772; 1.0, 1.15 and 1.3 2,581, 49
and 760."""
KNOWN_VIEWS = (0.9, 1.0, 1.1)
"""Where the cards' height is known (the camera's layout, or the whole cards found): the heights, as shares of it,
of the cards a covered index is cut from and read as (see ``INDEX_VIEWS``). The cards of a hand are of one deck
and lie at one distance from the camera, and a whole card's outline measures their height far better than the
index finder does from a corner: the larger of ``INDEX_VIEWS``' cuts, meant for a corner the finder tells short,
shrink a corner it tells right until its numeral is hard to make out (a clear, underlined yellow 6 read 0.97
surely at 0.9 of the finder's height and 0.19 at 1.3, the mean 0.49). On the real fans: 2,641 of 2,697 cards read
right instead of 2,636, 43 where none lies instead of 45, every card right in 814 pictures instead of 811 (F1
0.9738 -> 0.9760); 0.85 to 1.15 (four cuts) 2,641, 41 and 815; 0.9 to 1.3 of the known height (four) 2,625, 46
and 800; halfway between the known height and the finder's, 2,639, 45 and 809. Over the simulator's 20 rounds of
dropped hands, whose layout gives the height: 214 of 223 cards either way, one more counted that the hand did not
hold (a whole card's own corner marked again just past its edge, read as another card). Only the cuts are made so:
the card is still placed, and its index reported, as tall as the finder tells, for whether it lies under the hand
(``_under_the_hand``) is judged on marks placed so. Placed at the known height too, the real fans read 2,641 and 48
where none lies, every card right in 813 pictures: a mark on the table beside a hand, grown, reaches under it."""
COVERS = 0.92
"""An index whose middle lies inside a whole card shrunk to this share of its size about its middle is that
card's own, or under it and hidden: only indexes outside every whole card are read. An index just outside it,
within ``OWN_REACH`` of one of the card's own index corners and read as that card, is that corner found again
where the whole card's outline falls a little short: counted, it would count the card twice."""
OWN_REACH = 0.16
"""How near one of a whole card's index corners (a share of its height) an index read as that card is that corner
found again (``_again``). A deck's wide "+2" or "+4" is printed well in from the corner, and a whole card outlined
a little off leaves its own index that far from where its outline puts it: at 0.12 (``index_finder.APART``, how
near two marks of one index lie) a simulated row's top card, a draw two, was counted three times. The index of the
card under it in a tight fan lies as near, and reads as another card: it is counted. On the real fans: 2,623 of
2,697 read right and 56 where none lies, against 2,619 and 58 when every index that near was taken for the
corner found again, whatever it read (F1 0.967 -> 0.968; every card right in 790 pictures instead of 784)."""

SAME_INDEX = 0.15
"""Two covered cards read as the same card, their indexes nearer than this share of a card's height, are one index
the finder marked twice (its numeral and the corner round it): on the real fans, 13 cards were counted twice so.
Two like cards side by side in a hand lie further apart: of the 2,697 cards of the real fans, 17 pairs of
neighbours (of any cards) have their indexes that near."""
COVERED_FLOOR = 0.15
"""A covered card read below ``GUESS_FLOOR`` but at least this surely is kept where the index model makes it at
least ``CARD_OVER_NONE`` times as likely that card as no card at all. What shows of a covered index is often
shared by several cards (a ringed "+" by the wild draw four and the special wilds, half a wild's oval by the
wild and the four-colour prints): the model spreads its reading over them, and the best falls below the floor
though it is surely a card. What this keeps of marks on the table, ``BORDER_SHOWS`` leaves out. On the real fans
(three cuts, ``INDEX_VIEWS``, then): 2,471 of 2,697 cards read right, 52 where none lies, every card of the
picture right in 652 of 899 pictures; (0.2, 10), the floor before the border was looked at, 2,458, 44 and 646;
(0.1, 5) 2,473 and 53; no floor but three times likelier than none 2,478 and 56. Readings this unsure never count
in a reveal (the watcher's ``HAND_FLOOR``)."""
CARD_OVER_NONE = 5.0
"""How many times likelier than no card a covered card read below ``GUESS_FLOOR`` must be to be kept."""
BORDER_SHOWS = 135.0
"""How bright, where the whole cards' white border is ``WHITE_LEVEL``, a covered index's own border must show (see
``_border_shows``). On the real fans: 49 cards read where none lies instead of 127, 1 read right lost (2,485 of
2,697 instead of 2,486), F1 0.916 -> 0.929; every card of the picture right in 668 pictures instead of 640. At
130, 51 where none lies and 2,485 right; at 140, 47 and 2,484. The simulator's dropped hands read the same 199 of
223 with and without it (three cuts)."""
BORDER = np.isin(np.minimum(*np.indices(INDEX_SIZE[::-1])), range(1, 6))
"""Where, in a covered card's index cut, the card's white border runs: the L of its top and left rows and columns
1 to 5 (about 1% to 5% of the card's height, 1% to 7% of its width), inside the outermost, which may take in the
table."""

BESIDE = (0.16, 0.33)
"""How far (shares of a card's height) from the index of a card read a faintly marked index lies where it is the
next card of a fan (see ``_beside``). On the real fans, the faint marks (``index_finder.FAINT_PEAK``) read at
least ``FAINT_FLOOR`` surely kept 55 cards: the 35 read right lay 0.12 to 0.28 of a card's height from the nearest
index read, and of the 20 read where no card lies, 11 lay nearer than 0.17 (an index marked again, most read as
the same card) and 8 further than 0.4 (marks on the table, and a covered card's far corner peeping out). With
``BESIDE``: 2,619 of the 2,697 cards read right (97.1%) and 58 where none lies, against 2,597 and 50 without the
faint marks (F1 0.965 -> 0.967; every card right in 784 pictures instead of 770); without ``BESIDE``, 2,620 and
70; the faint marks kept at any distance and reading, 2,635 and 287."""
FAINT_FLOOR = 0.7
"""How surely a faintly marked index must read as a card to be kept. On the real fans, with ``BESIDE``: at 0.6,
2,622 read right and 65 where none lies; at 0.5, 2,625 and 89."""

SHORTEST = 0.65
"""An index marked as the corner of a card shorter than this share of the picture's cards (where their height is
known) is none: a print on a card's face, such as its big numeral, marked as the index of a card about half as
tall. In a simulated row (the watcher's test of seed 2003) the big 2 of a yellow 2 was read as a draw two's index
at the reveal's floor. On the real fans, 2,635 of 2,697 cards read right either way, 49 where none lies against 51
(F1 0.9732 -> 0.9736); at 0.7, 2,632 and 45; at 0.75, 2,619 and 39; the simulator's dropped hands read 211 of 223
cards either way. Of the sure marks of the real fans, 5% make their card shorter than 0.67 of the whole cards'
height: the finder often tells a covered card's height short (``INDEX_VIEWS``)."""

OnTheHand = Callable[[float, float], bool]
"""Whether the point (x, y) of a picture lies on the cards of a hand laid down."""


@dataclass(frozen=True)
class SeenCard:
    """A card in the picture: its reading, and where it lies: ``corners`` for a whole card, ``index`` (the quad
    round its index corner) for a card of which only that shows."""

    reading: Reading
    corners: Corners | None = None
    index: Corners | None = None

    @property
    def card(self) -> Card | None:
        return self.reading.card

    @cached_property
    def index_middles(self) -> list[tuple[float, float]]:
        """Where the card's index corners lie: both of a whole card's, the one of a covered card. Weighed against
        every index marked in the picture: worked out once."""
        if self.corners is not None:
            middles = on_card(self.corners, np.array([INDEX_MIDDLE, (1 - INDEX_MIDDLE[0], 1 - INDEX_MIDDLE[1])]))
            return [(float(x), float(y)) for x, y in middles]
        assert self.index is not None
        middle = self.index.mean(axis=0)
        return [(float(middle[0]), float(middle[1]))]


def read_every_card(image: Image, model: CardReader, indexes: IndexFinder | None = None,
                    card_height: float | None = None, on_the_hand: OnTheHand | None = None,
                    heights: tuple[float, ...] = CARDS_IN_VIEW) -> list[SeenCard]:
    """Every card read in ``image`` (BGR): the whole cards first, most prominent first, then the covered ones, the
    surest reading first. Shapes read as no card, or below ``GUESS_FLOOR`` (a covered card: see
    ``COVERED_FLOOR``), are left out. ``card_height``, where
    it is known (a camera's layout), is how tall a card is in the image's pixels, and a whole card found far
    larger or smaller is none (an outline round a row of cards laid over each other would hide every index in
    it); else the whole cards found tell it (``_height_of``). A covered card is cut at that height (``KNOWN_VIEWS``),
    and an index marked as the corner of a far shorter card is none (``SHORTEST``). ``on_the_hand``, where the caller
    knows where the cards lie (a reveal zone that saw them laid), says whether a point of the image lies on them:
    a covered card is kept where its index does, else where it lies under the hand (``_under_the_hand``).
    ``heights`` are how tall the index finder sees the cards, one look at each, where their height is known."""
    whole = _whole_cards(image, model, card_height)
    tall = card_height or _height_of(whole)
    marked = (indexes or default_index_finder()).find(image, tall, heights)
    found = [index for index in marked if _tall_enough(index, tall)]
    covered = _covered(image, model, found, whole, tall)
    if on_the_hand is None:
        return whole + _under_the_hand(whole, covered)
    return whole + [seen for _, seen in covered if on_the_hand(*seen.index_middles[0])]


def _tall_enough(index: FoundIndex, card_height: float | None) -> bool:
    """Whether the card ``index`` would be the corner of is as tall as a card of the picture (``SHORTEST``), where
    their height is known."""
    return card_height is None or height(index.card) >= SHORTEST * card_height


def _owned(index: FoundIndex, whole: list[SeenCard]) -> bool:
    return any(_owns(seen, index) for seen in whole)


def _owns(whole: SeenCard, index: FoundIndex) -> bool:
    """Whether ``index`` is the whole card's own, or lies under it hidden: it lies inside the card, and the card is
    read surely or the index lies by one of its index corners (``OWN_REACH``).

    A whole card read unsurely may be an outline round two cards of one colour laid over each other, the edge
    between them lost, read as neither: the index of the one beneath, inside that outline, shows and is read. Over
    the simulator's 20 rounds of dropped hands, a red reverse so outlined with the red 4 under it was lost: 214 of
    223 cards read instead of 213. The real fans read the same (no unsure whole card there holds a sure mark away
    from its corners that reads as a card)."""
    assert whole.corners is not None
    point = _point(index)
    if not _inside(whole, point):
        return False
    return not whole.reading.unsure or _by_corner(point, whole, OWN_REACH * height(whole.corners))


def _again(covered: SeenCard, whole: SeenCard) -> bool:
    """Whether the ``covered`` card is one of the ``whole`` card's own prints found again: read as the same card,
    within ``OWN_REACH`` of an index corner where its outline falls a little short, or anywhere inside it (only an
    unsure whole card's inside is read at all, see ``_owns``: there it is its big numeral)."""
    assert whole.corners is not None
    point = covered.index_middles[0]
    return covered.card == whole.card and (
        _by_corner(point, whole, OWN_REACH * height(whole.corners)) or _inside(whole, point))


def _inside(whole: SeenCard, point: tuple[float, float]) -> bool:
    assert whole.corners is not None
    return cv2.pointPolygonTest(_shrunk(whole.corners), point, False) >= 0


def _alike_near(card: Card | None, point: tuple[float, float], seen: SeenCard, reach: float) -> bool:
    """Whether a card read as ``card`` at ``point`` is ``seen`` marked again: read alike, within ``reach`` pixels
    of one of its index corners."""
    return card == seen.card and _by_corner(point, seen, reach)


def _by_corner(point: tuple[float, float], seen: SeenCard, reach: float) -> bool:
    """Whether ``point`` lies within ``reach`` pixels of one of ``seen``'s index corners."""
    return any(math.dist(point, middle) <= reach for middle in seen.index_middles)


def _whole_cards(image: Image, model: CardReader, card_height: float | None) -> list[SeenCard]:
    found = [card for card in borders.find_cards(image, WHOLE_CANDIDATES) + finder.find_cards(image, WHOLE_CANDIDATES)
             if card_height is None or card_sized(card.corners, card_height)]
    seen = [SeenCard(sighting.reading, corners=sighting.corners)
            for sighting in read_found(image, model, found) if _kept(sighting.reading)]
    kept: list[SeenCard] = []
    for card in sorted(seen, key=lambda one: one.reading.confidence, reverse=True):
        if not any(_same(card, other) for other in kept):
            kept.append(card)
    order = {id(card): k for k, card in enumerate(seen)}
    return sorted(kept, key=lambda card: order[id(card)])


def _height_of(whole: list[SeenCard]) -> float | None:
    """How tall the cards are, as the whole ones found say: the cards of one deck are one size, and the index
    finder marks the corners of cards it sees at the heights it learnt (``index_finder.CARDS_IN_VIEW``) far better
    than in a picture merely shrunk to a size. On the real fans, whose cards fill much of the picture, 2,341 of
    2,697 cards were read right the old way and 2,432 so; but 106 read where none lies instead of 67."""
    if not whole:
        return None
    return float(np.median([height(seen.corners) for seen in whole if seen.corners is not None]))


def _white_of(image: Image, model: CardReader, whole: list[SeenCard]) -> float | None:
    """How bright the whole cards' white border is in ``image``: the light on the table, and the camera's
    exposure, as the cards show them."""
    whites = [levels(rectify(image, seen.corners, model.size)).white.mean() for seen in whole
              if seen.corners is not None]
    return float(np.median(whites)) if whites else None


def _covered(image: Image, model: CardReader, found: list[FoundIndex], whole: list[SeenCard],
             card_height: float | None) -> list[tuple[Corners, SeenCard]]:
    """Each index found that no whole card owns (``_owns``), read, whose card's border shows round it
    (``_border_shows``, against the ``whole`` cards' white), with the card placed from it: the surely marked indexes
    first, then the faint ones that lie beside a card read (``_beside``; only those are read, as a heap shows many
    faint marks), the surest reading first within each: of one index marked twice, the surer reading is the one
    kept. Last, a whole card's index corner found again (``_again``) is left out: until then it stands for its
    corner, so that a third mark of it, read alike, is left out too."""
    sure = [index for index in found if index.score >= PEAK and not _owned(index, whole)]
    white = _white_of(image, model, whole) if found else None
    covered = _read_covered(image, model, sure, white, card_height, [], _kept_covered)
    read = [middle for seen in whole for middle in seen.index_middles] + [seen.index_middles[0] for _, seen in covered]
    beside = [index for index in found if index.score < PEAK and _beside(index, read) and not _owned(index, whole)]
    covered = _read_covered(image, model, beside, white, card_height, covered, partial(_kept, floor=FAINT_FLOOR))
    return [(card, seen) for card, seen in covered if not any(_again(seen, other) for other in whole)]


def _read_covered(image: Image, model: CardReader, hidden: list[FoundIndex], white: float | None,
                  card_height: float | None, covered: list[tuple[Corners, SeenCard]],
                  kept: Callable[[Reading], bool]) -> list[tuple[Corners, SeenCard]]:
    """``covered`` and, after it, each of ``hidden`` whose card's border shows, whose reading is ``kept``, and which
    is no index of ``covered`` marked again: only those whose border shows are read."""
    placed = [_placed(index, card_height) for index in hidden]
    cuts = [index_cuts(image, cards) for cards in placed]
    shown = [k for k, cut in enumerate(cuts) if _border_shows(cut, white)]
    if not shown:
        return covered
    views = [index_views(image, placed[k][0], cuts[k], model.size) for k in shown]
    readings = sorted(zip([hidden[k] for k in shown], model.vote_indexes(views), strict=True),
                      key=lambda found: found[1].confidence, reverse=True)
    covered = list(covered)
    for index, reading in readings:
        if kept(reading) and not any(_twice(index, reading, seen) for _, seen in covered):
            covered.append((index.card, SeenCard(reading, index=index.index)))
    return covered


def _border_shows(cuts: list[Image], white: float | None) -> bool:
    """Whether the white border of a card runs round the index, in any of its cuts (``INDEX_VIEWS``: the index is
    often placed a little inward on its card). A mark on the table that reads as an index (a swirl of a cloth, a
    knot in the wood) has none. Where no whole card shows how white a card's border is, every index is kept."""
    if white is None:
        return True
    return max(float(cut[BORDER].mean()) for cut in cuts) * WHITE_LEVEL / white >= BORDER_SHOWS


def _beside(index: FoundIndex, read: list[tuple[float, float]]) -> bool:
    """Whether a faintly marked index (below ``index_finder.PEAK``) may be the next card of a fan: it lies beside
    the index of a card read, whole or from a sure mark, as far from it as a fan's cards lie apart (``BESIDE``).
    Nearer, it is that index marked again; further, a mark on the table."""
    tall = height(index.card)
    nearest = min((math.dist(_point(index), middle) for middle in read), default=math.inf)
    return BESIDE[0] * tall <= nearest <= BESIDE[1] * tall


def _twice(index: FoundIndex, reading: Reading, seen: SeenCard) -> bool:
    """Whether ``index``, read as ``reading``, is the index ``seen`` was read from, marked a second time."""
    return _alike_near(reading.card, _point(index), seen, SAME_INDEX * height(index.card))


def _under_the_hand(whole: list[SeenCard], covered: list[tuple[Corners, SeenCard]]) -> list[SeenCard]:
    """The covered cards that lie under the hand: under a whole card, or under a covered card that does.

    A card of which only an index shows is covered by another card. A mark on the table that reads as an index (a
    dark print on a cloth, a pattern in the wood) lies under nothing, and is left out: on the real pictures
    measured, 133 cards read where none lies instead of 253, and 2 read right lost. Where the index finder misses
    the corner of a card in a row, the cards before it are cut off from the hand and lost too; reaching further
    (a card grown by a third about its middle) keeps them, but keeps 24 more marks on the table as well.

    Where no whole card is found at all (the top card of a fan lost in the white of the cards beside it, on a
    white table), the hand is the covered cards that lie under one another: a mark on the table lies alone. On 108
    rendered fans of six cards, 467 cards read right instead of 455, one more read wrong, and 2 fans of which
    nothing was read instead of 5; on the real fans, 2,597 of 2,697 instead of 2,595, none more where no card
    lies. Seeding the hand so where whole cards are found too read 25 more marks on the real tables."""
    over = [seen.corners for seen in whole if seen.corners is not None]
    cards = [card for card, _ in covered]
    kept = set() if over else {k for k, card in enumerate(cards) if _under(card, cards[:k] + cards[k + 1:])}
    over += [cards[k] for k in kept]
    while joining := [k for k, (card, _) in enumerate(covered) if k not in kept and _under(card, over)]:
        kept.update(joining)
        over += [covered[k][0] for k in joining]
    return [seen for k, (_, seen) in enumerate(covered) if k in kept]


def _under(card: Corners, over: list[Corners]) -> bool:
    area = max(float(cv2.contourArea(card)), 1.0)
    return any(float(cv2.intersectConvexConvex(card, other)[0]) >= UNDER * area for other in over)


def _placed(index: FoundIndex, card_height: float | None) -> list[Corners]:
    """The cards a covered ``index`` is cut from and read as: of the cards' height where it is known
    (``KNOWN_VIEWS``), else of the height the index finder gives (``INDEX_VIEWS``)."""
    if card_height is None:
        return [_scaled(index.card, index.middle, scale) for scale in INDEX_VIEWS]
    own = height(index.card)
    return [_scaled(index.card, index.middle, scale * card_height / own) for scale in KNOWN_VIEWS]


def _scaled(card: Corners, middle: npt.NDArray[np.float32], scale: float) -> Corners:
    """The card grown ``scale`` times about its index's middle: the same index cut as from a card that tall."""
    return (middle + (card - middle) * scale).astype(np.float32)


def _kept(reading: Reading, floor: float = GUESS_FLOOR) -> bool:
    return reading.card is not None and reading.confidence >= floor


def _kept_covered(reading: Reading) -> bool:
    return _kept(reading) or (_kept(reading, COVERED_FLOOR) and reading.confidence >= CARD_OVER_NONE * reading.no_card)


def _same(card: SeenCard, other: SeenCard) -> bool:
    assert card.corners is not None and other.corners is not None
    shared, _ = cv2.intersectConvexConvex(card.corners, other.corners)
    smaller = min(cv2.contourArea(card.corners), cv2.contourArea(other.corners))
    return float(shared) > SAME_CARD * max(float(smaller), 1.0)


def _shrunk(corners: Corners) -> Corners:
    middle = corners.mean(axis=0)
    return (middle + (corners - middle) * COVERS).astype(np.float32)


def _point(index: FoundIndex) -> tuple[float, float]:
    middle = index.middle
    return float(middle[0]), float(middle[1])
