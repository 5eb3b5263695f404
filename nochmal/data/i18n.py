"""The app's languages: German and English, from gettext catalogs managed with Babel.

The source texts are English (the msgids); ``nochmal/data/locale/de/LC_MESSAGES/nochmal.po`` holds
the German. ``make i18n-extract`` collects the texts marked in the code into
``nochmal/data/locale/nochmal.pot``, ``make i18n-update`` merges them into the German catalog and
``make i18n-compile`` writes its ``.mo``. Without a compiled file that is newer than the
catalog, the catalog is compiled in memory when first used (a fresh clone needs no build step).

Marking texts (what ``pybabel extract`` finds, see :data:`KEYWORDS`):

* ``_("Cross")`` translates now; a text with values uses named placeholders,
  ``_("Turn {turn}/{turns}").format(turn=3, turns=27)`` (never an f-string inside ``_()``);
* ``ngettext("{n} move", "{n} moves", n).format(n=n)`` picks the plural form of the language;
* ``pgettext("dice", "red")`` where one English word needs two German ones;
* ``N_("...")`` marks a text kept in a table and translated where it is shown (``_(RULE_WORDS[r])``).

Which language is in force: :func:`using` for a block of code (tests, a report), else the
resolver the app registers (:func:`set_resolver`: the page's language of this browser session),
else English. The CLI never registers one: its output is for scripts and stays English.

Numbers and dates go through :func:`number`, :func:`percent` and :func:`date_time`, formatted
for the language in force (``1.234,5`` in German).
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext
import io
from collections.abc import Callable, Iterator
from datetime import datetime
from functools import lru_cache
from pathlib import Path

LANGUAGES = ("de", "en")
DEFAULT = "en"
NAMES = {"de": "Deutsch", "en": "English"}
DOMAIN = "nochmal"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: the keywords ``pybabel extract`` looks for (also used by the catalog test)
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}

_forced: contextvars.ContextVar[str | None] = contextvars.ContextVar("nochmal_language", default=None)
_resolver: Callable[[], str | None] | None = None


def normalize(tag: object) -> str | None:
    """``"de-AT"``, ``"de_DE"``, ``"DE"`` → ``"de"``; anything not one of :data:`LANGUAGES` → None."""
    if not isinstance(tag, str) or not tag or len(tag) > 35:
        return None
    base = tag.replace("_", "-").split("-")[0].strip().lower()
    return base if base in LANGUAGES else None


def set_resolver(fn: Callable[[], str | None] | None) -> None:
    """Register how the app finds the language of the run in progress (None: unregister)."""
    global _resolver
    _resolver = fn


def language() -> str:
    """The language in force: :func:`using`'s, else the app's resolver's, else English."""
    forced = _forced.get()
    if forced:
        return forced
    if _resolver is not None:
        try:
            found = normalize(_resolver())
        except Exception:  # noqa: BLE001 - outside a page run the resolver may have no session
            found = None
        if found:
            return found
    return DEFAULT


@contextlib.contextmanager
def using(lang: str) -> Iterator[str]:
    """Translate into ``lang`` inside the block (``"de"``, ``"en"``)."""
    code = normalize(lang)
    if code is None:
        raise ValueError(f"language: one of {', '.join(LANGUAGES)}, got {lang!r}")
    token = _forced.set(code)
    try:
        yield code
    finally:
        _forced.reset(token)


def catalog_path(lang: str, ext: str = "po") -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.{ext}"


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang`` (English: the texts as written)."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    po, mo = catalog_path(lang), catalog_path(lang, "mo")
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fh:
            return gettext.GNUTranslations(fh)
    if not po.is_file():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as fh:
        cat = read_po(fh, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def _(message: str) -> str:
    return translations(language()).gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalog; it is translated where it is shown (``_(...)``)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return translations(language()).pgettext(context, message)


# --------------------------------------------------------------------------- numbers and dates
def number(value: float | int, digits: int | None = None) -> str:
    """``value`` as the language writes it (``1,234.5`` / ``1.234,5``); ``digits`` after the
    point (None: as many as it has, up to 3)."""
    from babel.numbers import format_decimal

    fmt = None if digits is None else ("#,##0." + "0" * digits if digits > 0 else "#,##0")
    return format_decimal(value, format=fmt, locale=language())


def percent(share: float, digits: int = 0) -> str:
    """``share`` (0.25) as a percentage (``25%`` / ``25 %``)."""
    from babel import Locale
    from babel.numbers import format_percent

    pattern = Locale.parse(language()).percent_formats[None].pattern  # "#,##0%" / "#,##0 %"
    if digits > 0:
        last = pattern.rfind("0")
        pattern = pattern[:last + 1] + "." + "0" * digits + pattern[last + 1:]
    return format_percent(share, format=pattern, locale=language())


def date_time(value: datetime | str, tz: str | None = None) -> str:
    """A moment (a datetime or an ISO string) as the language writes a date and time, in the
    time zone ``tz`` (an IANA name such as "Europe/Berlin"; None or unknown: UTC, said so).
    Never raises: an empty stamp gives "", one that is no moment (a game stored before stamps
    were checked) is given back as it is (at most 40 characters; the caller escapes it)."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    from babel.dates import format_datetime

    if isinstance(value, str) and not value.strip():
        return ""
    try:
        zone = ZoneInfo(tz) if isinstance(tz, str) and 0 < len(tz) <= 64 else None
    except (ZoneInfoNotFoundError, ValueError):
        zone = None
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) else value
        text = format_datetime(when, format="medium", tzinfo=zone or ZoneInfo("UTC"), locale=language())
    except (ValueError, TypeError, OverflowError, AttributeError):
        return str(value)[:40]
    return text if zone else f"{text} UTC"
