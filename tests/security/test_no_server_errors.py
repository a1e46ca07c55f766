"""No request gives a server error: generated requests to every URL pattern of the URLconf
(the admin's included), with generated values for every path parameter and for every field
of every form of the project as query parameters and posted data, as a guest, a player and
a staff member. Both lists are walked (`tests.support.site_map`), so a new page or form is
covered without editing this test; and no view reads a query parameter outside a form, so
the forms' fields are every parameter there is.

`FUZZ_REQUESTS_PER_PAGE` sets the number of requests per URL pattern (default 40, an
eighth of it for each of the admin's), `FUZZ_REQUESTS_PER_FORM` per form and page that uses
it (default 150); the counts are printed at the
end of the run (`tests.security.tally`). Known cases that failed once are kept below as
explicit regressions."""

from __future__ import annotations

import os
import re
from datetime import date
from pathlib import Path
from urllib.parse import quote

import pytest
from django import forms
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from games.matchmaking import services as matchmaking
from games.matchmaking import tables
from games.play import services
from games.play.services import Player
from games.replays.services import record_export
from tests.games.puzzles.made import THREE_MOVES, stored
from tests.security import tally
from tests.support.matches import moves_played
from tests.support.site_map import form_fields, route_forms, routes

REQUESTS_PER_PAGE = int(os.environ.get("FUZZ_REQUESTS_PER_PAGE", "40"))
REQUESTS_PER_FORM = int(os.environ.get("FUZZ_REQUESTS_PER_FORM", "150"))
ROOT = Path(settings.BASE_DIR)

HOSTILE = [
    "", " ", "\x00", "a\x00b", "²", "٣", "①", "9" * 5000, "9" * 19, "-1", "-0", "0", "007",
    "1e999", "NaN", "inf", "1.5", "0x1f", "+1", " 1", "1 ", "9999-12-31", "0001-01-01",
    "10000-01-01", "2026-02-30", "1900-01-01", "9999-12-30", "☃" * 300, "x" * 20_000,
    "<script>alert(1)</script>", "../../etc/passwd", "%00", "%", "{{ 7 }}", "'; --",
    "\u202e", "\r\n", "true", "on", "[]", "{}", "3+2", "600+5", "untimed", "rated",
]
RECORD_HEADERS = ["Variant", "Trumps", "Dealer", "Seed", "Position", "Result", "Termination",
                  "TimeControl", "MoveTimes", "SiteTermination", "Event", "Date", "Seat0"]


def numberish() -> st.SearchStrategy[str]:
    """Text that looks like a number to a careless parser: other scripts' digits,
    superscripts, absurd lengths, signs and spaces."""
    # `str.isdigit` says yes to superscripts and circled digits, which `int` refuses.
    digits = st.one_of(st.sampled_from("²³¹⁰⁴⁹①⑨₂"), st.characters(categories=["Nd", "No"]))
    return st.one_of(
        st.text(digits, min_size=1, max_size=2),
        st.integers(min_value=1, max_value=6000).map(lambda n: "9" * n),
        st.tuples(st.sampled_from(["", "-", "+", " ", "0"]), st.integers(0, 10**6)).map(
            lambda pair: f"{pair[0]}{pair[1]}"),
    )


def hostile_text() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(HOSTILE),
        numberish(),
        st.text(st.characters(exclude_categories=["Cs"]), max_size=40),
        st.integers(min_value=-(10**40), max_value=10**40).map(str),
        st.dates(min_value=date.min, max_value=date.max).map(date.isoformat),
    )


