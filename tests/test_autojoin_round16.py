"""Auto-Join deviation 37: a ``Words`` operand is cut between its words only. Hand-built
case: shop command classes in CamelCase ("ShopOrdersLineItemsRefundCommand") against their
routes ("shop.orders.lineItems.refund"); the lower-cased words joined by "." hold every
word but "lineItems", and main's learner cut them at letter positions inside a word that
fit the examples' word lengths only."""
import pytest

from lakejoin_jupyter.join.autojoin.dsl import Substring, Words, join_words, split_words
from lakejoin_jupyter.join.autojoin.learn import Example, LearnSettings, try_learn_transform

ROWS = [("ShopCartsLineItemsRemoveCommand", "shop.carts.lineItems.remove"),
        ("ShopUsersLineItemsAddCommand", "shop.users.lineItems.add"),
        ("ShopItemsLineItemsClearCommand", "shop.items.lineItems.clear"),
        ("ShopOrdersLineItemsRefundCommand", "shop.orders.lineItems.refund"),
        ("ShopWishlistsLineItemsMoveCommand", "shop.wishlists.lineItems.move"),
        ("ShopTabsLineItemsMoveCommand", "shop.tabs.lineItems.move")]


def _between_words(value: str, w: Words) -> set:
    """Brute force: the cuts of the Words value that leave every word whole (a prefix is a
    run of whole words, with or without the joiner after it)."""
    out = join_words(value, w.sep, w.casing, w.joiner)
    # joined by a character: the output split at it; joined by nothing: the value's words
    words = out.split(w.joiner) if w.joiner else split_words(value, w.sep)
    cuts, pos = set(), 0
    for word in words:
        cuts.update({pos, pos + len(word)})
        pos += len(word) + len(w.joiner)
    return cuts


def test_between_words_hand_checked():
    assert _between_words("KeyPressMask", Words(None, "", "lower", ".")) == {0, 3, 4, 9, 10, 14}
    assert _between_words("ERRCODE_NO_DATA", Words(None, "_", "title", "")) == {0, 7, 9, 13}


def _cuts_inside_a_word(node, rows) -> bool:
    """True when a Substring of a Words operand of ``node`` has a bound inside a word of
    some row's value."""
    if isinstance(node, Substring) and isinstance(node.of, Words):
        w = node.of
        for value, _route in rows:      # the operands here read the one column whole
            cuts = _between_words(value, w)
            n = max(cuts)
            for b in (node.start, node.stop):
                if b is None:
                    continue
                pos = min(max(b + n if b < 0 else b, 0), n)
                if pos not in cuts:
                    return True
    return False


@pytest.mark.parametrize("pick", [(0, 1, 3), (0, 1, 2, 3), (0, 3, 4), (0, 1, 5)])
def test_words_operand_not_cut_inside_a_word(pick):
    # main's learner: "first 15 letters of lower-cased words of `command class` (split at
    # case changes, joined by ".") + letters 14-15 of `command class` + lower-cased words
    # ...[18:-8]", right on its examples and on 4 of the 6 rows at most
    ex = [Example((ROWS[i][0],), ROWS[i][1]) for i in pick]
    p = try_learn_transform(ex, ["command class"], LearnSettings())
    if p is None:       # the fixed learner: nothing in tau operators this way round
        return
    examples = [ROWS[i] for i in pick]
    assert not any(_cuts_inside_a_word(piece, examples) for piece in p.pieces), p.describe()
    # whatever is learned holds on every row
    assert all(p({"command class": c}) == r for c, r in ROWS), p.describe()


@pytest.mark.parametrize("pick", [(0, 1, 3), (0, 3, 4)])
def test_other_direction_learns_the_classes(pick):
    # the way round the join is to be found: "Shop" + title(part 2) + "LineItems" + ...
    ex = [Example((ROWS[i][1],), ROWS[i][0]) for i in pick]
    p = try_learn_transform(ex, ["route"], LearnSettings())
    assert p is not None
    assert all(p({"route": r}) == c for c, r in ROWS), p.describe()
