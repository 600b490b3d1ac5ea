"""The web playground is held to the bad-input table of issue 11 (tests/bad_inputs.py).

Each bad game, parameter or position a form may send gets one line of JSON error with the
same NimlabError type and message fragment as the command line and the Python API; input
longer than the request's own field limits is refused by those limits first.
"""

from __future__ import annotations

from collections.abc import Iterator

import bad_inputs as probe
import pytest
from fastapi.testclient import TestClient

from nimlab.web.app import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


@pytest.mark.parametrize("case", probe.BAD_GAME_INPUTS, ids=lambda b: b.id)
def test_position_form(client: TestClient, case: probe.BadGameInput) -> None:
    body = {"game": case.game, "params": dict(case.params), "position": " ".join(case.position)}
    r = client.post("/api/position", json=body)
    assert 400 <= r.status_code < 500, r.text
    data = r.json()
    assert "\n" not in data["error"] and "Traceback" not in data["error"]
    too_long = len(body["position"]) > 1000 or any(len(v) > 200 for _, v in case.params)
    if too_long and data["type"] in ("InvalidRequest", "WebInputError"):
        return  # the request's own field limits refused it first
    assert data["type"] == case.error, data
    assert case.fragment in data["error"], data