def mutated_record(records: list[str]) -> st.SearchStrategy[str]:
    """A real record with a header's value, a field of its position or a move replaced
    (by number-like text most often: most of a record's fields are numbers)."""
    digit_like = st.sampled_from("²³¹⁰⁹①₂٣")
    value = st.one_of(digit_like, numberish(), hostile_text())
    # The headers that hold numbers, twice: they are where careless parsing fails.
    names = [*RECORD_HEADERS, "Dealer", "Seed", "TimeControl", "MoveTimes"]

    @st.composite
    def mutate(draw):
        lines = draw(st.sampled_from(records)).splitlines()
        headers = {line[1:].split(" ", 1)[0]: i for i, line in enumerate(lines)
                   if line.startswith("[")}
        # One or two changes at a time: a record broken everywhere fails at its first header.
        changes = draw(st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True))
        for header in changes if draw(st.integers(0, 3)) else []:
            new = '[' + header + ' "' + draw(value).replace('"', "") + '"]'
            if header in headers:
                lines[headers[header]] = new
            else:
                lines.insert(0, new)
                headers = {k: i + 1 for k, i in headers.items()}
        if "Position" in headers and draw(st.integers(0, 2)) == 0:
            i = headers["Position"]
            fields = lines[i][len('[Position "'):-2].split(" ")
            fields[draw(st.integers(0, len(fields) - 1))] = draw(value).replace('"', "")
            lines[i] = '[Position "' + " ".join(fields) + '"]'
        moves = [i for i, line in enumerate(lines) if line and not line.startswith("[")]
        if moves and draw(st.integers(0, 4)) == 0:
            i = draw(st.sampled_from(moves))
            tokens = lines[i].split(" ")
            tokens[draw(st.integers(0, len(tokens) - 1))] = draw(value).replace(" ", "")
            lines[i] = " ".join(tokens)
        return "\n".join(lines) + "\n"

    return mutate()


def field_values(field, records: list[str]) -> st.SearchStrategy[object]:
    """Values for one form field: the kind it expects (its choices, numbers, dates, a
    record for a text area), and anything else."""
    kinds: list[st.SearchStrategy[object]] = [hostile_text()]
    choices = [str(value) for value, _label in getattr(field, "choices", []) or []
               if not isinstance(_label, list | tuple)]
    if choices:
        kinds.append(st.sampled_from(choices))
    if isinstance(field, forms.IntegerField | forms.TypedChoiceField):
        kinds.append(st.integers(min_value=-(10**25), max_value=10**25).map(str))
    if isinstance(field, forms.DateField):
        kinds.append(st.sampled_from(["9999-12-31", "0001-01-01", "9999-12-30", "1900-01-01",
                                      "2025-01-01"]))
    if isinstance(field.widget, forms.Textarea):
        kinds = [mutated_record(records) for _ in range(3)] + kinds  # mostly a record
    if isinstance(field, forms.FileField):
        kinds = [st.builds(lambda data: SimpleUploadedFile("record.txt", data),
                           st.one_of(st.binary(max_size=200),
                                     mutated_record(records).map(str.encode)))]
    return st.one_of(kinds)


@pytest.fixture
def world(django_user_model):
    """Users, a finished duel with its record, a live duel, an open challenge and an open
    table, so that generated paths also name things that exist."""
    player = django_user_model.objects.create_user("fuzzer", password="pw-Xk39-long",
                                                   email="fuzzer@example.com")
    other = django_user_model.objects.create_user("other", password="pw-Xk39-long")
    staff = django_user_model.objects.create_superuser("staffer", password="pw-Xk39-long",
                                                       email="staff@example.com")
    finished = services.match_create(players=[Player(user=player), Player(user=other)],
                                     trumps="SH", seed=11, dealer=0)
    moves_played(finished, 4)
    services.match_resign(match_id=finished.pk, seat=0)
    finished.refresh_from_db()
    live = services.match_create(players=[Player(user=player), Player(user=other)],
                                 trumps="CD", seed=12, dealer=1)
    challenge = matchmaking.challenge_create(challenger=other, challenged=None,
                                             time_control="3+2", rated=False)
    host = django_user_model.objects.create_user("host", password="pw-Xk39-long")
    table = tables.table_create(user=host, players=4, time_control="untimed", rated=False,
                                public=False)
    records = [record_export(match=finished), record_export(match=live)]
    puzzle = stored(THREE_MOVES, match=finished)
    return {
        "users": {"guest": None, "player": player, "staff": staff},
        "values": {"match_id": [str(finished.pk), str(live.pk), "0"],
                   "username": ["fuzzer", "other", "FUZZER"],
                   "token": [challenge.token, table.token], "uidb64": ["MQ", "x"],
                   "object_id": [str(player.pk), "x"],
                   "puzzle_id": [str(puzzle.pk), "0"]},
        "records": records,
    }


