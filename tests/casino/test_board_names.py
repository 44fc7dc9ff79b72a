"""Names on public boards (waiting lists, tournament chip counts): nickname or initials,
never a full name or an id, and two players on one board never show the same line."""

from casino.models import Player, board_names, display_name


def people(*names: tuple[int, str, str]) -> list[Player]:
    return [Player(pk=pk, name=name, nickname=nick) for pk, name, nick in names]


def test_a_board_shows_nicknames_or_initials() -> None:
    board = board_names(people((1, "Jan Novák", ""), (2, "Eva Malá", "Shark")))
    assert board == {1: "J. N.", 2: "Shark"}
    assert display_name(None) == "?"


def test_namesakes_by_initials_show_first_name_and_last_initial() -> None:
    """QA found "J. N." twice on one list: Jan Novák and Jana Nováková."""
    board = board_names(
        people((7, "Jana Nováková", ""), (3, "Jan Novák", ""), (4, "Karel Dvořák", ""))
    )
    assert board == {3: "Jan N.", 7: "Jana N.", 4: "K. D."}


def test_namesakes_still_alike_are_numbered_in_id_order() -> None:
    board = board_names(
        people(
            (9, "Jan Novák", ""),
            (2, "Jan  Nosek", ""),
            (5, "Petr Pan", "Ace"),
            (6, "Eva Ela", "ace"),
        )
    )
    assert board == {2: "Jan N. (1)", 9: "Jan N. (2)", 5: "Ace (1)", 6: "ace (2)"}
    assert len(set(board.values())) == len(board)
    assert all("Novák" not in name and "Nosek" not in name for name in board.values())
