"""A room request's host seat out of range names the range, in every language."""

from __future__ import annotations

from i18n_js import render
from starlette.testclient import TestClient

from skyjo.web.app import STATIC

I18N = STATIC / "i18n.js"


def test_a_host_seat_out_of_range_names_the_seats_there_are(client: TestClient) -> None:
    seats = [{"name": "Ana"}, {"bot": "greedy"}]
    answers = []
    for seat in (5, -1, 2):
        response = client.post("/api/rooms", json={"seats": seats, "host_seat": seat})
        assert response.status_code == 400, response.text
        error = response.json()["error"]
        assert (error["kind"], error["params"]) == ("host_seat_range", {"seat": seat, "last": 1})
        answers.append(error)
    assert answers[0]["message"] == "host_seat 5 is not a seat of this room: its seats are 0 to 1"
    typed = client.post("/api/rooms", json={"seats": seats, "host_seat": "0"}).json()["error"]
    assert typed["kind"] == "host_seat_type"  # not a number at all: the other sentence
    for language in ("en", "es", "fr", "de"):
        written = render(I18N, "errorText", language, answers)
        assert all("5" in written[0] and "1" in w for w in written), written
        if language == "en":
            assert written == [a["message"] for a in answers]
