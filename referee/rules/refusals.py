"""Refusals and translatable sentences: what every part of the rules core says to a player.

``RuleViolation`` (HTTP 422) and ``BadRequest`` (HTTP 400) carry an English sentence and
the template it was made from, so that the pages can translate it; ``Phrase`` is such a
sentence on its own (a reminder, a scoresheet line). Nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Mapping


class Phrase(str):
    """An English sentence or phrase that can be translated later.

    It *is* the formatted English text (a ``str``: JSON, logs and tests see plain English),
    and it also keeps ``template`` (the English msgid with ``{named}`` placeholders, as
    the message catalogs list it) and ``params`` (the values). A value may itself be a
    ``Phrase`` ("the Mexican train"), translated in its turn. The web layer translates with
    ``referee.web.i18n.translate_text``; the rules stay free of Flask and of catalogs.
    """

    template: str
    params: dict[str, object]
    # A count-bearing phrase: its singular and plural English, and the value that chooses
    # (``plural_phrase``); the web layer picks the form with the language's plural rule.
    forms: tuple[str, str] | None
    number: int

    def __new__(
        cls,
        template: str,
        params: Mapping[str, object] | None = None,
        forms: tuple[str, str] | None = None,
        number: int = 0,
    ) -> Phrase:
        values = dict(params or {})
        text = super().__new__(cls, template.format(**values) if values else template)
        text.template = template
        text.params = values
        text.forms = forms
        text.number = number
        return text

    def __reduce__(
        self,
    ) -> tuple[
        type[Phrase], tuple[str, dict[str, object], tuple[str, str] | None, int]
    ]:  # keeps the template
        return (Phrase, (self.template, self.params, self.forms, self.number))


def phrase(template: str, **params: object) -> Phrase:
    """A translatable phrase: ``phrase("{name}'s train", name=key)`` (extracted by pybabel)."""
    return Phrase(template, params)


def plural_phrase(singular: str, plural: str, number: int, /, **params: object) -> Phrase:
    """A translatable phrase with a count: ``plural_phrase("{count} tile", "{count} tiles",
    n, count=n)`` (extracted by pybabel as a plural message; English: singular for 1)."""
    return Phrase(singular if number == 1 else plural, params, (singular, plural), number)


class RuleViolation(ValueError):
    """A well-formed request that the rules or the state forbid (HTTP 422).

    ``rule_id`` is the id from RULES.md (``mt.double.open``) or ``None`` for refusals that
    no rule names (an unknown player, nothing left to undo); ``message`` is one sentence a
    player understands (English: the API's ``error``).

    ``template`` and ``params`` let the sentence be translated: ``template`` is the English
    msgid with ``{named}`` placeholders and ``message == template.format(**params)``. Build
    one with ``refuse(rule_id, template, **params)``, which also marks the template for
    pybabel's extraction.

    ``also`` lists the other rules behind the same refusal, each a refusal of its own (its
    rule id and sentence): "the 3-4 does not match the 5" (`cf.match`) is refused because
    the 5-5 needs its toes first (`cf.double`), which is why no other end is open.
    """

    def __init__(
        self,
        rule_id: str | None,
        message: str | None = None,
        *,
        action: object = None,
        template: str | None = None,
        params: Mapping[str, object] | None = None,
        also: tuple[RuleViolation, ...] = (),
    ) -> None:
        if message is None:
            if template is None:
                raise TypeError("RuleViolation needs a message or a template")
            message = Phrase(template, params)
        self.also = also
        self.rule_id = rule_id
        self.message = str(message)
        self.template = template
        self.params = dict(params or {})
        self.action = action
        super().__init__(f"[{rule_id}] {self.message}" if rule_id else self.message)


def refuse(
    rule_id: str | None, template: str, *, also: tuple[RuleViolation, ...] = (), **params: object
) -> RuleViolation:
    """``raise refuse("turn", "It is {on_turn}'s turn, not {player}'s.", on_turn=…, player=…)``.

    The English ``message`` is ``template.format(**params)``; the web layer translates the
    template (``referee.web.i18n.translate_violation``). Values may be ``Phrase`` objects.
    ``also``: the other rules behind the refusal (see ``RuleViolation``).
    """
    return RuleViolation(rule_id, template.format(**params), template=template, params=params, also=also)


class BadRequest(ValueError):
    """Input that is malformed or of the wrong type (HTTP 400): nothing to rule on.

    Like ``RuleViolation``, it may carry ``template`` and ``params`` (the English msgid and
    its values, ``message == template.format(**params)``) so that the pages can show it in
    the reader's language; the JSON API keeps the English ``message``. Build one with
    ``bad_request(template, field=…, **params)``, which also marks the template for pybabel
    (or pass a ``Phrase`` as the message).
    """

    def __init__(
        self,
        message: str | None = None,
        *,
        field: str | None = None,
        template: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        if message is None:
            if template is None:
                raise TypeError("BadRequest needs a message or a template")
            message = Phrase(template, params)
        elif template is None and isinstance(message, Phrase):  # a phrase carries its template
            template, params = message.template, message.params
        self.message = str(message)
        self.field = field
        self.template = template
        self.params = dict(params or {})
        super().__init__(self.message)


def bad_request(template: str, *, field: str | None = None, **params: object) -> BadRequest:
    """``raise bad_request("Unknown option {name!r} for this game.", field="options", name=…)``.

    The English ``message`` is ``template.format(**params)`` (so literal braces are written
    ``{{ }}``, or better passed as a value); the pages translate the template
    (``referee.web.i18n.translate_violation``), the API answers in English.
    """
    return BadRequest(template.format(**params), field=field, template=template, params=params)


def tile_error_text(error: Exception) -> str:
    """A ``TileError``'s sentence as a translatable ``Phrase`` (its English unchanged)."""
    candidate = phrase(
        '{text!r} is not a tile: write it as two numbers like "5-12".', text=getattr(error, "text", None)
    )
    return candidate if str(candidate) == str(error) else str(error)
