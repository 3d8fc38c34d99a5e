"""Languages: English, Hindi, Punjabi (Gurmukhi) and Hungarian, with Flask-Babel.

* ``init_i18n(app)`` configures Flask-Babel on the app and registers ``/lang/<code>``.
* The language of a request is the ``lang`` cookie (set by ``/lang/<code>``, kept on the
  device), else the browser's ``Accept-Language``, else English.
* Templates get ``_``/``gettext``/``ngettext`` (Flask-Babel), ``current_lang()``,
  ``LANGUAGES`` (code and the language's own name, for the switcher), ``lang_url(code)``
  and the ``tr`` filter (translates a refusal, reminder or scoresheet line of the core).
* The core (``referee.rules``, ``referee.match``) knows nothing of this: its refusals and
  malformed-input errors carry an English template and parameters (``refuse``,
  ``bad_request``, ``phrase`` in ``referee.rules.base``), translated here by
  ``translate_violation`` / ``translate_text``.

Catalogs live in ``referee/translations/<lang>/LC_MESSAGES/messages.po``. The ``.mo`` files
are compiled when the app starts if they are missing or older than their ``.po``
(``ensure_compiled``): next to the ``.po`` where that folder is writable, else in the
instance folder. So ``flask --app app run`` and ``pip install .`` serve every language
without an install step; ``scripts/compile_translations.py --check`` is the strict check.
"""

from __future__ import annotations

import ast
import logging
import tempfile
from collections.abc import Collection, Iterator, Mapping
from datetime import UTC, datetime, timedelta
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import urlsplit

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_python
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations
from flask import Blueprint, Flask, abort, has_request_context, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import Babel, format_date, format_timedelta, get_locale, gettext, lazy_gettext
from flask_wtf.i18n import translations as wtforms_translations

from referee.rules import GAMES, title
from referee.rules.base import Phrase

if TYPE_CHECKING:  # pybabel's names for an extractor's arguments (for type checks only)
    from babel.messages.extract import _Keyword, _PyOptions

TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"
DOMAIN = "messages"
DEFAULT = "en"
# Code and the language's name in itself, in the order the switcher shows them.
LANGUAGES: tuple[tuple[str, str], ...] = (
    ("en", "English"),
    ("hi", "हिन्दी"),
    ("pa", "ਪੰਜਾਬੀ"),
    ("hu", "Magyar"),
)
CODES = tuple(code for code, _name in LANGUAGES)
COOKIE = "lang"
COOKIE_AGE = 2 * 365 * 24 * 3600  # "remembered on that device"

log = logging.getLogger(__name__)
babel = Babel()
bp = Blueprint("i18n", __name__)


# ----------------------------------------------------------------------------- set-up


def select_locale() -> str:
    """The cookie's language, else the browser's best match, else English."""
    if not has_request_context():
        return DEFAULT
    chosen = request.cookies.get(COOKIE)
    if chosen in CODES:
        return chosen
    return request.accept_languages.best_match(CODES, default=DEFAULT) or DEFAULT


