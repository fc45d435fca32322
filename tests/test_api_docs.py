"""The API's documentation pages work without a network: Swagger UI and ReDoc come from files the
application serves itself (api/static/docs), never from a CDN."""
import re

import pytest
from fastapi.testclient import TestClient

from api.app import create_app

LINKED = re.compile(r"""(?:src|href)=["']([^"']+)["']|url: ?'([^']+)'""")


@pytest.fixture(scope="module")
def client(fixture_db):
    return TestClient(create_app(fixture_db, site_dir=None))


@pytest.mark.parametrize("page, script", [("/api/v1/docs", "swagger-ui-bundle.js"),
                                          ("/api/v1/redoc", "redoc.standalone.js")])
def test_docs_pages_load_every_asset_from_the_api_itself(client, page, script):
    r = client.get(page)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert not re.search(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", r.text), "the page names an outside host"
    linked = [a or b for a, b in LINKED.findall(r.text)]
    assert any(link.endswith(script) for link in linked)
    for link in linked:
        assert link.startswith("/api/v1/"), link
        asset = client.get(link)
        assert asset.status_code == 200 and asset.content, link


def test_vendored_assets_carry_their_licences(client):
    for name in ("swagger-ui-dist.LICENSE", "redoc.LICENSE"):
        assert client.get(f"/api/v1/docs/assets/{name}").status_code == 200