SITE_ROUTES = [route for route in routes() if route.parts is not None
               and not route.name.startswith("admin:")]
ADMIN_ROUTES = [route for route in routes() if route.parts is not None
                and route.name.startswith("admin:")]


@pytest.fixture
def clients(world):
    made = {}
    for kind, user in world["users"].items():
        made[kind] = Client()
        if user is not None:
            made[kind].force_login(user)
    return made


def generated_requests(route, world, fields_of_route, all_fields=False):
    """Requests to `route`: generated path values (of the converter's kind, of things that
    exist, or anything), fields of the route's forms and of any form, by any method."""
    every_field = form_fields()
    names = sorted(every_field)
    own = sorted(fields_of_route)
    uploads = {name for name, fields in fields_of_route.items()
               if any(isinstance(field, forms.FileField) for field in fields)}

    # Strategies are built once, when first asked for: building them at every draw costs
    # more than the requests.
    values: dict[str, st.SearchStrategy[object]] = {}

    def values_of(name):
        if name not in values:
            fields = fields_of_route.get(name) or every_field[name]
            values[name] = st.one_of([field_values(field, world["records"]) for field in fields])
        return values[name]

    path_parts = {}
    for group, regex in route.groups.items():
        known = world["values"].get(group, [])
        options = [st.from_regex(regex, fullmatch=True), hostile_text()]
        if known:
            options.append(st.sampled_from(known))
        path_parts[group] = st.one_of(options)
    own_names = st.sampled_from(own) if own else None
    any_names = st.lists(st.sampled_from(names), max_size=2)

    @st.composite
    def request(draw):
        path_values = {group: draw(part) for group, part in path_parts.items()}
        path = route.fill({k: quote(v, safe="") for k, v in path_values.items()})
        if all_fields:  # the form's fields, each left out now and then
            chosen = [name for name in own
                      if draw(st.integers(0, 5)) > (3 if name in uploads else 0)]
        else:
            chosen = draw(st.lists(own_names, unique=True)) if own_names is not None else []
        chosen += draw(any_names)
        params = {name: draw(values_of(name)) for name in chosen}
        if draw(st.integers(0, 4)) == 0:
            params[draw(st.sampled_from(["next", "x", "page", "ply", "q", "o"]))] = draw(
                hostile_text())
        method = draw(st.sampled_from(["GET", "POST", "POST"] if all_fields
                                      else ["GET", "POST", "GET", "POST", "HEAD", "PUT"]))
        who = draw(st.sampled_from(["guest", "player", "staff"]))
        return path, method, params, who

    return request()


def send(client, path, method, params):
    if method == "GET":
        return client.get(path, {k: v for k, v in params.items()
                                 if not isinstance(v, SimpleUploadedFile)})
    if method == "HEAD":
        return client.head(path)
    if method == "POST":
        return client.post(path, params)
    return client.generic(method, path)


def no_server_error(route, world, clients, examples, fields=None, all_fields=False):
    if fields is None:
        fields = {}
        for form in route_forms(route):
            for name, field in form.base_fields.items():
                fields.setdefault(name, []).append(field)

    @hypothesis_settings(max_examples=examples, suppress_health_check=list(HealthCheck),
                         database=None)
    @given(generated_requests(route, world, fields, all_fields))
    def check(generated):
        path, method, params, who = generated
        client = clients[who]
        tally.count("HTTP requests")
        try:
            response = send(client, path, method, params)
        except Exception:
            tally.failed("HTTP requests")
            raise
        if response.status_code >= 500:
            tally.failed("HTTP requests")
        assert response.status_code < 500, (route.name, method, path, params, who)
        user = world["users"][who]
        if user is not None and "_auth_user_id" not in client.session:
            client.force_login(user)  # a generated log-out or deletion ended the session

    check()


FORM_PAGES = [(route, form) for route in SITE_ROUTES for form in route_forms(route)]


