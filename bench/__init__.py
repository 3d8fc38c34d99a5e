"""Benchmarks of Domino Referee (docs/BENCHMARKS.md), kept out of the product package.

``python -m bench [--quick] [--profile]`` runs the engine, API, page and load figures
(bench/report.py, one module per thing measured: engines, stored, kills, served, browser,
load); ``python -m bench vision [FOLDER]`` measures the photo reading on a labelled folder.
"""