def init_i18n(app: Flask) -> None:
    """Flask-Babel with the four languages, the ``/lang/<code>`` switch, Jinja helpers."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    compiled = ensure_compiled(TRANSLATIONS, Path(app.instance_path) / "translations")
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(compiled))
    app.config.setdefault("LANGUAGES", CODES)
    babel.init_app(app, locale_selector=select_locale)
    app.register_blueprint(bp)
    app.jinja_env.globals.update(
        LANGUAGES=LANGUAGES, current_lang=current_lang, lang_url=lang_url, language_name=language_name
    )
    app.jinja_env.filters["tr"] = translate_text
    app.jinja_env.filters["time_ago"] = time_ago
    app.jinja_env.filters["iso_time"] = iso_time
    app.jinja_env.filters["when"] = when_text


RELATIVE_DAYS = 6  # a moment within this many days is said as "3 hours ago", older as its date


def moment_of(value: float | str | datetime) -> datetime:
    """An epoch time, an ISO time stamp (the store's, in UTC) or a datetime, as an aware datetime."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, int | float):
        return datetime.fromtimestamp(value, UTC)
    parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def iso_time(value: float | str | datetime) -> str:
    try:
        return moment_of(value).isoformat(timespec="seconds")
    except (ValueError, OverflowError, OSError):  # a stamp from an odd backup: shown as it is
        return str(value)


def time_ago(value: float | str | datetime) -> str:
    """How long ago ``value`` was, in the page's language ("2 minutes ago", "2 perccel ezelőtt")."""
    try:
        delta = moment_of(value) - datetime.now(UTC)
    except (ValueError, OverflowError, OSError):
        return str(value)[:10]
    if delta.total_seconds() > -45:  # a moment ago (or a clock a little ahead)
        return str(gettext("just now"))
    return str(format_timedelta(delta, add_direction=True))


def when_text(value: float | str | datetime) -> str:
    """A moment said as people say it: "3 hours ago" within a few days, else its date, in the
    page's language."""
    try:
        moment = moment_of(value)
    except (ValueError, OverflowError, OSError):
        return str(value)[:10]
    if datetime.now(UTC) - moment < timedelta(days=RELATIVE_DAYS):
        return time_ago(moment)
    return str(format_date(moment, "medium"))


def current_lang() -> str:
    """The language of the current request (``en`` outside a request)."""
    if not has_request_context():
        return DEFAULT
    try:
        locale = get_locale()
    except Exception:  # no app/babel configured
        return DEFAULT
    code = str(locale.language) if locale is not None else DEFAULT
    return code if code in CODES else DEFAULT


def language_name(code: str) -> str:
    return dict(LANGUAGES).get(code, code)


def lang_url(code: str) -> str:
    """The switcher's link: ``/lang/hi?next=<this page>``."""
    target = request.full_path if has_request_context() else "/"
    if target.endswith("?"):
        target = target[:-1]
    return url_for("i18n.set_language", code=code, next=target)


@bp.get("/lang/<code>")
def set_language(code: str) -> ResponseReturnValue:
    """Remember the language on this device (a cookie) and go back to the page."""
    if code not in CODES:
        abort(404)
    response = redirect(_safe_next(request.args.get("next") or request.referrer), code=303)
    response.set_cookie(
        COOKIE, code, max_age=COOKIE_AGE, samesite="Lax", httponly=True, secure=request.is_secure
    )
    return response


def _safe_next(target: str | None) -> str:
    """Only a path on this site (no open redirect): the referrer's path, or ``/``."""
    if not target:
        return "/"
    parts = urlsplit(target)
    if parts.netloc and parts.netloc != request.host:
        return "/"
    path = parts.path or "/"
    if not path.startswith("/") or path.startswith("//") or path.startswith("/lang/"):
        return "/"
    return path + (f"?{parts.query}" if parts.query else "")


# ----------------------------------------------------------------------------- catalogs


@cache
def translations(lang: str) -> NullTranslations:
    """The compiled catalog of ``lang`` (English and a missing catalog: no translation)."""
    if lang == DEFAULT or lang not in CODES:
        return NullTranslations()
    mo = TRANSLATIONS / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if _is_current(mo):
        with mo.open("rb") as handle:
            return Translations(handle, domain=DOMAIN)
    po = mo.with_suffix(".po")
    if po.exists():  # not compiled yet (a checkout without the install step): read the .po
        return _from_po(po)
    return NullTranslations()


def _from_po(po: Path) -> NullTranslations:
    with po.open("rb") as handle:
        catalog = read_po(handle)
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def gettext_in(lang: str, msgid: str) -> str:
    return translations(lang).gettext(msgid)


def _format(template: str, params: Mapping[str, Any], lang: str) -> str:
    values = {key: translate_text(value, lang) for key, value in params.items()}
    translated = gettext_in(lang, template)
    try:
        return translated.format(**values)
    except (KeyError, IndexError, ValueError):  # a broken translation: fall back to English
        log.warning("Bad %s translation of %r", lang, template)
        return template.format(**values)


def translate_text(text: Any, lang: str | None = None) -> Any:
    """A ``Phrase`` of the core (reminder, scoresheet line, redeal verdict) in ``lang``
    (default: the request's language); anything else is returned as it is."""
    lang = lang or current_lang()
    if isinstance(text, Phrase):
        if lang == DEFAULT:
            return str(text)
        if getattr(text, "forms", None):  # a count: the language's plural form (ngettext)
            singular, plural = text.forms  # type: ignore[misc]
            values = {key: translate_text(value, lang) for key, value in text.params.items()}
            try:
                return str(translations(lang).ngettext(singular, plural, text.number).format(**values))
            except (KeyError, IndexError, ValueError):
                return str(text)
        return _format(text.template, text.params, lang)
    return text


def translate_violation(error: BaseException, lang: str | None = None) -> str:
    """The sentence of a refusal in ``lang`` (default: the request's language).

    ``RuleViolation``/``BadRequest`` built with a template (``refuse``, ``bad_request`` in
    ``referee.rules.base``: the engines, ``referee.match``, the option checks, the forms)
    are looked up in the catalog; without a template, or without a translation, the English
    message is kept. The JSON API never calls this: its ``error`` stays English.
    """
    lang = lang or current_lang()
    message = getattr(error, "message", None) or str(error)
    template = getattr(error, "template", None)
    if not template or lang == DEFAULT:
        return translate_text(message, lang) if isinstance(message, Phrase) else str(message)
    try:
        return _format(template, getattr(error, "params", None) or {}, lang)
    except Exception:  # never let a translation hide a refusal
        log.exception("Could not translate %r", template)
        return str(message)


# ----------------------------------------------------------------------------- build step


def _write_whole(mo: Path, catalog: Catalog) -> None:
    """Writes the ``.mo`` beside it, then renames it into place: an app (or a test worker)
    reading the catalog meanwhile reads the old file or the new one, never half of one."""
    # ".messages-<random>.mo": copies that leave out the "*.mo" leave it out too
    with tempfile.NamedTemporaryFile(
        "wb", dir=mo.parent, prefix=f".{mo.stem}-", suffix=mo.suffix, delete=False
    ) as handle:
        temporary = Path(handle.name)
        try:
            write_mo(handle, catalog, use_fuzzy=False)
        except BaseException:
            handle.close()
            temporary.unlink()
            raise
    temporary.chmod(0o644)  # as open() would have made it, not the temporary file's 0600
    temporary.replace(mo)


def _is_current(mo: Path) -> bool:
    """A compiled catalog that exists and is not older than its ``.po``."""
    po = mo.with_suffix(".po")
    return mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime)