@pytest.mark.slow
@pytest.mark.parametrize(("route", "form"), FORM_PAGES,
                         ids=[f"{r.name}-{f.__name__}" for r, f in FORM_PAGES])
def test_no_generated_form_gives_a_server_error(route, form, world, clients):
    """Every field of each form a page uses, filled with values of the field's kind and
    anything else, sent to that page."""
    no_server_error(route, world, clients, REQUESTS_PER_FORM,
                    fields={name: [field] for name, field in form.base_fields.items()},
                    all_fields=True)


@pytest.mark.slow
@pytest.mark.parametrize("route", SITE_ROUTES, ids=[r.name for r in SITE_ROUTES])
def test_no_generated_request_to_a_page_gives_a_server_error(route, world, clients):
    no_server_error(route, world, clients, REQUESTS_PER_PAGE)


@pytest.mark.slow
@pytest.mark.parametrize("route", ADMIN_ROUTES, ids=[r.name for r in ADMIN_ROUTES])
def test_no_generated_request_to_the_admin_gives_a_server_error(route, world, clients):
    no_server_error(route, world, clients, max(5, REQUESTS_PER_PAGE // 8))


def test_no_view_reads_a_query_parameter_outside_a_form():
    """Every parameter a view reads goes through a form, so the generated test above, which
    sends every form field, sends every parameter there is."""
    raw = re.compile(r"request\.(GET|POST|FILES)\s*(\.get\b|\.getlist\b|\[)")
    found = []
    for package in ("accounts", "games", "yourtrumps_site"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if raw.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_the_walks_cover_the_site():
    names = {route.name for route in routes()}
    assert {"home", "replays:replay", "replays:import", "matchmaking:challenge",
            "matchmaking:table", "matchmaking:table_join", "accounts:login",
            "puzzles:next", "puzzles:show", "puzzles:move", "puzzles:solution",
            "puzzles:daily", "puzzles:streak", "admin:index"} <= names
    assert {"ply", "date_from", "text", "file", "page", "pool", "seat", "themes",
            "rating_min", "moves"} <= set(form_fields())


# --- the cases that failed once ---------------------------------------------------------------

BAD_NUMBERS = ["²", "٣", "9" * 5000, "1" * 40, "-1", "1.5", " 1", "0x1"]


@pytest.mark.django_db
@pytest.mark.parametrize("header", ["TimeControl", "MoveTimes", "Dealer", "Seed"])
@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_a_record_header_that_is_not_a_plain_number_is_refused_or_ignored(world, client,
                                                                          header, value):
    record = world["records"][0]
    lines = [line for line in record.splitlines() if not line.startswith(f"[{header} ")]
    text = f'[{header} "{value}"]\n' + "\n".join(lines) + "\n"
    response = client.post("/replay/import", {"text": text})
    assert response.status_code in (200, 400)


@pytest.mark.django_db
@pytest.mark.parametrize("field", range(5))
@pytest.mark.parametrize("value", ["²", "٣", "9" * 5000, "?²", "AS?٣"])
def test_a_malformed_position_field_is_refused(client, field, value):
    fields = ["SH", "7C8C/6C9C", "-", "0", "-"]
    fields[field] = value
    text = '[Position "' + " ".join(fields) + '"]\n\n'
    response = client.post("/replay/import", {"text": text})
    assert response.status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("ply", ["²", "9" * 5000, "-3", "1e3", "7"])
def test_the_replay_page_takes_any_ply(world, client, ply):
    match_id = world["values"]["match_id"][0]
    assert client.get(f"/game/{match_id}/replay", {"ply": ply}).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/games/", "/@/fuzzer/games"])
@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01", "9999-12-30"])
def test_the_history_filters_take_the_calendars_edges(world, client, url, day):
    for name in ("date_from", "date_to"):
        assert client.get(url, {name: day}).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("match_id", ["9" * 19, "9" * 400, "99999999999999999"])
def test_an_absurd_match_id_is_not_found(client, match_id):
    for url in (f"/game/{match_id}/", f"/game/{match_id}/replay", f"/game/{match_id}/record"):
        assert client.get(url).status_code == 404
