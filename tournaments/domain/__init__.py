"""The tournament domain: pure rules, no Django.

* :mod:`tournaments.domain.config`: the event's configuration (:class:`TournamentConfig`).
* :mod:`tournaments.domain.tournament`: the aggregate (commands, ``decide``, ``evolve``,
  clock helpers, ``hand_permission``).
* :mod:`tournaments.domain.seating`: seat and button draws, balancing, breaking tables.
* :mod:`tournaments.domain.payouts`: prize pool, payout table, prizes and ties.

Import from the submodules (this package imports nothing, so that ``tournaments.events``,
which carries the configuration, and the aggregate, which emits the events, do not import
each other in a cycle).
"""
