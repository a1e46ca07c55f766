"""What the browser tests of the replay page share: reading the board it draws, and an
analysis of a game as the task stores it."""

from __future__ import annotations

READ = """
  const root = document.getElementById("replay-board");
  const cards = (sel) => [...root.querySelectorAll(sel)].map((c) => c.dataset.card);
  const seats = [...root.querySelectorAll(".hand[data-testid^=hand-]")];
  const hands = {};
  for (const hand of seats) {
    const index = hand.dataset.testid.split("-")[1];
    const shown = [...hand.querySelectorAll(".card[data-card]")].map((c) => c.dataset.card);
    hands[index] = [shown.sort(), hand.querySelectorAll(".card.back").length];
  }
  return {
    ply: Number(document.querySelector("[data-testid=replay]").dataset.ply),
    hands,
    pile: cards("[data-testid=pile] .card[data-card]"),
    moved: cards(".card.last, .card.just-taken").sort(),
  };
"""
READ_BOARD = "() => {" + READ + "}"
# Every ply in one call: click "first", then read and click "next" until the end.
READ_EVERY_PLY = """() => {
  const read = () => {""" + READ + """};
  const out = [];
  document.querySelector("[data-testid=first]").click();
  const next = document.querySelector("[data-testid=next]");
  out.push(read());
  while (!next.disabled) { next.click(); out.push(read()); }
  return out;
}"""


def split(cards: str) -> list[str]:
    return [cards[i:i + 2] for i in range(0, len(cards), 2)]


def expected(position: dict) -> dict:
    return {
        "hands": {str(i): [sorted(split(cards)), hidden]
                  for i, (cards, hidden) in enumerate(position["hands"])},
        "pile": split(position["pile"]),
    }


def assert_shown(shown: dict, positions: list[dict], ply: int) -> None:
    assert shown["ply"] == ply
    want = expected(positions[ply])
    assert shown["hands"] == want["hands"], f"hands at ply {ply}"
    assert shown["pile"] == want["pile"], f"pile at ply {ply}"
    move = positions[ply]["move"]
    if move and not move.startswith("+"):
        assert shown["moved"] == sorted(move.split("-")), f"highlight at ply {ply}"


def assert_at(page, positions: list[dict], ply: int) -> None:
    # A function, not an expression: Playwright evaluates an expression with `eval`, which
    # the site's Content-Security-Policy refuses.
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=replay]').dataset.ply === '{ply}'")
    assert_shown(page.evaluate(READ_BOARD), positions, ply)


def analysis_of(match) -> dict:
    """An analysis of the match as the task stores it: estimates first, the end proven, an
    exact blunder on move 5, an estimated mistake on move 9 and an estimated inaccuracy on
    move 12."""
    from games.ai.analysis import Analysis, Evaluation, Judgement, Mistake
    from games.play.selectors import match_game
    from games.replays.services import analysis_view

    game = match_game(match=match)
    n = game.ply
    winner = 1.0 if match.loser_seat == 1 else -1.0
    values = [Evaluation(1.0, True)] * 5 + [Evaluation(-1.0, True)] + [
        Evaluation(round(-0.45 + 0.4 * (ply % 7) / 7, 3), False) for ply in range(6, n - 4)
    ] + [Evaluation(winner, True)] * 5
    mistakes = (
        Mistake(4, game.moves[4], Judgement.BLUNDER, True, 1.0, -1.0, (game.moves[3],)),
        Mistake(8, game.moves[8], Judgement.MISTAKE, False, 0.42, 0.17, (game.moves[7],)),
        Mistake(11, game.moves[11], Judgement.INACCURACY, False, -0.1, -0.23,
                (game.moves[10],)),
    )
    return {"status": "done", **analysis_view(Analysis(tuple(values), mistakes, 1000))}

