"""Network loader tests against a local HTTP server on 127.0.0.1 (no internet needed)."""

from __future__ import annotations

import dataclasses
import hashlib
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from robust_boosting import datasets as ds
from robust_boosting.datasets import (
    DatasetChecksumError,
    DatasetDownloadError,
    _remote,
    fetch_dataset,
    load_task,
)

FIXTURES = Path(__file__).parent / "fixtures" / "remote"
DESC_PATH = "/api/v1/json/data/1590"
ARFF_PATH = "/data/v1/download/1595261"
SEEDS_PATH = "/00236/seeds_dataset.txt"


class _Server:
    """A tiny HTTP server with mutable routes that records the paths requested."""

    def __init__(self, routes: dict[str, bytes]):
        self.routes = routes
        self.requests: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server API)
                outer.requests.append(self.path)
                body = outer.routes.get(self.path)
                if body is None:
                    self.send_error(404, "Not Found")
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):  # keep pytest output clean
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.01,), daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)


@pytest.fixture
def routes() -> dict[str, bytes]:
    return {
        DESC_PATH: (FIXTURES / "openml" / "adult_description.json").read_bytes(),
        ARFF_PATH: (FIXTURES / "openml" / "adult_sample.arff").read_bytes(),
        SEEDS_PATH: (FIXTURES / "uci" / "00236" / "seeds_dataset.txt").read_bytes(),
    }


@pytest.fixture
def server(routes):
    srv = _Server(routes)
    yield srv
    srv.close()


@pytest.fixture
def dead_url() -> str:
    """URL of a port on which nothing listens any more (server down)."""
    srv = _Server({})
    url = srv.url
    srv.close()
    return url


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    for var in (_remote.ENV_DATA_HOME, _remote.ENV_OPENML_URL, _remote.ENV_UCI_URL):
        monkeypatch.delenv(var, raising=False)


def test_openml_download_parses_arff(server, tmp_path):
    data = fetch_dataset("adult", data_home=tmp_path, base_url=server.url)
    assert server.requests == [DESC_PATH, ARFF_PATH]
    assert data.data.shape == (10, 5)
    assert data.data.dtype == np.float64
    assert data.feature_names == ["age", "workclass", "education num", "native country", "sex"]
    # nominal categories in ARFF declaration order; string attribute: sorted values
    assert data.categorical_encoding["workclass"] == ["Private", "Self-emp-not-inc", "Federal-gov"]
    assert data.categorical_encoding["native country"] == [
        "Cuba",
        "El Salvador",
        "Jamaica",
        "United-States",
    ]
    assert set(data.categorical_features) == {"workclass", "native country", "sex"}
    np.testing.assert_array_equal(data.data[:3, 1], [2, 1, 0])  # Federal-gov, Self-emp, Private
    np.testing.assert_array_equal(data.data[[2, 9], 3], [1, 1])  # quoted 'El Salvador' / "..."
    assert np.isnan(data.data[4, 1]) and np.isnan(data.data[8, 2])  # '?' -> NaN
    np.testing.assert_array_equal(data.target, [-1, -1, 1, -1, -1, 1, -1, 1, 1, -1])
    assert list(data.target_names) == ["<=50K", ">50K"]
    assert "OpenML data set 1590" in data.DESCR
    cached = tmp_path / "openml" / "1590" / "data.arff"
    assert cached.read_bytes() == (FIXTURES / "openml" / "adult_sample.arff").read_bytes()
    assert Path(data.cache_path) == cached


def test_onehot_and_dropna(server, tmp_path):
    data = fetch_dataset(
        "adult", data_home=tmp_path, base_url=server.url, encoding="onehot", dropna=True
    )
    assert data.data.shape == (8, 1 + 3 + 1 + 4 + 2)
    assert "workclass=Federal-gov" in data.feature_names
    assert not np.isnan(data.data).any()
    X, y = fetch_dataset("adult", data_home=tmp_path, base_url=server.url, return_X_y=True)
    assert X.shape == (10, 5) and y.shape == (10,)


def test_cache_hit_needs_no_server(server, tmp_path, dead_url):
    first = fetch_dataset("adult", data_home=tmp_path, base_url=server.url)
    n_requests = len(server.requests)
    second = fetch_dataset("adult", data_home=tmp_path, base_url=server.url)
    assert len(server.requests) == n_requests
    offline = fetch_dataset("adult", data_home=tmp_path, base_url=dead_url)
    for other in (second, offline):
        np.testing.assert_array_equal(first.data, other.data)
        np.testing.assert_array_equal(first.target, other.target)


def test_corrupt_download_is_refused_and_not_cached(server, routes, tmp_path):
    routes[ARFF_PATH] = routes[ARFF_PATH].replace(b"39,Federal-gov", b"93,Federal-gov")
    with pytest.raises(DatasetChecksumError, match=r"MD5.*published") as err:
        fetch_dataset("adult", data_home=tmp_path, base_url=server.url)
    assert ARFF_PATH in str(err.value)
    assert not (tmp_path / "openml" / "1590" / "data.arff").exists()


def test_corrupt_cache_is_refused_then_refreshed(server, tmp_path):
    fetch_dataset("adult", data_home=tmp_path, base_url=server.url)
    cached = tmp_path / "openml" / "1590" / "data.arff"
    cached.write_bytes(cached.read_bytes().replace(b"Cuba", b"Peru"))
    with pytest.raises(DatasetChecksumError) as err:
        fetch_dataset("adult", data_home=tmp_path, base_url=server.url)
    assert str(cached) in str(err.value) and "refresh=True" in str(err.value)
    data = fetch_dataset("adult", data_home=tmp_path, base_url=server.url, refresh=True)
    assert data.categorical_encoding["native country"][0] == "Cuba"
    assert server.requests.count(ARFF_PATH) == 2


