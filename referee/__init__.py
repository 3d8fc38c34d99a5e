"""Domino Referee: a scorekeeper and referee for Mexican Train, Chicken Foot and Kozel."""
