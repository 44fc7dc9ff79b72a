// What a running tournament offers one player beside a late entry, for every screen that
// sells it (director, cashier): a re-entry (TREG-9) to a player whose entries are all out
// while late entry is open, a rebuy (TREG-14) in its levels and an add-on (CLK-5) at its
// level to a player still in (or whom his table's last hand eliminated, until it deals
// again: ``rebuy_after_bust``), each only where the event has it (its price is not null).
// The server has the last word; this only keeps a screen from offering what it refuses
// (every button was offered to every player, and refused: found by QA).

/** [{op: "re-entries" | "rebuys" | "add-ons", price: CZK}] for ``playerId``.
 * ``tournament``: GET /api/v1/tournaments/<id>/ (its ``prices``, ``config``, ``status``);
 * ``clock``: its clock (``level``, ``late_registration_open``); ``entries``: its entries. */
export function buysOffered(tournament, clock, entries, playerId) {
  if (!tournament || tournament.status !== "running") return [];
  const p = tournament.prices || {};
  const cfg = tournament.config || {};
  const level = (clock && clock.level) || 0;
  const mine = entries.filter((e) => e.player_id === playerId && e.status !== "unregistered");
  const playing = mine.some((e) => e.status === "playing");
  const out = mine.length > 0 && !playing;
  const offered = {
    "re-entries": out && Boolean(clock && clock.late_registration_open),
    rebuys: (playing || (tournament.rebuy_after_bust || []).includes(playerId))
      && level <= ((cfg.rebuy || {}).until_level || 0),
    "add-ons": playing && level === ((cfg.add_on || {}).at_level || 0),
  };
  return [["re-entries", p.re_entry], ["rebuys", p.rebuy], ["add-ons", p.add_on]]
    .filter(([op, price]) => price !== null && price !== undefined && offered[op])
    .map(([op, price]) => ({ op, price }));
}
