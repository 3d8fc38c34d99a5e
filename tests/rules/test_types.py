"""The core's values are typed as they are: each game's options a frozen dataclass held to
its declaration, an action's type an ``ActionType`` that reads and writes as its string."""

from __future__ import annotations

import dataclasses
import json
import pickle
from dataclasses import dataclass

import pytest

from referee.match import GameConfig
from referee.rules import GAMES, Action, ActionType, GameDeclaration, GameOptions, Option
from referee.rules.base import GameRules
from referee.rules.mexican_train import MexicanTrainOptions
from referee.rules.options import FLAG
from referee.tiles import Tile


@pytest.mark.parametrize("key", GAMES)
def test_each_game_has_one_typed_field_per_declared_option(key):
    rules = GAMES[key]
    options = rules.Options()
    assert dataclasses.is_dataclass(options) and isinstance(options, GameOptions)
    names = [option.name for option in rules.declaration.options]
    assert sorted(field.name for field in dataclasses.fields(options)) == sorted(names)
    assert list(options.to_json()) == names  # the API echoes them in the declaration's order
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(options, names[0], None)


@pytest.mark.parametrize("key", GAMES)
def test_options_read_back_from_their_json_and_their_pickle(key):
    rules = GAMES[key]
    config = GameConfig.from_json({"game": key, "players": ["Ana", "Ben"]})
    options = config.options
    assert type(options) is rules.Options
    assert rules.Options.from_json(options.to_json()) == options
    body = pickle.dumps(options)
    assert b"_rebuild" in body  # pickled by name, so a later option reads back with its default
    assert pickle.loads(body) == options and hash(pickle.loads(body)) == hash(options)


def test_options_taken_before_an_option_existed_read_back_with_its_default():
    values = MexicanTrainOptions(draw="until").to_json()
    del values["doubles_in_hand"]
    assert MexicanTrainOptions.from_json(values) == MexicanTrainOptions(draw="until")


def test_an_unknown_option_name_is_a_type_error():
    with pytest.raises(TypeError):
        MexicanTrainOptions.from_json({"wings": 2})


def test_an_options_dataclass_that_disagrees_with_its_declaration_is_refused():
    spec = GameDeclaration(
        key="test-game",
        prefix="tg",
        title="Test game",
        sets=(6,),
        default_set=6,
        players=(2, 4),
        options=(Option("bonus", FLAG, False, "tg.bonus", "Bonus", "A bonus."),),
    )

    @dataclass(frozen=True, slots=True)
    class WrongDefault(GameOptions):
        declaration = spec
        bonus: bool = True

    with pytest.raises(TypeError):

        class TestGame(GameRules[WrongDefault]):
            declaration = spec
            Options = WrongDefault


def test_an_action_type_is_its_enum_and_reads_and_writes_as_its_string():
    action = Action("play", "Ana", Tile(5, 12), train="Ana")
    assert action.type is ActionType.PLAY and action.type == "play"
    assert repr(action) == "Action(type='play', player='Ana', tile=Tile(5, 12), train='Ana', on=None)"
    assert json.dumps(action.to_json()) == '{"type": "play", "player": "Ana", "tile": "5-12", "train": "Ana"}'
    parsed = Action.from_json({"type": "draw", "player": "Ben"})
    assert parsed == Action(ActionType.DRAW, "Ben") and parsed.type is ActionType.DRAW
    assert pickle.loads(pickle.dumps(parsed)).type is ActionType.DRAW
    with pytest.raises(ValueError):
        Action("fly", "Ana")
