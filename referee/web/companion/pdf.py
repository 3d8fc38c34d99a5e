"""The scoresheet as a PDF."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from flask import Response, current_app, render_template, url_for
from flask_babel import gettext as _

from referee.web.companion.common import bp, load_game

PDF_TIMEOUT = 60
_printing = threading.Semaphore(1)  # one Chromium at a time: a small server has little memory
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")


def find_chromium() -> str | None:
    configured = current_app.config.get("CHROMIUM") or os.environ.get("REFEREE_CHROMIUM")
    candidates = (configured,) if configured else CHROMIUM_CANDIDATES
    for candidate in candidates:
        found = shutil.which(candidate) if candidate else None
        if found:
            return found
    return None


class PdfUnavailable(RuntimeError):
    pass


def print_to_pdf(html: str, chromium: str) -> bytes:
    """Chromium's own print (``--print-to-pdf``) of the page, in a subprocess: the same
    engine, print stylesheet and page setup as printing the page from the browser."""
    static = Path(current_app.static_folder).resolve()
    prefix = url_for("static", filename="")
    # the page's own stylesheets and images, read from disk instead of over HTTP
    html = re.sub(r'(href|src)="' + re.escape(prefix), lambda m: f'{m.group(1)}="{static.as_uri()}/', html)
    # the printed page is what the server rendered: its scripts (service worker, wake lock)
    # have nothing to add to paper, so they are left out
    html = re.sub(r"<script\b[^>]*>.*?</script\s*>", "", html, flags=re.S | re.I)
    with tempfile.TemporaryDirectory(prefix="referee-pdf-") as work:
        page = Path(work) / "scoresheet.html"
        target = Path(work) / "scoresheet.pdf"
        page.write_text(html, encoding="utf-8")
        command = [
            chromium,
            "--headless",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--no-pdf-header-footer",
            f"--user-data-dir={Path(work) / 'profile'}",
            f"--print-to-pdf={target}",
            page.as_uri(),
        ]
        if os.geteuid() == 0:  # Chromium refuses to run as root with its sandbox
            command.insert(1, "--no-sandbox")
        try:
            result = subprocess.run(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                timeout=PDF_TIMEOUT,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            raise PdfUnavailable(
                _("Chromium could not print the scoresheet (%(error)s).", error=str(error))
            ) from None
        if not target.exists() or target.stat().st_size == 0:
            current_app.logger.warning("chromium --print-to-pdf failed: %s", result.stderr[-2000:])
            raise PdfUnavailable(_("Chromium could not print the scoresheet."))
        return target.read_bytes()


def unavailable(message: str) -> Response:
    body = render_template("companion/unavailable.html", message=message)
    response = Response(body, status=503, mimetype="text/html")
    response.headers["Retry-After"] = "60"
    return response


@bp.get("/games/<game_id>/scoresheet.pdf")
def scoresheet_pdf(game_id: str):
    game = load_game(game_id)
    chromium = find_chromium()
    if chromium is None:
        return unavailable(
            _(
                "The PDF is printed by Chromium, which is not installed on this "
                "machine. Open the scoresheet and use the browser's Print instead "
                "(install Debian's chromium package to get the PDF download)."
            )
        )
    sheet_path = f"/games/{game_id}/scoresheet"  # the pages' printable scoresheet, rendered in-process
    # the page in this request's language: the inner client keeps its own cookie jar (a
    # forwarded Cookie header would be dropped), so the language goes as Accept-Language
    from referee.web.i18n import current_lang

    headers = {"Accept-Language": current_lang()}
    sheet = current_app.test_client().get(sheet_path, headers=headers)
    if sheet.status_code != 200:
        return unavailable(
            _("The scoresheet page could not be rendered (HTTP %(status)s).", status=sheet.status_code)
        )
    if not _printing.acquire(timeout=PDF_TIMEOUT):
        return unavailable(_("Another scoresheet is being printed: try again in a minute."))
    try:
        pdf = print_to_pdf(sheet.get_data(as_text=True), chromium)
    except PdfUnavailable as error:
        return unavailable(str(error))
    finally:
        _printing.release()
    response = Response(pdf, mimetype="application/pdf")
    stamp = game.created[:10]
    response.headers["Content-Disposition"] = (
        f'attachment; filename="scoresheet-{game.match.config.game}-{stamp}-{game.id}.pdf"'
    )
    response.headers["Cache-Control"] = "no-store"
    return response
