"""Every game is described once, in its rules module: the form, the OpenAPI document and
the JSON validation all read that declaration, so they must agree with it."""

from __future__ import annotations

import pytest
from wtforms import BooleanField, IntegerField, SelectField

from referee.match import GameConfig
from referee.rules import GAMES, declaration, game_rules
from referee.rules.base import BadRequest
from referee.rules.options import CHOICE, FLAG, RANGE, SET_HIGHEST
from referee.web.forms import NewGameForm, field_name
from referee.web.openapi import openapi_document

CASES = [(key, option) for key, rules in GAMES.items() for option in rules.declaration.options]
IDS = [f"{key}:{option.name}" for key, option in CASES]
PLAYERS = {
    "mexican-train": ["Ana", "Ben", "Caro"],
    "chicken-foot": ["Ana", "Ben", "Caro"],
    "kozel": ["Ana", "Ben", "Caro", "Dan"],  # four: every option applies (kz.teams)
}


def create(key, options, set_=None):
    body = {"game": key, "players": PLAYERS[key], "options": options}
    if set_ is not None:
        body["set"] = set_
    return GameConfig.from_json(body)


@pytest.fixture
def document(app):
    with app.test_request_context():
        return openapi_document()


@pytest.fixture
def form(app):
    with app.test_request_context():
        yield NewGameForm(meta={"csrf": False})


def test_registry_names_each_game_by_its_declaration():
    for key, rules in GAMES.items():
        assert game_rules(key) is rules
        spec = declaration(key)
        assert (spec.key, spec.prefix, spec.title) == (rules.name, rules.prefix, rules.title)
        assert (spec.sets, spec.default_set) == (rules.sets, rules.default_set)
        assert spec.default_set in spec.sets and spec.players[0] <= spec.players[1]
        assert rules.rules_in_force(rules.Options()) is not None


@pytest.mark.parametrize("key, option", CASES, ids=IDS)
def test_form_field_agrees_with_the_declaration(form, key, option):
    field = form[field_name(key, option)]
    assert str(field.label.text) == str(option.label)
    if option.kind == FLAG:
        assert isinstance(field, BooleanField)
        assert field.default is bool(option.default)
    elif option.kind == CHOICE:
        assert isinstance(field, SelectField)
        assert [value for value, _label in field.choices] == [str(value) for value in option.values]
        assert field.default == str(option.default)
    else:
        assert isinstance(field, IntegerField)
        bounds = next(v for v in field.validators if hasattr(v, "min"))
        assert bounds.min == option.low
        highest = max(GAMES[key].sets)
        if option.upper(highest) is not None:
            assert bounds.max == option.upper(highest)
        assert field.default == (option.default if isinstance(option.default, int) else None)


@pytest.mark.parametrize("key, option", CASES, ids=IDS)
def test_openapi_agrees_with_the_declaration(document, key, option):
    bodies = document["components"]["schemas"]["NewGame"]
    body = next(schema for schema in bodies["oneOf"] if schema["properties"]["game"]["const"] == key)
    properties = body["properties"]["options"]["properties"]
    assert set(properties) == {o.name for o in GAMES[key].declaration.options}
    schema = properties[option.name]
    types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    assert "null" in types  # absent or null: the default
    if option.kind == FLAG:
        assert "boolean" in types
    elif option.kind == CHOICE:
        assert [v for v in schema["enum"] if v is not None] == list(option.values)
    else:
        assert "integer" in types
        assert schema.get("minimum") == option.low
        assert schema.get("maximum") == option.upper(max(GAMES[key].sets))
    assert option.rule in schema["description"]


@pytest.mark.parametrize("key, option", CASES, ids=IDS)
def test_validation_agrees_with_the_declaration(key, option):
    rules = GAMES[key]
    highest = rules.default_set
    config = create(key, {})
    echoed = config.to_json()["options"]
    assert set(echoed) == {o.name for o in rules.declaration.options}  # defaults echoed
    assert echoed[option.name] == option.resolved_default(highest)
    assert create(key, {option.name: None}).options == config.options
    if option.kind in (FLAG, CHOICE):
        for value in option.values:
            if option.name == "last_double":
                continue
            assert getattr(create(key, {option.name: value}).options, option.name) == value
        wrong = "maybe" if option.kind == FLAG or option.numeric else 7
        with pytest.raises(BadRequest) as refused:
            create(key, {option.name: wrong})
        assert option.name in refused.value.message
    if option.kind == CHOICE:
        outside = (max(option.values) + 1) if option.numeric else "no-such-value"
        with pytest.raises(BadRequest) as refused:
            create(key, {option.name: outside})
        assert (
            refused.value.message
            == f"Option {option.name!r} must be one of {', '.join(map(str, sorted(option.values) if option.numeric else option.values))}."
        )
    if option.kind == RANGE:
        low, high = option.low, option.upper(highest)
        below = {option.name: low - 1}
        if option.name == "first_double":  # must stay above last_double
            below["last_double"] = 0
        with pytest.raises(BadRequest) as refused:
            create(key, below)
        assert repr(option.name) in refused.value.message
        with pytest.raises(BadRequest):
            create(key, {option.name: "3"})
        if high is not None:
            with pytest.raises(BadRequest) as refused:
                create(key, {option.name: high + 1})
            assert refused.value.message == f"Option {option.name!r} must be between {low} and {high}."
            if option.default == SET_HIGHEST or option.name != "last_double":
                assert getattr(create(key, {option.name: high}).options, option.name) == high


@pytest.mark.parametrize("key", list(GAMES))
def test_unknown_option_is_refused(key):
    with pytest.raises(BadRequest) as refused:
        create(key, {"no_such_option": 1})
    assert refused.value.message == "Unknown option 'no_such_option' for this game."


@pytest.mark.parametrize("key", list(GAMES))
def test_titles_are_the_declarations(app, key):
    from referee.web.i18n import game_title

    with app.test_request_context("/?lang=en"):
        assert str(game_title(key)) == str(declaration(key).title)


def test_new_game_page_lists_every_declared_option(client):
    page = client.get("/games/new").get_data(as_text=True)
    for key, option in CASES:
        assert f'name="{field_name(key, option)}"' in page
        if option.house:
            assert option.rule in page
    assert "House rules" in page


def test_an_unknown_game_is_refused_naming_every_declared_one():
    with pytest.raises(BadRequest) as refused:
        GameConfig.from_json({"game": "dominoes", "players": ["Ana", "Ben"]})
    assert refused.value.message == f"'game' must be one of {', '.join(GAMES)}."
    assert refused.value.params == {"games": ", ".join(GAMES)} and refused.value.field == "game"


@pytest.mark.parametrize("key", list(GAMES))
def test_each_game_names_its_own_going_out_rule(key):
    from referee.rules.book import rules_for

    rules = game_rules(key)
    assert rules.out_rule.startswith(rules.prefix + ".")
    assert rules.out_rule in {rule.id for rule in rules_for(key)}


@pytest.mark.parametrize("key", list(GAMES))
def test_only_mexican_train_keeps_the_name_mexican_for_its_train(key):
    players = ["Ana", "Mexican", "Caro"] + (["Dan"] if key == "kozel" else [])
    if key == "mexican-train":
        with pytest.raises(BadRequest) as refused:
            GameConfig.from_json({"game": key, "players": players})
        assert refused.value.message == '"mexican" names the Mexican train: choose another player name.'
    else:
        assert GameConfig.from_json({"game": key, "players": players}).players[1] == "Mexican"
