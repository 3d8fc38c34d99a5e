"""The Domino Referee application: ``flask --app app run`` or ``python -m referee.serve``."""

from referee.web import create_app

app = create_app()