def test_missing_checksum_record_is_refused(server, tmp_path):
    fetch_dataset("adult", data_home=tmp_path, base_url=server.url)
    (tmp_path / "openml" / "1590" / "data.arff.sha256").unlink()
    with pytest.raises(DatasetChecksumError, match="no checksum record"):
        fetch_dataset("adult", data_home=tmp_path, base_url=server.url)


def test_server_down_gives_clear_offline_error(tmp_path, dead_url):
    with pytest.raises(DatasetDownloadError, match="offline") as err:
        fetch_dataset("adult", data_home=tmp_path, base_url=dead_url, timeout=5)
    assert dead_url in str(err.value) and str(tmp_path) in str(err.value)
    assert not (tmp_path / "openml" / "1590" / "data.arff").exists()


def test_http_error_is_reported(server, routes, tmp_path):
    del routes[ARFF_PATH]
    with pytest.raises(DatasetDownloadError, match="HTTP 404"):
        fetch_dataset("adult", data_home=tmp_path, base_url=server.url)


def test_download_if_missing_false_makes_no_request(server, tmp_path):
    with pytest.raises(DatasetDownloadError, match="not in the cache"):
        fetch_dataset("adult", data_home=tmp_path, base_url=server.url, download_if_missing=False)
    assert server.requests == []


def test_environment_variables_set_base_url_and_cache(server, tmp_path, monkeypatch):
    monkeypatch.setenv("ROBUST_BOOSTING_OPENML_URL", server.url)
    monkeypatch.setenv("ROBUST_BOOSTING_DATA_HOME", str(tmp_path / "cache"))
    assert ds.get_data_home() == tmp_path / "cache"
    data = fetch_dataset("adult")
    assert data.source_url == server.url + ARFF_PATH
    assert (tmp_path / "cache" / "openml" / "1590" / "data.arff").exists()


def test_wrong_openml_data_set_is_refused(server, routes, tmp_path):
    routes[DESC_PATH] = routes[DESC_PATH].replace(b'"adult"', b'"iris"')
    with pytest.raises(ValueError, match="is 'iris', expected 'adult'"):
        fetch_dataset("adult", data_home=tmp_path, base_url=server.url)


def test_uci_text_file(server, tmp_path):
    data = fetch_dataset("seeds", data_home=tmp_path, base_url=server.url)
    assert server.requests == [SEEDS_PATH]
    assert data.data.shape == (7, 7)
    assert data.data[0, 0] == pytest.approx(15.26)
    np.testing.assert_array_equal(data.target, [-1, -1, -1, 1, 1, 1, 1])  # Kama (1) = -1
    sidecar = tmp_path / "uci" / "00236" / "seeds_dataset.txt.sha256"
    expected = hashlib.sha256(
        (FIXTURES / "uci" / "00236" / "seeds_dataset.txt").read_bytes()
    ).hexdigest()
    assert sidecar.read_text().strip() == expected


def test_pinned_sha256_mismatch_is_refused(server, tmp_path, monkeypatch):
    pinned = dataclasses.replace(_remote.REMOTE_DATASETS["seeds"], sha256="0" * 64)
    monkeypatch.setitem(_remote.REMOTE_DATASETS, "seeds", pinned)
    with pytest.raises(DatasetChecksumError, match="SHA-256") as err:
        fetch_dataset("seeds", data_home=tmp_path, base_url=server.url)
    assert SEEDS_PATH in str(err.value)


def test_unavailable_and_unknown_sets(server, tmp_path):
    with pytest.raises(DatasetDownloadError, match="not available"):
        fetch_dataset("pb-T-OR-D", data_home=tmp_path, base_url=server.url)
    with pytest.raises(KeyError, match="unknown remote data set"):
        fetch_dataset("no-such-set", data_home=tmp_path, base_url=server.url)
    assert server.requests == []
    assert "pb-T-OR-D" not in ds.list_remote_datasets(available_only=True)
    assert {
        "adult",
        "bank",
        "blood",
        "connect-4",
        "miniboone",
        "ozone",
        "parkinsons",
        "vc-2classes",
    } <= set(ds.list_remote_datasets(available_only=True))


def test_remote_task_goes_through_loader(server, tmp_path):
    data = load_task("splboost-adult", data_home=tmp_path, base_url=server.url)
    assert data.task.paper == "splboost" and not data.task.bundled
    assert set(np.unique(data.target)) == {-1, 1}


def test_import_does_not_touch_the_network(monkeypatch):
    import importlib
    import socket

    def boom(*args, **kwargs):
        raise AssertionError("network used at import time")

    monkeypatch.setattr(socket.socket, "connect", boom)
    monkeypatch.setattr(socket, "create_connection", boom)
    monkeypatch.setattr(_remote.urllib.request, "urlopen", boom)
    saved = {k: v for k, v in sys.modules.items() if k.startswith("robust_boosting")}
    for k in saved:
        del sys.modules[k]
    try:
        fresh = importlib.import_module("robust_boosting.datasets")
        importlib.import_module("robust_boosting.noise")
        assert fresh is not ds  # really imported again
    finally:
        for k in [k for k in sys.modules if k.startswith("robust_boosting")]:
            del sys.modules[k]
        sys.modules.update(saved)
