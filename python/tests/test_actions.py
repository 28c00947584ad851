"""The global action encoding: every index is one meld or one exchange, and back."""
import dhm
import pytest


def test_layout_counts():
    kinds = {}
    for a in range(dhm.NUM_ACTIONS):
        kinds[dhm.move(a).kind] = kinds.get(dhm.move(a).kind, 0) + 1
    # 1 pass, 52 singles, the lone joker, 143 + 364 + 13 groups, 2032 sequences, 53 + 1378 gifts
    assert kinds == {"pass": 1, "single": 52, "joker": 1, "group": 520, "sequence": 2032, "give": 1431}
    for kind, r in dhm.ACTION_RANGES.items():
        assert all(dhm.move(a).kind == kind for a in r), kind


def test_text_round_trip():
    texts = set()
    for a in range(dhm.NUM_ACTIONS):
        m = dhm.move(a)
        assert dhm.action_of(m.text) == a, m
        texts.add(m.text)
        if m.kind == "give":
            assert dhm.action_of(m.cards) == a
            assert 1 <= m.size == len(m.cards) <= 2
        elif m.kind != "pass":
            assert m.size == len(m.cards)  # the cards the meld takes, the joker included
    assert len(texts) == dhm.NUM_ACTIONS


def test_known_actions():
    assert dhm.action_of("p") == 0
    assert dhm.action_of("c-3") == 1 and dhm.action_of("s-2") == 52
    assert dhm.action_of("jk") == 53
    assert dhm.move(dhm.action_of("h-678(7)")).cards == ["h6", "h8", "jo"]
    assert dhm.move(dhm.action_of("ch-a(c)")).cards == ["ha", "jo"]
    assert dhm.action_of(["c3"]) == dhm.action_of("give c3") == 2606
    assert dhm.action_of("give s2 jo") == dhm.NUM_ACTIONS - 1
    assert dhm.CARDS[0] == "c3" and dhm.CARDS[52] == "jo" and len(dhm.CARDS) == 53


@pytest.mark.parametrize("bad", ["", "x", "d-", "cc-3", "d-35", "give", "give c3 c3", "give c3 d3 h3", "dd"])
def test_bad_text_is_a_clear_error(bad):
    with pytest.raises(ValueError):
        dhm.action_of(bad)


@pytest.mark.parametrize("bad", [-1, dhm.NUM_ACTIONS, 10 ** 6])
def test_bad_index_is_a_clear_error(bad):
    with pytest.raises(ValueError):
        dhm.move(bad)
