"""The HTML report in a real browser: headless Chromium shows the verdict and the matrix.

Chromium is driven through ChromeDriver's WebDriver protocol (plain HTTP on
localhost, no client library). Debian's ``chromium`` and ``chromium-driver``
provide both; CI installs them (.ci/run). Without them the test skips, except
under ``CI=true``, where it fails: CI must not lose the check silently.
``NNHAL_REPORT_SCREENSHOT=path.png`` saves a screenshot of the rendered report.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from plugins.report.document import write

SCREENSHOT_ENV = "NNHAL_REPORT_SCREENSHOT"
HTTP_TIMEOUT = 60
START_TIMEOUT = 30
CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,1600",
]


def _browser() -> tuple[str, str]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium and driver:
        return chromium, driver
    message = (
        "headless Chromium is not installed (need chromium and chromedriver on PATH: "
        "apt-get install chromium chromium-driver)"
    )
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true: {message}; .ci/run installs them", pytrace=False)
    pytest.skip(message)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    """The few WebDriver commands the test needs, over HTTP to a local ChromeDriver."""

    def __init__(self, chromium: str, chromedriver: str, profile: Path) -> None:
        self.port = _free_port()
        self.process = subprocess.Popen(
            [chromedriver, f"--port={self.port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self._wait_ready()
        options = {"binary": chromium, "args": [*CHROMIUM_FLAGS, f"--user-data-dir={profile}"]}
        capabilities = {"browserName": "chrome", "goog:chromeOptions": options}
        answer = self._call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        self.session = answer["sessionId"]

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            try:
                if self._call("GET", "/status").get("ready"):
                    return
            except (urllib.error.URLError, ConnectionError):
                pass
            time.sleep(0.2)
        raise TimeoutError(f"chromedriver did not start within {START_TIMEOUT} s")

    def _call(self, method: str, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=data,
            method=method,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
            return json.loads(response.read())["value"]

    def command(self, method: str, path: str, body: dict | None = None):
        return self._call(method, f"/session/{self.session}{path}", body)

    def find(self, css: str) -> str:
        found = self.command("POST", "/element", {"using": "css selector", "value": css})
        (reference,) = found.values()  # W3C WebDriver: {"element-6066-...": id}
        return reference

    def close(self) -> None:
        try:
            self.command("DELETE", "")
        finally:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def _rgb(css_colour: str) -> tuple[int, int, int]:
    inside = css_colour[css_colour.index("(") + 1 : css_colour.index(")")]
    r, g, b = (int(float(v)) for v in inside.split(",")[:3])
    return r, g, b


@pytest.fixture
def report(tmp_path: Path) -> Path:
    """A report with MUL float32 failing and everything else passing."""
    from report_documents import _document, _generated

    tests = _document()["tests"] + [
        _generated("mul", "MUL", "TENSOR_FLOAT32", "failed"),
        _generated("mul_q", "MUL", "TENSOR_QUANT8_ASYMM"),
    ]
    write(_document(tests), tmp_path / "out")
    return tmp_path / "out" / "report.html"


def test_verdict_and_matrix_are_visible(report: Path, tmp_path: Path) -> None:
    chromium, chromedriver = _browser()
    browser = WebDriver(chromium, chromedriver, tmp_path / "profile")
    try:
        browser.command("POST", "/url", {"url": report.as_uri()})
        verdict = browser.find("#verdict")
        assert browser.command("GET", f"/element/{verdict}/displayed") is True
        assert browser.command("GET", f"/element/{verdict}/text").startswith("NOT CERTIFIED")
        rect = browser.command("GET", f"/element/{verdict}/rect")
        assert rect["width"] > 300 and rect["height"] > 20 and rect["y"] < 200, rect
        matrix = browser.find("#matrix")
        assert browser.command("GET", f"/element/{matrix}/displayed") is True
        broken = browser.find('tr[data-operation="MUL"] td[data-type="TENSOR_FLOAT32"]')
        fine = browser.find('tr[data-operation="ADD"] td[data-type="TENSOR_FLOAT32"]')
        for cell in (broken, fine):
            assert browser.command("GET", f"/element/{cell}/displayed") is True
        r, g, b = _rgb(browser.command("GET", f"/element/{broken}/css/background-color"))
        assert r > 150 and g < 90 and b < 90, (r, g, b)
        r, g, b = _rgb(browser.command("GET", f"/element/{fine}/css/background-color"))
        assert g > 100 and r < 90 and b < 90, (r, g, b)
        screenshot = os.environ.get(SCREENSHOT_ENV)
        if screenshot:
            png = base64.b64decode(browser.command("GET", "/screenshot"))
            Path(screenshot).write_bytes(png)
    finally:
        browser.close()


def test_missing_chromium_skips_except_under_ci(monkeypatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception) as failed:
        _browser()
    assert str(failed.value) == (
        "CI=true: headless Chromium is not installed (need chromium and chromedriver on PATH: "
        "apt-get install chromium chromium-driver); .ci/run installs them"
    )
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception) as skipped:
        _browser()
    assert str(skipped.value) == (
        "headless Chromium is not installed (need chromium and chromedriver on PATH: "
        "apt-get install chromium chromium-driver)"
    )
