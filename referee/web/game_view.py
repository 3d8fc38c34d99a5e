"""What the game page, the scoresheet and its PDF show: a game's progress, standings, rounds
and result, in the request's language.

The game's own parts (a Kozel account, teams, the pot) come from its presenter
(``referee.presenters``): nothing here asks which game it is.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, session
from flask_babel import gettext as babel_gettext
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext as babel_ngettext
from markupsafe import Markup

from referee.match import Match
from referee.presenters import presenter_for
from referee.presenters.base import join_names
from referee.rules.base import RoundRecord
from referee.store import StoredGame
from referee.web import i18n
from referee.web.chart import COLOURS as PLAYER_COLOURS
from referee.web.chart import chart_svg
from referee.web.i18n import game_title
from referee.web.views import folded_suits, suit_rows

MODE_LABEL = {"referee": _l("referee"), "scores": _l("score pad")}


def gettext(string: str, /, **variables: Any) -> str:
    """The request's ``gettext`` (flask_babel's, typed): a presenter's ``Gettext``."""
    return str(babel_gettext(string, **variables))


def ngettext(singular: str, plural: str, num: int, /, **variables: Any) -> str:
    return str(babel_ngettext(singular, plural, num, **variables))


_ = gettext


def i18n_or_none() -> Any:
    """The i18n helpers (referee.web.i18n) when the app has Babel, else None: the pages then
    stay in English."""
    return i18n if "babel" in current_app.extensions else None


def current_language() -> str:
    i18n = i18n_or_none()
    return i18n.current_lang() if i18n else "en"


def tr(text: Any) -> Any:
    """A core phrase (scoresheet line, verdict) in the request's language."""
    i18n = i18n_or_none()
    return i18n.translate_text(text) if i18n else text


def translated(form: Any) -> Any:
    """The form with its labels in the request's language (i18n.translate_form)."""
    i18n = i18n_or_none()
    return i18n.translate_form(form) if i18n else form


def progress(match: Match) -> str:
    count = match.round_count()
    if match.finished:
        booked = len(match.rounds)
        return ngettext("Finished after %(num)s round", "Finished after %(num)s rounds", booked)
    if count:
        return _("Round %(number)s of %(count)s", number=match.number, count=count)
    return _("Round %(number)s", number=match.number)


def summary(match: Match) -> str:
    result = match.result
    if result is not None:
        if result.winners:
            return _("Won by %(players)s", players=_and(result.winners))
        if result.left:
            return _("%(player)s left the game", player=result.left)
        if result.goats:
            return _("Goat: %(players)s", players=_and(result.goats))
        return _("Finished")
    return presenter_for(match.config.game).running_summary(match, _)


def _and(names: list[str] | tuple[str, ...]) -> str:
    """``Ana and Ben`` in the page's language."""
    return join_names(names, _)


ORDINALS = {
    1: _l("1st"),
    2: _l("2nd"),
    3: _l("3rd"),
    4: _l("4th"),
    5: _l("5th"),
    6: _l("6th"),
    7: _l("7th"),
    8: _l("8th"),
}


def ordinal(place: int) -> str:
    return str(ORDINALS.get(place) or _("%(place)sth", place=place))


def placings(match: Match) -> list[dict[str, Any]]:
    """Every player's place, 1st to last, from the game's result (tied players share one)."""
    result = match.result
    if result is None:
        return []
    rows = []
    for group in result.placings:
        place = result.place_of(group[0]) or 0
        for name in group:
            rows.append(
                {
                    "place": place,
                    "label": ordinal(place),
                    "name": name,
                    "total": match.standing.totals[name],
                    "shared": len(group) > 1,
                }
            )
    return rows


def standings(match: Match) -> list[dict[str, Any]]:
    leaders = match.leaders()
    accounts = presenter_for(match.config.game).accounts(match)
    result = match.result
    rows = []
    for index, name in enumerate(match.players):
        rows.append(
            {
                "name": name,
                "total": match.standing.totals[name],
                "leader": name in leaders,
                "winner": name in match.standing.winners,
                "colour": PLAYER_COLOURS[index % len(PLAYER_COLOURS)],
                "open": accounts[name].open if accounts else None,
                "remembered": accounts[name].remembered if accounts else 0,
                "goat": bool(result and name in result.goats),
                "rating": result.rating.get(name) if result else None,
                "left": bool(result and result.left == name),
                "place": result.place_of(name) if result else None,
            }
        )
    return rows


def end_words(record: RoundRecord) -> str:
    end = record.end
    if end.reason == "domino":
        return _("%(player)s went out", player=end.player)
    if end.reason == "blocked":
        return _("blocked")
    if end.reason == "fish":
        return _("fish (%(player)s)", player=end.player) if end.player else _("fish")
    out = record.went_out()
    return _("%(player)s went out", player=out) if out else _("counted at the table")


