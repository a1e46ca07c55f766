"""The puzzle pages and their JSON acts, through Django's test client on the real database:
a play's moves are judged by the stored line, each attempt is recorded (and rated) once,
the filters choose the next puzzle, the daily puzzle and the streak."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from accounts.models import PlayerRating, RatingMode
from games.play.schemas import state_adapter
from games.puzzles.models import Puzzle, PuzzleAttempt, PuzzleStreak
from tests.games.puzzles.made import (
    INTERCHANGEABLE,
    SIX_ANSWERS,
    TAKE_TO_WIN,
    THREE_MOVES,
    stored,
)

pytestmark = pytest.mark.django_db


def play(client, puzzle: Puzzle, *moves: str):
    return client.post(f"/puzzles/{puzzle.pk}/move", json.dumps({"moves": " ".join(moves)}),
                       content_type="application/json")


@pytest.fixture
def alice_client(client, alice):
    client.force_login(alice)
    return client


def test_a_right_move_gets_the_reply_and_the_last_one_solves_rated_once(alice_client, alice):
    puzzle = stored(THREE_MOVES)
    first = play(alice_client, puzzle, "AC").json()
    assert first["outcome"] == "playing"
    assert first["end"] is None
    # The player's move, then the defender's reply; the player to move again, legal moves in.
    assert [state["last_move"]["move"] for state in first["states"]] == ["AC", "6D-KC"]
    assert first["states"][-1]["legal_moves"]
    assert first["states"][0]["legal_moves"] == []
    for state in first["states"]:
        state_adapter.validate_python(state)
    done = play(alice_client, puzzle, "AC", "AH").json()
    assert done["outcome"] == "solved"
    assert done["states"][-1]["status"] == "finished"
    assert done["end"]["first"]
    assert done["end"]["solved"]
    assert done["end"]["delta"] > 0
    again = play(alice_client, puzzle, "AC", "AH").json()  # a retried request
    assert again["end"]["first"] is False
    row = PlayerRating.objects.get(user=alice, mode=RatingMode.PUZZLE)
    assert row.games == 1
    assert round(row.rating) == done["end"]["rating"]
    assert PuzzleAttempt.objects.filter(user=alice).count() == 1


def test_a_wrong_move_is_shown_with_the_right_one_and_fails(alice_client, alice):
    puzzle = stored(THREE_MOVES)
    answer = play(alice_client, puzzle, "AH").json()
    assert (answer["outcome"], answer["wrong"], answer["correct"]) == ("failed", "AH", "AC")
    # The board plays the right move instead, and nothing more may be played.
    assert [state["last_move"]["move"] for state in answer["states"]] == ["AC"]
    assert answer["states"][-1]["status"] == "finished"
    assert answer["end"]["solved"] is False
    assert answer["end"]["delta"] < 0
    after = play(alice_client, puzzle, "AH", "AC")
    assert after.status_code == 400
    assert after.json()["code"] == "puzzle_over"
    assert PuzzleAttempt.objects.get(user=alice).solved is False


def test_the_themes_are_sent_only_once_the_play_is_over(alice_client, client):
    puzzle = stored(TAKE_TO_WIN)  # take_to_win, draw_rule, short_line
    words = ["Take to win", "Draw rule", "Short line"]
    for page in (alice_client.get(f"/puzzles/{puzzle.pk}/"),
                 alice_client.get("/puzzles/daily/"), client.get(f"/puzzles/{puzzle.pk}/")):
        html = page.content.decode()
        assert page.context["themes"] == []
        assert 'data-testid="puzzle-theme"' not in html
        # Nowhere on the page ("Draw rule" is among the board's words for a game's end).
        assert "Take to win" not in html
        assert "Short line" not in html
        assert "take_to_win" not in html
    right = play(alice_client, puzzle, "+3")
    assert right.json()["outcome"] == "playing"
    assert "themes" not in right.json()
    assert "Take to win" not in right.content.decode()
    solved = play(alice_client, puzzle, "+3", "6S").json()
    assert solved["outcome"] == "solved"
    assert solved["end"]["themes"] == words
    after = alice_client.get(f"/puzzles/{puzzle.pk}/")
    assert after.context["themes"] == words
    assert after.content.decode().count('data-testid="puzzle-theme"') == 3
    # A guest who gives up gets them with the solution, and on the page from then on.
    given_up = client.post(f"/puzzles/{puzzle.pk}/solution").json()
    assert given_up["end"]["themes"] == words
    assert client.get(f"/puzzles/{puzzle.pk}/").context["themes"] == words


def test_interchangeable_cards_are_one_answer_and_the_line_follows_the_card_chosen(client):
    puzzle = stored(INTERCHANGEABLE)
    assert puzzle.moves == ["7D", "+1", "8D", "9D-7D", "6C"]
    first = play(client, puzzle, "8D").json()  # 7D is shown; 8D is as good
    assert first["outcome"] == "playing"
    assert first["states"][-1]["last_move"]["taken"] == ["8D"]
    # The player kept 7D, so the line's 8D is now 7D, and the defender lays the 8D it took.
    assert play(client, puzzle, "8D", "8D").status_code == 400  # no longer in the hand
    second = play(client, puzzle, "8D", "7D").json()
    assert second["outcome"] == "playing"
    assert second["states"][-1]["last_move"]["move"] == "9D-8D"
    assert play(client, puzzle, "8D", "7D", "6C").json()["outcome"] == "solved"


def test_every_interchangeable_answer_of_a_step_is_accepted(client):
    puzzle = stored(SIX_ANSWERS)
    assert len(puzzle.solution[0]["accepted"]) == 6
    for move in puzzle.solution[0]["accepted"]:
        assert play(client, puzzle, move).json()["outcome"] == "solved"


@pytest.mark.parametrize("body", ["", "not json", "[]", '{"moves": 7}', '{"moves": ""}',
                                  '{"moves": "XX"}', '{"moves": "7C-7C"}',
                                  '{"moves": "' + "AC " * 30 + '"}', '{"moves": "QS"}'])
def test_bad_moves_are_refused_with_a_clear_error(client, body):
    puzzle = stored(THREE_MOVES)
    response = client.post(f"/puzzles/{puzzle.pk}/move", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]
    assert not PuzzleAttempt.objects.exists()


@hypothesis_settings(max_examples=60, suppress_health_check=list(HealthCheck), database=None)
@given(st.one_of(st.text(max_size=60), st.lists(st.sampled_from(
    ["AC", "AH", "7H", "+1", "6D-KC", "KC", "²", "AC-AH", "+99", "-"]), max_size=4).map(" ".join)))
def test_no_move_text_gives_a_server_error(client, text):
    puzzle = Puzzle.objects.first() or stored(THREE_MOVES)
    response = client.post(f"/puzzles/{puzzle.pk}/move", json.dumps({"moves": text}),
                           content_type="application/json")
    assert response.status_code in (200, 400)


def test_unknown_puzzles_and_wrong_methods(client):
    puzzle = stored(THREE_MOVES)
    assert client.get("/puzzles/999999/").status_code == 404
    assert play(client, Puzzle(pk=999_999), "AC").status_code == 404
    assert client.get(f"/puzzles/{puzzle.pk}/move").status_code == 405
    assert client.post("/puzzles/999999/solution").status_code == 404


def test_the_solution_before_the_end_is_a_miss_and_after_it_changes_nothing(alice_client,
                                                                             alice):
    puzzle = stored(THREE_MOVES)
    shown = alice_client.post(f"/puzzles/{puzzle.pk}/solution").json()
    assert [state["ply"] for state in shown["states"]] == [0, 1, 2, 3]
    assert all(state["legal_moves"] == [] for state in shown["states"])
    assert shown["end"]["first"]
    assert not shown["end"]["solved"]
    again = alice_client.post(f"/puzzles/{puzzle.pk}/solution").json()
    assert again["end"]["first"] is False
    assert PlayerRating.objects.get(user=alice, mode=RatingMode.PUZZLE).games == 1


def test_a_guest_plays_unrated_once_per_session_and_gets_a_new_puzzle_next(client):
    near, other = stored(THREE_MOVES, rating=1500), stored(TAKE_TO_WIN, rating=1700)
    page = client.get("/puzzles/")
    assert page.status_code == 200
    assert page.context["puzzle"] == near
    end = play(client, near, "AC", "AH").json()["end"]
    assert end.pop("themes") == ["Trump ace", "Last card", "Short line"]
    assert end == {"first": True, "solved": True, "rating": None, "delta": None,
                   "streak": None}
    assert play(client, near, "AH").json()["end"]["first"] is False
    assert PuzzleAttempt.objects.filter(user=None).count() == 1
    assert client.get("/puzzles/").context["puzzle"] == other
    assert b"played-before" in client.get(f"/puzzles/{near.pk}/").content


def test_filters_themes_range_and_difficulty(alice_client):
    three = stored(THREE_MOVES, rating=1500)  # trump_ace, last_card
    take = stored(TAKE_TO_WIN, rating=1850)  # take_to_win, draw_rule
    six = stored(SIX_ANSWERS, rating=1200)
    chosen = lambda **query: alice_client.get("/puzzles/", query).context["puzzle"]  # noqa: E731
    assert chosen() == three
    assert chosen(themes=["take_to_win"]) == take
    assert chosen(themes=["trump_ace", "last_card"]) == three
    assert chosen(themes=["trump_ace", "take_to_win"]) is None
    assert chosen(difficulty="harder") == take
    assert chosen(difficulty="easier") == six
    assert chosen(rating_min=1600, rating_max=1900) == take
    assert chosen(rating_max=1300) == six
    empty = alice_client.get("/puzzles/", {"themes": ["sacrifice"]})
    assert empty.status_code == 200
    assert b"no-puzzle" in empty.content


@pytest.mark.parametrize("query", [{"rating_min": "1900", "rating_max": "1200"},
                                   {"themes": "nonsense"}, {"rating_min": "²"},
                                   {"difficulty": "impossible"}, {"rating_max": "9" * 400}])
def test_bad_filters_are_a_400_with_the_errors_inline(client, query):
    stored(THREE_MOVES)
    response = client.get("/puzzles/", query)
    assert response.status_code == 400
    assert b"filter-errors" in response.content
    assert response.context["puzzle"] is None


def test_a_puzzle_from_a_game_links_to_the_replay_at_its_ply(client, alice, bob):
    from tests.games.puzzles.test_generate import _finished_from

    match = _finished_from("SH 7C9D/6D8CKD - 0 -", ["7C", "8C-KD", "+3", "6D"], alice, bob)
    puzzle = stored(THREE_MOVES, match=match)
    puzzle.ply = 2
    puzzle.save(update_fields=["ply"])
    page = client.get(f"/puzzles/{puzzle.pk}/")
    assert page.context["game_url"] == f"/game/{match.pk}/replay?ply=2"
    assert client.get(page.context["game_url"]).status_code == 200


def test_the_empty_states_say_why_there_is_no_puzzle(alice_client):
    def said(page) -> str:
        html = page.content.decode()
        return html.split('data-testid="no-puzzle"')[1].split("</p>")[0]

    for url in ("/puzzles/", "/puzzles/?themes=sacrifice", "/puzzles/daily/",
                "/puzzles/streak/"):
        assert "There are no puzzles yet" in said(alice_client.get(url)), url
    puzzle = stored(THREE_MOVES)  # trump_ace, last_card, short_line
    assert "No puzzle matches these filters" in said(
        alice_client.get("/puzzles/", {"themes": ["sacrifice"]}))
    assert "No puzzle matches these filters" in said(
        alice_client.get("/puzzles/", {"rating_min": 2000}))
    assert play(alice_client, puzzle, "AH").json()["outcome"] == "failed"
    assert "You have played every puzzle that matches these filters" in said(
        alice_client.get("/puzzles/", {"themes": ["trump_ace"]}))
    assert "You have played every puzzle there is" in said(alice_client.get("/puzzles/"))
    assert "You have played every puzzle there is" in said(
        alice_client.get("/puzzles/streak/"))
    # A guest's played puzzles are their session's.
    client = Client()
    assert client.get("/puzzles/").context["puzzle"] == puzzle
    client.post(f"/puzzles/{puzzle.pk}/solution")
    assert "You have played every puzzle there is" in said(client.get("/puzzles/"))


def test_the_daily_puzzle_page(client):
    assert b"no-puzzle" in client.get("/puzzles/daily/").content
    puzzle = stored(THREE_MOVES)
    page = client.get("/puzzles/daily/")
    assert page.context["puzzle"] == puzzle
    assert page.context["mode"] == "daily"


def test_the_streak_rises_on_each_solve_and_ends_at_the_first_miss(alice_client, alice,
                                                                   settings):
    settings.PUZZLES_STREAK_START = 1000
    settings.PUZZLES_STREAK_STEP = 400
    easy = stored(SIX_ANSWERS, rating=1000)
    middle = stored(THREE_MOVES, rating=1400)
    hard = stored(TAKE_TO_WIN, rating=1800)
    assert alice_client.get("/puzzles/streak/").context["puzzle"] == easy
    assert alice_client.get("/puzzles/streak/").context["puzzle"] == easy  # kept
    end = play(alice_client, easy, "7S-JS").json()["end"]
    assert end["streak"] == {"current": 1, "best": 1}
    page = alice_client.get("/puzzles/streak/")
    assert page.context["puzzle"] == middle
    end = play(alice_client, middle, "AC", "AH").json()["end"]
    assert end["streak"] == {"current": 2, "best": 2}
    assert alice_client.get("/puzzles/streak/").context["puzzle"] == hard
    end = play(alice_client, hard, "JD").json()["end"]  # a miss
    assert end["streak"] == {"current": 0, "best": 2}
    assert play(alice_client, hard, "JD").json()["end"]["streak"] is None  # once only
    row = PuzzleStreak.objects.get(user=alice)
    assert (row.current, row.best, row.puzzle_id) == (0, 2, None)


def test_a_guests_streak_lives_in_the_session(client, settings):
    settings.PUZZLES_STREAK_START = 1000
    first = stored(SIX_ANSWERS, rating=1000)
    second = stored(THREE_MOVES, rating=1100)
    assert client.get("/puzzles/streak/").context["puzzle"] == first
    assert play(client, first, "KS-7S").json()["end"]["streak"] == {"current": 1, "best": 1}
    page = client.get("/puzzles/streak/")
    assert page.context["puzzle"] == second
    assert page.context["streak"].current == 1
    assert play(client, second, "AH").json()["end"]["streak"] == {"current": 0, "best": 1}
    assert not PuzzleStreak.objects.exists()


def test_the_nav_links_to_the_puzzles(client):
    assert b'href="/puzzles/"' in client.get("/").content
