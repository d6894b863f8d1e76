"""What a seat knows of the cards it cannot see, and placements drawn consistently with it.

Search plays a position out many times, each time in a *determinization*: a deal where every
card the seat cannot see is placed somewhere it may really be. :class:`Knowledge` is what the
seat infers from its view alone (never from anything else): the cards whose place it knows
(cards it passed or gave, marriages declared, a turn-up taken...), how many cards each hidden
place holds, and where each card it has not seen may be (a seat that did not follow a suit
holds none of it). :meth:`Knowledge.sample` places the unseen cards at random within those
limits; each game's model (``models.py``) builds placements into deals of the engine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ...core import shuffled

#: A place a hidden card may be: a seat, ``"stock"`` (Marjolet) or ``"kitty"`` (Big Mariage).
Place = int | str

#: How many random placements to try before placing the cards by augmenting paths (which
#: always finds a placement when one exists, though less evenly spread).
ATTEMPTS = 20


@dataclass
class Knowledge:
    """What one seat knows of the places of the cards it cannot see."""

    #: The cards known to be at each hidden place (not all of them: see ``sizes``).
    known: dict[Place, list[str]]
    #: How many cards each hidden place holds, the known ones included.
    sizes: dict[Place, int]
    #: Each card the seat has not seen, with the places it may be in.
    unseen: dict[str, tuple[Place, ...]]

    @property
    def certain(self) -> bool:
        """Whether every placement is the same: each unseen card has one place it may be in,
        and no place holds more than one of them in an order that matters (a stock)."""
        places = [p for places in self.unseen.values() for p in places]
        return len(places) == len(self.unseen) and places.count("stock") <= 1

    def sample(self, rng: random.Random) -> dict[Place, list[str]]:
        """Every hidden place's cards: the known ones, then unseen ones drawn at random where
        they may be. A place's unseen cards come in random order (a stock's order)."""
        room = {place: self.sizes[place] - len(cards) for place, cards in self.known.items()}
        # Most constrained first, in random order within each constraint (sorted before the
        # shuffle: the order of a set of strings changes from process to process).
        cards = sorted(shuffled(sorted(self.unseen), rng), key=lambda c: len(self.unseen[c]))
        for _ in range(ATTEMPTS):
            placed = self._draw(cards, dict(room), rng)
            if placed is not None:
                return placed
        return self._match(cards, room)

    def _draw(self, cards: list[str], room: dict[Place, int], rng: random.Random):
        """One attempt: each card to one of its places, chosen in proportion to the room left
        there (for cards that may be anywhere, exactly a uniform deal); None at a dead end."""
        placed = {place: list(known) for place, known in self.known.items()}
        unseen = self.unseen
        for card in cards:
            places = [p for p in unseen[card] if room[p]]
            if not places:
                return None
            pick = rng.random() * sum(room[p] for p in places)
            for place in places:
                pick -= room[place]
                if pick < 0:
                    break
            room[place] -= 1
            placed[place].append(card)
        return placed

    def _match(self, cards: list[str], room: dict[Place, int]) -> dict[Place, list[str]]:
        """A placement by augmenting paths (Kuhn's matching of cards to free slots)."""
        slots = [place for place, free in room.items() for _ in range(free)]
        holder: list[str | None] = [None] * len(slots)

        def put(card: str, tried: set[int]) -> bool:
            for i, place in enumerate(slots):
                if i in tried or place not in self.unseen[card]:
                    continue
                tried.add(i)
                if holder[i] is None or put(holder[i], tried):
                    holder[i] = card
                    return True
            return False

        for card in cards:
            if not put(card, set()):
                raise ValueError(f"no place for {card}: the knowledge contradicts itself")
        placed = {place: list(known) for place, known in self.known.items()}
        for place, card in zip(slots, holder):
            placed[place].append(card)
        return placed


def tricks_seen(deal: dict, seats: int) -> list[list[tuple[int, str]]]:
    """Every trick of a deal's view so far, finished ones and the one in progress, each as
    ``[(seat, card), ...]`` in the order played."""
    tricks = [[((leader + i) % seats, card) for i, card in enumerate(cards)]
              for leader, _, cards in deal["past_tricks"]]
    if deal["trick"]:
        tricks.append([(seat, card) for seat, card in deal["trick"]])
    return tricks