def round_rows(match: Match) -> list[dict[str, Any]]:
    """Each booked round with its points and the running totals (computed by the core's
    ``standing`` over the rounds up to it, so every game's scoring applies)."""
    config = match.config
    details = presenter_for(config.game).round_details(match)
    never_open = {name: False for name in config.players}
    rows = []
    # A round booked again with other hands (a correction): its row says "corrected".
    entries = [{r.number: r for r in snapshot} for snapshot in match.entry_undo] + [
        {r.number: r for r in match.rounds}
    ]
    corrected = {
        number
        for before, after in zip(entries, entries[1:])
        for number, record in after.items()
        if number in before and before[number] != record
    }
    for index, record in enumerate(match.rounds):
        standing = match.rules.standing(
            config.players, config.highest, config.options, match.rounds[: index + 1]
        )
        detail = details.get(record.number)
        rows.append(
            {
                "number": record.number,
                "double": str(record.double) if record.double else None,
                "points": dict(record.points),
                "totals": dict(standing.totals),
                "end": end_words(record),
                "record": record,
                "ledger": detail.ledger if detail else None,
                "before_open": dict(detail.before_open if detail else never_open),
                "corrected": record.number in corrected,
            }
        )
    return rows


def shared_chart(match: Match) -> Markup:
    """The running-totals chart (referee.web.chart)."""
    return chart_svg(match)


def last_entry(match: Match) -> dict[str, Any] | None:
    """What undo would take back in a score pad: the round the last entry booked or changed."""
    if match.referee or not match.entry_undo:
        return None
    before = {r.number: r for r in match.entry_undo[-1]}
    for record in match.rounds:
        if before.get(record.number) != record:
            return {
                "number": record.number,
                "correction": record.number in before,
                "points": dict(record.points),
            }
    return None


def can_enter_current(match: Match) -> bool:
    if match.finished or match.current_record() is not None:
        return False
    return match.round_status() == "scoring"


def game_context(stored: StoredGame) -> dict[str, Any]:
    """What the game page, the scoresheet and its PDF show (``sheet_of``)."""
    match = stored.match
    config = match.config
    presenter = presenter_for(config.game)
    rows = round_rows(match)
    result = match.result
    rows_by_name = {row["name"]: row for row in standings(match)}
    columns = [
        {"label": label, "key": key, "standing": rows_by_name[key]}
        for label, key in presenter.columns(match, _)
    ]
    double = str(match.setup.double) if (match.setup and match.setup.double and not match.finished) else None
    return {
        "columns": columns,
        "game": stored,
        "match": match,
        "config": config,
        "presenter": presenter,
        "title": game_title(config.game),
        "mode_label": MODE_LABEL[config.mode],
        "progress": progress(match),
        "double": double,
        "double_words": presenter.double_words(double, _) if double else None,
        "standings": standings(match),
        "placings": [] if match.rules.rated else placings(match),
        "rows": rows,
        "chart_svg": shared_chart(match) if rows else None,
        "winners": list(match.standing.winners),
        "tie_break": tr(result.tie_break) if result else None,
        "goats": list(result.goats) if result else None,
        "rating": dict(result.rating) if result else None,
        "left": result.left if result else None,
        "pot": presenter.pot(match),
        "teams": [
            {**team, "colour": PLAYER_COLOURS[index % len(PLAYER_COLOURS)]}
            for index, team in enumerate(presenter.teams(match, _))
        ],
        "can_leave": match.can_leave(),
        "rules_in_force": [tr(line) for line in match.rules.rules_in_force(config.options)],
        "can_enter": can_enter_current(match),
        "round_status": match.round_status(),
        "last_entry": last_entry(match),
        "double_heading": tr(match.rules.round_double_name) if match.rules.round_double_name else None,
        "locked": bool(stored.pin_hash) and stored.id not in (session.get("unlocked") or []),
    }


def hands_context(stored: StoredGame, number: int) -> dict[str, Any]:
    match = stored.match
    config = match.config
    record = next((r for r in match.rounds if r.number == number), None)
    live = number == match.number and record is None
    on_table, sizes = match.table_of(number)
    rules = match.rules
    note = rules.zero_note(config.options)
    zero_rule, zero_line = (note[0], str(tr(note[1]))) if note else (None, "")
    values = {str(tile): value for tile, value in rules.tile_values(config.highest, config.options).items()}
    double = rules.round_double(number, config.highest, config.options)
    return {
        "takes_markers": "markers" in rules.entry_fact_names(config.options, match.referee),
        "game": stored,
        "match": match,
        "config": config,
        "title": game_title(config.game),
        "number": number,
        "record": record,
        "live": live,
        "on_table": {str(t) for t in on_table},
        "sizes": sizes,
        "double": str(double) if double else None,
        "tile_values": values,
        "zero_line": zero_line,
        "zero_rule": zero_rule,
        "playing": live and match.round_status() == "playing",
        "suits": suit_rows(config.highest),
        "folded_suits": folded_suits(config.highest),
        "players": list(match.players),
        "colours": {name: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, name in enumerate(match.players)},
    }
