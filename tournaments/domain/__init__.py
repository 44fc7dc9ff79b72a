"""The tournament domain: pure rules, no Django.

* :mod:`tournaments.domain.config`: the event's configuration (:class:`TournamentConfig`).
* :mod:`tournaments.domain.tournament`: the aggregate (commands, ``decide``, ``evolve``,
  clock helpers, ``hand_permission``).
* :mod:`tournaments.domain.seating`: seat and button draws, balancing, breaking tables.
* :mod:`tournaments.domain.payouts`: prize pool, payout table, prizes and ties.
* :mod:`tournaments.domain.events`: the events of the tournament streams (stable ``TYPE``
  names ``tournaments.*``), which the aggregate emits and other apps read.

Import from the submodules (this package imports nothing; ``events`` imports ``config``,
the rules import both, and nothing imports back: no cycle, checked by import-linter).
"""
