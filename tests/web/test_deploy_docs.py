"""The deployment docs and the nginx example agree with the server's limits."""

from __future__ import annotations

import re
from pathlib import Path

from skyjo.web.replays import MAX_UPLOAD

ROOT = Path(__file__).parents[2]
NGINX = ROOT / "examples" / "deploy" / "nginx-skyjo.conf"
DEPLOY = ROOT / "docs" / "deploy.md"


def test_the_proxy_takes_a_larger_body_than_the_server_and_says_the_server_s_limit() -> None:
    conf = NGINX.read_text(encoding="utf-8")
    found = re.search(r"client_max_body_size (\d+)m;.*?\(a (\d+) MB game record\)", conf)
    assert found is not None
    proxy, said = (int(group) for group in found.groups())
    assert said * 2**20 == MAX_UPLOAD
    assert proxy * 2**20 > MAX_UPLOAD
    docs = DEPLOY.read_text(encoding="utf-8")
    assert f"client_max_body_size {proxy}m" in docs
    assert f"a {said} MB game record" in docs


def test_the_docs_show_https_with_hsts() -> None:
    docs = DEPLOY.read_text(encoding="utf-8")
    assert 'add_header Strict-Transport-Security "max-age=' in docs
    assert "return 301 https://$host$request_uri;" in docs