def ensure_compiled(source: Path, fallback: Path) -> Path:
    """The folder whose ``.mo`` files Flask-Babel should read, compiling them if needed.

    Up-to-date catalogs next to the ``.po`` files are used as they are. Stale or missing
    ones are compiled in place; where ``source`` cannot be written (an installed package
    in a read-only site-packages), the ``.po`` tree is compiled into ``fallback`` instead.
    Lenient: an untranslated message falls back to English rather than stopping the app.
    """
    catalogs = sorted(source.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    if all(_is_current(po.with_suffix(".mo")) for po in catalogs):
        return source
    try:
        compile_catalogs(source, strict=False)
        return source
    except OSError:
        log.info("Catalogs in %s are not writable: compiling them into %s", source, fallback)
    for po in catalogs:
        target = fallback / po.relative_to(source)
        if not _is_current_copy(target.with_suffix(".mo"), po):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.with_suffix(".po").write_bytes(po.read_bytes())
    compile_catalogs(fallback, strict=False)
    return fallback


def _is_current_copy(mo: Path, po: Path) -> bool:
    return mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime


def compile_catalogs(directory: Path = TRANSLATIONS, *, strict: bool = True) -> list[Path]:
    """Compile every ``<lang>/LC_MESSAGES/messages.po`` under ``directory`` to ``.mo``.

    With ``strict``, a fuzzy or untranslated message is an error (the catalog check).
    Returns the ``.mo`` files written.
    """
    written = []
    problems = []
    for po in sorted(directory.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=po.parents[1].name)
        for message in catalog:
            if not message.id:
                continue
            strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
            if message.fuzzy or not all(strings):
                problems.append(
                    f"{po.parents[1].name}: {message.id!r}"
                    + (" is fuzzy" if message.fuzzy else " is not translated")
                )
        errors = list(catalog.check())
        for message, errs in errors:
            for err in errs:
                problems.append(f"{po.parents[1].name}: {message.id!r}: {err}")
        mo = po.with_suffix(".mo")
        _write_whole(mo, catalog)
        written.append(mo)
    translations.cache_clear()
    if strict and problems:
        raise ValueError("Catalog problems:\n" + "\n".join(problems))
    return written


# ----------------------------------------------------------------------------- forms


def N_(text: str) -> str:
    """Marks a message for the catalogs without translating it here."""
    return text


# WTForms' own messages that our forms can show (a number out of range, a tampered choice).
# WTForms ships Hungarian but no Hindi or Punjabi, so they live in our catalogs too.
WTFORMS_MESSAGES = (
    N_("Not a valid integer value."),
    N_("Not a valid choice."),
    N_("Invalid Choice: could not coerce."),
    N_("Number must be between %(min)s and %(max)s."),
    N_("Number must be at least %(min)s."),
    N_("Number must be at most %(max)s."),
    N_("This field is required."),
    N_("Invalid value, must be one of: %(values)s."),
)


class FormMessages:
    """The translations a form's fields and validators use: our catalog first, then the
    one WTForms ships (through Flask-WTF), looked up in the request's language when a
    message is made, not when the form was built."""

    def gettext(self, string: str) -> str:
        lang = current_lang()
        if lang != DEFAULT:
            ours = translations(lang).gettext(string)
            if ours != string:
                return ours
        return str(wtforms_translations.gettext(string))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        lang = current_lang()
        if lang != DEFAULT:
            ours = translations(lang).ngettext(singular, plural, n)
            if ours not in (singular, plural):
                return ours
        return str(wtforms_translations.ngettext(singular, plural, n))


FORM_MESSAGES = FormMessages()


def translate_form(form: Any, lang: str | None = None) -> Any:
    """Translate a WTForms form's labels and choice labels in place (for this request).

    The forms declare plain English labels (``SelectField("Game", choices=…)``); pybabel
    collects them with ``extract_forms`` below, so no ``lazy_gettext`` is needed in the
    form classes. Call it on the form before rendering; returns the form.
    """
    lang = lang or current_lang()
    if lang == DEFAULT:
        return form
    for field in _all_fields(form):
        label = getattr(field, "label", None)
        if label is not None and isinstance(label.text, str):
            label.text = gettext_in(lang, label.text)
        choices = getattr(field, "choices", None)
        if isinstance(choices, (list, tuple)):
            field.choices = [
                (choice[0], _translate_label(choice[1], lang), *choice[2:])
                if isinstance(choice, (list, tuple)) and len(choice) >= 2 and isinstance(choice[1], str)
                else choice
                for choice in choices
            ]
    return form


def _translate_label(label: str, lang: str) -> str:
    """A choice's label: a ``Phrase`` with its values ("double-12"), or a plain msgid."""
    return str(translate_text(label, lang)) if isinstance(label, Phrase) else gettext_in(lang, label)


def _all_fields(form: Any) -> Iterator[Any]:
    for field in form:
        yield field
        for entry in getattr(field, "entries", None) or ():  # FieldList / FormField entries
            if hasattr(entry, "_fields"):
                yield from _all_fields(entry)
            else:
                yield entry


def extract_forms(
    fileobj: IO[bytes], keywords: Mapping[str, _Keyword], comment_tags: Collection[str], options: _PyOptions
) -> Iterator[tuple[object, ...]]:
    """pybabel extractor for the form modules: the usual Python extraction, plus the
    English labels of WTForms fields (first argument of ``…Field(…)``), their ``choices``
    labels and module-level choice lists (``[("value", "Label"), …]``)."""
    source = fileobj.read()
    yield from extract_python(BytesIO(source), keywords, comment_tags, options)
    tree = ast.parse(source.decode(options.get("encoding", "utf-8")))

    def text(node: ast.expr) -> str | None:
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and any(ch.isalpha() for ch in node.value)
        ):
            return node.value
        return None

    def choice_labels(node: ast.expr) -> Iterator[tuple[int, str]]:
        if isinstance(node, (ast.List, ast.Tuple)):
            for item in node.elts:
                if isinstance(item, ast.Tuple) and len(item.elts) >= 2:
                    label = text(item.elts[1])
                    if label is not None:
                        yield item.elts[1].lineno, label

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None) or ""
            if name.endswith("Field") and node.args:
                label = text(node.args[0])
                if label is not None:
                    yield node.args[0].lineno, None, label, []
            for keyword in node.keywords:
                if keyword.arg == "choices":
                    for lineno, label in choice_labels(keyword.value):
                        yield lineno, None, label, []
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.List):
            for lineno, label in choice_labels(node.value):
                yield lineno, None, label, []


def game_title(key: str) -> Any:
    """A game's title from its declaration (``referee.rules``), in the page's language."""
    return lazy_gettext(str(title(key)))


def game_titles() -> dict[str, Any]:
    """Every game's title, in the page's language, in the registry's order."""
    return {key: game_title(key) for key in GAMES}
