import pytest


@pytest.mark.django_db
def test_home_lists_the_games(client) -> None:
    res = client.get("/")
    assert res.status_code == 200
    body = res.content.decode()
    assert "Patch-Patch" in body
    assert "Baseball" in body
