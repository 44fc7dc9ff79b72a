// Floor console (/floor/, issue #13): every table live (/ws/floor/), a past hand replayed
// step by step from its log (who recorded each step, when) and ruled on (its result
// corrected, SD-24..26; a chop allowed, RAKE-9), open/close tables, limit overrides,
// transfers, waiting and interest lists (/ws/waitlists/) with call deadlines counting down,
// dealer tablets and staff accounts. Session login; public API only.
import { get, post, patch, describeError, ApiError } from "/static/casino/api.js";
import { Feed } from "/static/casino/feed.js";
import { amount, dateTime, esc, number, seconds, time } from "/static/casino/fmt.js";
import { showNotice, showError, clearError } from "/static/casino/shell.js";
import { intent } from "/static/casino/intent.js";
import { label, learn, resolve, suggest } from "/static/casino/names.js";
import { actionWord, handWord, streetWord } from "/static/tables/words.js";

const gettext = globalThis.gettext || ((s) => s);
const pgettext = globalThis.pgettext || ((context, s) => s);
const interpolate = globalThis.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_, k) => obj[k]));
const $ = (id) => document.getElementById(id);
const state = { tables: new Map(), lists: [], clockSkew: 0, replay: null, devices: [], staff: null, followed: null };
window.__floor = state;

// --- tabs -----------------------------------------------------------------------------------
// The tab in use is in the address (#lists ...): a reload went back to the tables (QA).
function openTab(tab) {
  document.querySelectorAll(".tab").forEach((t) => t.setAttribute("aria-selected", String(t === tab)));
  document.querySelectorAll(".tabpanel").forEach((p) => { p.hidden = p.id !== `tab-${tab.dataset.tab}`; });
  if (tab.dataset.tab === "devices") loadDevices();
  if (tab.dataset.tab === "replay") fillTableSelects();
  if (tab.dataset.tab === "lists") loadLists();
  history.replaceState(null, "", tab.dataset.tab === "tables" ? location.pathname + location.search : `#${tab.dataset.tab}`);
}
document.querySelectorAll(".tab").forEach((tab) => tab.addEventListener("click", () => openTab(tab)));

// A read (`{ read: true }`) leaves the page's refusal up: a list refreshed by another
// screen's event hid this screen's refusal 0.1 s after it came (QA). The next write, or a
// click on the notice, clears it.
async function run(fn, errorBox, { read = false } = {}) {
  try {
    const answer = await fn();
    if (errorBox) errorBox.hidden = true;
    if (!read) clearError();
    return answer ?? true;
  } catch (err) {
    if (errorBox) { errorBox.textContent = describeError(err); errorBox.hidden = false; }
    showError(err);
    return null;
  }
}

// One write per intent: a double click sent two (two tables opened, and a second seating
// answered "Seat 1 is taken." over one that had worked; found by QA). While an action's
// request is in flight its form, or its button, takes no second one.
// `acts`: for a click handler on a container, the buttons it acts on (a submit button of a
// form inside is left to its form: disabled in its click, it would submit nothing).
const inFlight = new WeakSet();
function once(handler, acts = "button[type=button]") {
  return async (e) => {
    if (e.type === "submit") e.preventDefault();
    const owner = e.type === "submit" ? e.target : e.target.closest(acts);
    if (!owner) return handler(e);
    if (inFlight.has(owner)) return undefined;
    inFlight.add(owner);
    const buttons = owner.tagName === "FORM" ? [...owner.querySelectorAll("button:not([type=button])")] : [owner];
    const before = buttons.map((b) => b.disabled);
    buttons.forEach((b) => { b.disabled = true; });
    try {
      return await handler(e);
    } finally {
      inFlight.delete(owner);
      buttons.forEach((b, i) => { b.disabled = before[i]; });
    }
  };
}

// What a "player (name or number)" field says when it names nobody, or several.
const PICK_WORDS = {
  none: gettext("No player has that name, nickname or number."),
  several: gettext("Several players match: pick one from the list."),
};

// --- a redemption above the records (redeem_chips_override, floor only) ----------------------
$("ov-player").addEventListener("input", (e) => suggest(e.target, $("override-found")));
// One Idempotency-Key per redemption, and a lost answer settled by intent.js (Retry with the
// same key, the button held until then), so the cash is never recorded twice.
$("override-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = e.target;
  $("ov-submit").disabled = true; // a second press while the name resolves would record it twice
  let playerId;
  try {
    playerId = await resolve($("ov-player").value, PICK_WORDS);
  } catch (err) {
    $("ov-result").className = "result error";
    $("ov-result").textContent = describeError(err);
    $("ov-submit").disabled = false;
    return;
  }
  const value = Number($("ov-amount").value);
  const body = { player_id: playerId, amount: value, override_reason: $("ov-reason").value };
  intent($("ov-submit"), $("ov-result"), () => post("/api/v1/cage/redemptions/override/", body), () => {
    $("ov-result").textContent = interpolate(gettext("Recorded: %(amount)s to %(player)s. The cage pays it out."),
      { amount: amount(value), player: label(playerId) }, true);
    form.reset();
  }, { discardHint: gettext("Ask the cage whether it was recorded: a redemption whose answer was lost may be.") });
});

// --- tables, live -----------------------------------------------------------------------------
const inflight = new Map();
function refreshTable(id) {
  const slot = inflight.get(id);
  if (slot) { slot.again = true; return; }
  const entry = { again: false };
  inflight.set(id, entry);
  (async () => {
    try {
      do {
        entry.again = false;
        const table = await get(`/api/v1/tables/${id}/`);
        const known = state.tables.get(id);
        if (!known || table.version >= known.version) putTable(table);
      } while (entry.again);
    } catch (err) {
      showError(err);
    } finally { inflight.delete(id); }
  })();
}

function putTable(table) {
  const before = state.tables.get(table.table_id);
  state.tables.set(table.table_id, table);
  renderTable(table, before);
  learnNames([table]);
}

// Names come from the player search the floor may use (table payloads carry ids only):
// the seats of `tables` whose names are not known yet are looked up, then redrawn.
function learnNames(tables) {
  const unknown = tables.flatMap((t) => t.seats.map((s) => s.player_id)).filter((id) => label(id) === `#${id}`);
  if (!unknown.length) return;
  learn(unknown).then(() => tables.forEach((t) => {
    const now = state.tables.get(t.table_id);
    if (now) renderTable(now, now);
  })).catch(() => {});
}

function tableCard(t) {
  const money = (n) => amount(n, t.mode);
  // a cash player with no chips between hands is not dealt in until he re-buys (BI-7): the
  // server says so (`busted`); his status reads "active" (found by QA)
  const seatStatus = (s) => (s.busted && !t.current_hand_id ? gettext("busted: re-buy or cash out") : s.status === "active" ? "" : s.status);
  const seats = t.seats.map((s) => `<tr data-seat="${s.seat}"><td>${s.seat}</td><td>${esc(label(s.player_id))}</td>
    <td class="num stack" data-stack="${s.stack}">${money(s.stack)}</td><td>${esc(seatStatus(s))}</td></tr>`).join("");
  const status = t.status === "open"
    ? (t.current_hand_id ? `<span class="badge ok">${gettext("hand running")}</span>` : `<span class="badge">${gettext("between hands")}</span>`)
    : `<span class="badge bad">${gettext("closed")}</span>`;
  // A tournament's table has no buy-in or rake, and the director, not the floor, moves its
  // players and breaks it: it shows its tournament and no "Manage".
  const cash = t.mode !== "tournament";
  const terms = cash
    ? `${gettext("buy-in")} ${number(t.buy_in_min)}–${number(t.buy_in_max)} · ${gettext("hands")} ${t.hands_played} · ${gettext("rake")} ${money(t.rake_total)}`
    : `${gettext("tournament")} #${t.tournament_id} · ${gettext("hands")} ${t.hands_played}`;
  return `<header><h3>${esc(t.name)} <span class="meta">#${t.table_id}</span></h3>${status}</header>
    <div class="meta">${esc(t.game)} ${number(t.small_blind)}/${number(t.big_blind)} · ${terms}</div>
    <table aria-label="${gettext("Seats")}">${seats || `<tr><td class="muted">${gettext("no players")}</td></tr>`}</table>
    ${t.status === "open" && cash ? `<button type="button" class="btn small" data-manage="${t.table_id}">${gettext("Manage")}</button>` : ""}`;
}

function renderTable(t, before) {
  let card = document.querySelector(`.tcard[data-table="${t.table_id}"]`);
  if (!card) {
    card = document.createElement("article");
    card.className = "tcard";
    card.dataset.table = t.table_id;
    $("tables-grid").appendChild(card);
  }
  card.classList.toggle("closed", t.status !== "open");
  card.dataset.version = t.version;
  card.innerHTML = tableCard(t);
  if (before) {
    const old = new Map(before.seats.map((s) => [s.seat, s.stack]));
    card.querySelectorAll("tr[data-seat]").forEach((row) => {
      const seat = Number(row.dataset.seat);
      const stack = t.seats.find((s) => s.seat === seat).stack;
      if (old.get(seat) !== stack) row.querySelector(".stack").classList.add("flash");
    });
  }
}

function renderTables() {
  $("tables-grid").innerHTML = "";
  [...state.tables.values()].sort((a, b) => a.table_id - b.table_id).forEach((t) => renderTable(t));
}

// A number of chips moved, with its sign: "+200", "-200".
const signed = (n) => `${n > 0 ? "+" : ""}${number(n)}`;

// What a correction did at the table (SD-24), from the table's event: [words, kind] ("ok",
// "pending", "error"), or null for any other event. Its chips moved (StacksCorrected); an
// accounting correction upheld during a hand moves them when the hand ends (Deferred); when
// they cannot move then, the floor must settle it at the cage (Unsettled).
function correctionWords(msg) {
  const d = msg.data || {};
  const moves = (d.adjustments || []).map((a) => `${gettext("seat")} ${a.seat} ${signed(a.stack)}`).join(", ");
  if (msg.event_type === "tables.StacksCorrected") {
    return [interpolate(gettext("Table %(table)s: the correction moved the chips: %(moves)s."), { table: d.table_id, moves }, true), "ok"];
  }
  if (msg.event_type === "tables.StacksCorrectionDeferred") {
    return [interpolate(gettext("Table %(table)s: the correction of the last hand moves its chips when this hand ends (SD-24)."), { table: d.table_id }, true), "pending"];
  }
  if (msg.event_type === "tables.CorrectionUnsettled") {
    const why = d.reason === "player_left" ? gettext("the player of that hand left the seat") : gettext("the stack no longer covers it");
    return [interpolate(gettext("Table %(table)s: a correction could not be made at the table (seat %(seat)s: %(why)s). Settle it at the cage: %(moves)s."),
      { table: d.table_id, seat: d.seat, why, moves }, true), "error"];
  }
  return null;
}

// A deferred correction and one for the cage are said in the banner (the cage's until
// dismissed); chips that moved show in the table's card (and in the correction form).
function correctionNotice(msg) {
  const words = correctionWords(msg);
  if (!words || words[1] === "ok") return;
  showNotice(words[0], words[1] === "error" ? "error" : "info");
}

const floorFeed = new Feed("/ws/floor/", {
  onSnapshot: (snap) => {
    state.tables = new Map(snap.tables.map((t) => [t.table_id, t]));
    renderTables();
    learnNames(snap.tables);
    if ($("floor").dataset.ready !== "true") {
      const wanted = location.hash && document.querySelector(`.tab[data-tab="${CSS.escape(location.hash.slice(1))}"]`);
      if (wanted) openTab(wanted);
    }
    $("floor").dataset.ready = "true";
  },
  onEvent: (msg) => {
    if (msg.type === "event" && msg.stream.startsWith("table-")) refreshTable(Number(msg.stream.slice(6)));
    if (msg.type === "event") { correctionNotice(msg); followCorrection(msg); }
  },
  // a new table's stream starts at version 1 (TableOpened)
  isNewStream: (stream) => stream.startsWith("table-"),
  onStatus: (s) => {
    document.body.classList.toggle("feed-offline", s === "offline");
    if (s === "live" && state.wasOffline) { state.wasOffline = false; state.tables.forEach((t) => refreshTable(t.table_id)); }
    if (s === "offline") state.wasOffline = true;
  },
  onError: (msg) => showNotice(`${gettext("Feed")}: ${msg.detail}`, "error"),
}).start();

$("open-table").addEventListener("submit", once(async (e) => {
  // limits left blank: the stakes' configured ones (BI-3, BI-4); other stakes need the
  // agreed limits (BI-5), which the server asks for
  const limits = {};
  if ($("ot-min").value) limits.buy_in_min = Number($("ot-min").value);
  if ($("ot-max").value) limits.buy_in_max = Number($("ot-max").value);
  // limits other than the stakes' configured ones are the floor's change: say why (BI-5)
  if ($("ot-limits-reason").value.trim()) limits.limits_reason = $("ot-limits-reason").value;
  const table = await run(() => post("/api/v1/tables/", {
    name: $("ot-name").value, game: $("ot-game").value,
    small_blind: Number($("ot-sb").value), big_blind: Number($("ot-bb").value), max_seats: Number($("ot-seats").value),
    min_raise_rule: $("ot-min-raise").value,
    ...limits,
  }));
  if (table && table.table_id) { putTable(table); showNotice(gettext("Table opened.")); e.target.reset(); }
}));

// --- manage one table: limits, transfer, close -------------------------------------------------
let managed = null;
$("tables-grid").addEventListener("click", (e) => {
  const b = e.target.closest("[data-manage]");
  if (!b) return;
  managed = state.tables.get(Number(b.dataset.manage));
  $("td-title").textContent = `${managed.name} #${managed.table_id}`;
  $("td-min").value = managed.buy_in_min;
  $("td-max").value = managed.buy_in_max;
  $("tr-table").innerHTML = openCashTables(managed).filter((t) => t.table_id !== managed.table_id)
    .map((t) => `<option value="${t.table_id}">${esc(t.name)} #${t.table_id}</option>`).join("");
  $("td-seats").innerHTML = "";
  $("co-seat").innerHTML = (managed.seats || []).map((s) => `<option value="${s.seat}">${gettext("Seat")} ${s.seat} · ${esc(label(s.player_id))} · ${amount(s.stack)}</option>`).join("");
  // Show poker: the floor's penalties (SHOW-20..22), recorded on the player
  $("td-show").hidden = managed.game !== "SHOW";
  $("sp-result").textContent = "";
  $("sp-seat").innerHTML = (managed.seats || []).map((s) => `<option value="${s.player_id}">${gettext("Seat")} ${s.seat} · ${esc(label(s.player_id))}</option>`).join("");
  $("td-error").hidden = true;
  // this table's dialog: a reason typed for another table is not this one's (found by QA)
  for (const id of ["td-close-reason", "td-limits-reason", "tr-seat", "tr-to-seat"]) $(id).value = "";
  $("table-dialog").showModal();
});
$("sp-record").addEventListener("click", async () => {
  const body = { offence: $("sp-offence").value, players_in_pot: Number($("sp-in-pot").value) || 3 };
  const p = await run(() => post(`/api/v1/players/${$("sp-seat").value}/show-penalties/`, body), $("td-error"));
  if (p) {
    $("sp-result").textContent = p.warning ? `${gettext("Warning")} (${p.rule})`
      : interpolate(gettext("Sits out %(hands)s hands, blinds paid (%(rule)s)"), { hands: p.hands, rule: p.rule }, true);
  }
});
$("td-limits").addEventListener("click", once(async () => {
  const t = await run(() => post(`/api/v1/tables/${managed.table_id}/limits/`, {
    buy_in_min: Number($("td-min").value), buy_in_max: Number($("td-max").value), reason: $("td-limits-reason").value,
  }), $("td-error"));
  if (t) { showNotice(gettext("Limits changed.")); $("table-dialog").close(); }
}));
$("td-transfer").addEventListener("click", once(async () => {
  // an empty "from seat" went out as seat 0 and read "There is no such path in the API" (QA)
  for (const id of ["tr-seat", "tr-table", "tr-to-seat"]) if (!$(id).reportValidity()) return;
  const t = await run(() => post(`/api/v1/tables/${managed.table_id}/seats/${Number($("tr-seat").value)}/transfer/`, {
    to_table_id: Number($("tr-table").value), to_seat: Number($("tr-to-seat").value),
  }), $("td-error"));
  if (t) { showNotice(gettext("Player moved.")); $("table-dialog").close(); }
}));
// SES-5: his whole stack, between hands (the server refuses during one, BI-6)
$("td-cash-out").addEventListener("click", once(async () => {
  if (!$("co-seat").reportValidity()) return;
  const seat = Number($("co-seat").value);
  const held = (managed.seats || []).find((s) => s.seat === seat);
  const asked = interpolate(gettext("Cash out seat %(seat)s (%(player)s) with his whole stack?"),
    { seat, player: held ? label(held.player_id) : "" }, true);
  if (!window.confirm(asked)) return;
  const done = await run(() => post(`/api/v1/tables/${managed.table_id}/seats/${seat}/cash-out/`), $("td-error"));
  if (done) {
    showNotice(interpolate(gettext("Cashed out: %(amount)s."), { amount: amount(done.amount) }, true));
    $("table-dialog").close();
  }
}));
$("td-close").addEventListener("click", once(async () => {
  const reason = $("td-close-reason").value.trim();
  if (!reason) { $("td-error").textContent = gettext("Give a reason."); $("td-error").hidden = false; return; }
  const asked = interpolate(gettext("Close %(table)s for good?"), { table: `${managed.name} #${managed.table_id}` }, true);
  if (!window.confirm(asked)) return;
  const t = await run(() => post(`/api/v1/tables/${managed.table_id}/close/`, { reason }), $("td-error"));
  if (t) { showNotice(gettext("Table closed.")); $("table-dialog").close(); }
}));

// --- hand replay ------------------------------------------------------------------------------
function fillTableSelects() {
  const options = [...state.tables.values()].map((t) => `<option value="${t.table_id}">${esc(t.name)} #${t.table_id}</option>`).join("");
  const current = $("replay-table").value;
  $("replay-table").innerHTML = options;
  if (current) $("replay-table").value = current;
  loadHands();
}
async function loadHands() {
  const id = $("replay-table").value;
  if (!id) return;
  const page = await run(() => get(`/api/v1/tables/${id}/hands/?page_size=100`), null, { read: true });
  if (!page) return;
  $("replay-hand").innerHTML = page.results.map((h) => `<option value="${h.hand_id}">#${h.hand_number} · ${time(h.started_at)} · ${esc(statusWord(h.status))}${h.pot ? ` · ${gettext("pot")} ${number(h.pot)}` : ""}${h.rake ? ` · ${gettext("rake")} ${number(h.rake)}` : ""}</option>`).join("");
}
function statusWord(status) {
  return { running: gettext("running"), complete: gettext("complete"), voided: gettext("voided") }[status] || status;
}
$("replay-table").addEventListener("change", loadHands);
$("replay-load").addEventListener("click", () => { if ($("replay-hand").value) loadReplay($("replay-hand").value); });

// A hand's log (the replay) and the hand as it stands (its seats and result, for the
// rulings below the replay). ``last``: show the last step (a ruling just recorded).
async function loadReplay(id, { last = false } = {}) {
  const answer = await run(() => Promise.all([get(`/api/v1/hands/${id}/log/`), get(`/api/v1/hands/${id}/`)]), null, { read: true });
  if (!answer || answer === true) return;
  const [log, hand] = answer;
  const fresh = !state.replay || state.replay.hand.hand_id !== hand.hand_id;
  state.replay = { log, hand, at: last ? log.length - 1 : 0 };
  $("replay").hidden = false;
  renderReplay();
  renderRulings(hand, fresh);
}

// Each winner's hand by seat, as the hand's result names it (SD-1; every run's).
function winningHands(hand) {
  const hands = new Map();
  const add = (w) => { if (w.hand) hands.set(w.seat, (hands.get(w.seat) || new Set()).add(handWord(w.hand.category))); };
  for (const p of (hand && hand.result && hand.result.pots) || []) {
    p.winners.forEach(add);
    (p.runs || []).forEach((r) => r.winners.forEach(add));
  }
  return hands;
}

function describeStep(e) {
  const d = e.data;
  const type = e.event_type.split(".").pop();
  switch (type) {
    case "HandStarted": return `${gettext("Hand started")} #${d.hand_number}: ${gettext("button")} ${d.button_seat}; ${d.seats.map((s) => `${s.seat}: ${number(s.stack)}`).join(", ")}; ${d.posts.map((p) => `${p.seat} ${postWord(p.kind)} ${number(p.amount)}`).join(", ")}`;
    case "ActionTaken": return `${gettext("Seat")} ${d.seat}: ${actionWord(d.action)}${["bet", "raise", "all_in"].includes(d.action) ? ` ${gettext("to")} ${number(d.amount_to)}` : d.action === "call" ? ` ${number(d.added)}` : ""}${d.all_in ? ` (${gettext("all-in")})` : ""}`;
    case "BoardDealt": return `${streetWord(d.street)}${d.run > 1 ? ` (${gettext("run")} ${d.run})` : ""}: ${d.cards}`;
    case "CardsShown": return `${gettext("Seat")} ${d.seat} ${gettext("shows")} ${d.cards}`;
    case "CardsMucked": return `${gettext("Seat")} ${d.seat} ${gettext("mucks")}`;
    case "RunItTimesAgreed": return `${gettext("Run it")} ${d.times}×`;
    case "HandSettled": {
      const hands = winningHands(state.replay && state.replay.hand);
      const named = (seat) => (hands.has(seat) ? ` (${[...hands.get(seat)].join(", ")})` : "");
      return `${gettext("Settled")} (${({ uncontested: gettext("uncontested"), showdown: gettext("showdown"), manual: gettext("manual award") })[d.method] || d.method}): ${d.pots.map((p) => `${gettext("pot")} ${p.index} ${number(p.amount)} → ${p.winners.map((w) => `${w.seat} +${number(w.amount)}${named(w.seat)}`).join(", ")}`).join("; ")}; ${gettext("rake")} ${number(d.rake)}`;
    }
    case "HandVoided": return `${gettext("Voided")} (${({ misdeal: gettext("misdeal"), void: gettext("void") })[d.kind] || d.kind}): ${d.reason}`;
    case "RabbitHunted": return `${gettext("Rabbit hunt")} ${gettext("seat")} ${d.seat}: ${d.cards} (${gettext("fee")} ${number(d.fee)})`;
    // the floor's rulings on the hand, each with its rule
    case "ClockCalled": return `${gettext("Clock called on seat")} ${d.seat} ${gettext("by seat")} ${d.called_by} (${gettext("until")} ${time(d.expires_at)})`;
    case "ClockExpired": return `${gettext("Clock expired")}: ${gettext("seat")} ${d.seat} ${actionWord(d.outcome)} [${d.rule}]`;
    case "CardsExposed": return `${gettext("Seat")} ${d.seat} ${gettext("exposed")} ${d.cards}${d.folded ? ` — ${gettext("dead hand")}` : d.passive ? ` — ${gettext("may not bet or raise")}` : ""} [${d.rule}]`;
    case "BurnRecorded": return `${gettext("Burn")} ${gettext("before the")} ${streetWord(d.street)}: ${d.card}`;
    case "OutOfTurnRecorded": return `${gettext("Seat")} ${d.seat} ${gettext("out of turn")}: ${actionWord(d.action)}${d.amount_to ? ` ${number(d.amount_to)}` : ""} (${gettext("seat")} ${d.to_act} ${gettext("was to act")})`;
    case "OutOfTurnRuled": return `${gettext("Out of turn, seat")} ${d.seat}: ${d.binding ? gettext("binding") : gettext("not binding")}${d.action ? ` (${actionWord(d.action)})` : ""} [${d.rule}]`;
    case "IrregularityRuled": return `${gettext("Irregularity")}: ${d.cause.replaceAll("_", " ")} → ${d.consequence.replaceAll("_", " ")}${d.seat ? ` (${gettext("seat")} ${d.seat})` : ""} [${d.rule}]${d.note ? ` — ${d.note}` : ""}`;
    case "ShowOrdered": return `${gettext("Seat")} ${d.seat} ${gettext("must show")}${d.requested_by ? ` (${gettext("asked by seat")} ${d.requested_by})` : ""} [${d.rule}]`;
    case "AbsenceRuled": return `${gettext("Seat")} ${d.seat} ${gettext("away at the deal: dead hand")} [${d.rule}]`;
    case "PenaltyHandKilled": return `${gettext("Seat")} ${d.seat}: ${gettext("hand killed (penalty)")} [${d.rule}]`;
    case "ResultCorrected": return `${gettext("Result corrected")} (${correctionKindWord(d.kind)}): ${d.adjustments.map(([seat, amount]) => `${gettext("seat")} ${seat} ${signed(amount)}`).join(", ")} [${d.rule}] — ${d.detail}`;
    case "RabbitHuntConsented": return `${gettext("Rabbit hunt for seat")} ${d.seat}: ${gettext("consent of seats")} ${d.consenting_seats.join(", ")}`;
    case "ChopExceptionRecorded": return `${gettext("Chop allowed by")} ${d.floor} (${gettext("seats")} ${d.seats.join(", ")}): ${d.reason}`;
    case "ChipsRead": return `${gettext("Chips read for seat")} ${d.seat}: ${actionWord(d.kind)} ${number(d.amount_to)} [${d.rule}]`;
    default: return `${type} ${JSON.stringify(d)}`;
  }
}

function postWord(k) {
  return { small_blind: gettext("small blind"), big_blind: gettext("big blind"), ante: gettext("ante"), straddle: gettext("straddle"),
    dead_sb: gettext("dead small blind"), posted_bb: gettext("big blind posted"), posted_sb: gettext("small blind posted") }[k] || k;
}

function renderReplay() {
  const { log, at } = state.replay;
  $("replay-pos").textContent = `${gettext("Step")} ${at + 1} / ${log.length}`;
  $("replay-steps").querySelector("tbody").innerHTML = log.map((e, i) => `<tr class="${i === at ? "current" : i > at ? "future" : ""}" ${i === at ? 'aria-current="step"' : ""}>
    <td>${e.version}</td><td>${esc(describeStep(e))}</td>
    <td>${esc(e.actor_name || e.actor)}${e.device && e.device !== e.actor_name ? ` (${esc(e.device)})` : ""}</td><td>${dateTime(e.recorded_at)}</td></tr>`).join("");
}
const step = (fn) => () => { if (!state.replay) return; state.replay.at = Math.max(0, Math.min(state.replay.log.length - 1, fn(state.replay))); renderReplay(); };
$("replay-first").addEventListener("click", step(() => 0));
$("replay-prev").addEventListener("click", step((r) => r.at - 1));
$("replay-next").addEventListener("click", step((r) => r.at + 1));
$("replay-last").addEventListener("click", step((r) => r.log.length - 1));

// --- the floor's rulings on a replayed hand: correct its result, allow a chop ----------------
// Both are the public API's (POST /hands/<id>/corrections/, /chop-exception/); the server
// rules on them (the dispute window, SD-24..26) and its refusals are shown in the form.

function correctionKindWord(kind) {
  return { reading: gettext("reading"), accounting: gettext("accounting"), mucked_winner: gettext("mucked winner") }[kind] || kind;
}

// The correction form: one row per seat of the hand, the chips to move to it (negative: from
// it); the chop form: a tick per seat. A tournament's hand has no chop exception (RAKE-9 is
// the cash game's rule): no chop form there.
function renderRulings(hand, fresh) {
  const table = state.tables.get(hand.table_id);
  const money = (n) => amount(n, table ? table.mode : "cash");
  const settled = hand.phase === "complete" && !!hand.result;
  $("hand-rulings").hidden = false;
  $("hc-unsettled").hidden = settled;
  $("hc-fields").hidden = !settled;
  $("hc-moves").querySelector("tbody").innerHTML = hand.seats.map((s) => `<tr data-seat="${s.seat}"><td>${s.seat}</td>
    <td data-player="${esc(s.player_id)}">${esc(label(Number(s.player_id)))}</td><td class="num">${esc(signed(s.stack - s.starting_stack))}</td>
    <td class="num">${esc(money(s.stack))}</td>
    <td><input type="number" step="1" data-move="${s.seat}" placeholder="0" aria-label="${esc(interpolate(gettext("Chips to seat %(seat)s"), { seat: s.seat }, true))}"></td></tr>`).join("");
  $("chop").hidden = !!table && table.mode === "tournament";
  $("ch-seats").querySelector("div").innerHTML = hand.seats.map((s) => `<label class="check"><input type="checkbox" value="${s.seat}"> ${gettext("Seat")} ${s.seat} · <span data-player="${esc(s.player_id)}">${esc(label(Number(s.player_id)))}</span></label>`).join("");
  if (fresh) {
    state.followed = null;
    ["hc-error", "ch-error"].forEach((id) => { $(id).hidden = true; });
    ["hc-result", "ch-result"].forEach((id) => { $(id).textContent = ""; $(id).className = "result"; });
    $("hc-detail").value = "";
    $("ch-reason").value = "";
  }
  updateBalance();
  const ids = hand.seats.map((s) => Number(s.player_id));
  if (ids.some((id) => label(id) === `#${id}`)) {
    learn(ids).then(() => $("hand-rulings").querySelectorAll("[data-player]").forEach((el) => {
      el.textContent = label(Number(el.dataset.player));
    })).catch(() => {});
  }
}

// The chips entered per seat, zeros left out ([{seat, stack}], as the table's events name
// them), or null when one is not a whole number.
function enteredMoves() {
  const moves = [];
  let whole = true;
  $("hc-moves").querySelectorAll("input[data-move]").forEach((input) => {
    if (input.validity.badInput) whole = false;
    if (input.value === "") return;
    const chips = Number(input.value);
    if (!Number.isInteger(chips)) whole = false;
    else if (chips) moves.push({ seat: Number(input.dataset.move), stack: chips });
  });
  return whole ? moves : null;
}

// The running balance: a correction moves chips (SD-24: one that moves none is refused,
// nothing_to_correct) between the hand's seats only, so the form sends nothing until some
// move and the moves add up to 0. The moves, or null until then.
function updateBalance() {
  const moves = enteredMoves();
  const total = moves ? moves.reduce((sum, m) => sum + m.stack, 0) : null;
  const ok = moves !== null && moves.length > 0 && total === 0;
  const box = $("hc-balance");
  if (moves === null) box.textContent = gettext("Chips are whole numbers: to the seat, or with a minus from it.");
  else if (!moves.length) box.textContent = gettext("Enter the chips to move: to a seat, or with a minus from it.");
  else if (!ok) {
    box.textContent = interpolate(gettext("Balance %(total)s: the moves do not add up to 0. The chips only move between this hand's seats (SD-24)."),
      { total: signed(total) }, true);
  } else {
    box.textContent = interpolate(gettext("Balance 0: %(moves)s."),
      { moves: moves.map((m) => `${gettext("seat")} ${m.seat} ${signed(m.stack)}`).join(", ") }, true);
  }
  box.classList.toggle("bad", moves === null || (moves.length > 0 && !ok));
  $("hc-submit").disabled = !ok;
  return ok ? moves : null;
}
$("hc-moves").addEventListener("input", updateBalance);

// The correction's answer is the hand; what happened to the chips is the table's: they moved,
// or (its seats being in the running hand) they wait for its end, then move or go to the
// cage. The form learns which from the floor feed's table events for this hand and these
// moves (``state.followed``), even one that comes before the answer; a deferred correction's
// outcome follows when the hand ends.
function followCorrection(msg) {
  const f = state.followed;
  const words = correctionWords(msg);
  const d = msg.data || {};
  if (!words || !f || d.hand_id !== f.hand_id) return;
  const key = (moves) => moves.map((m) => `${m.seat}:${m.stack}`).sort().join(",");
  if (key(d.adjustments || []) !== key(f.moves)) return;
  f.outcome = words;
  if (f.answered) showOutcome(...words);
}

function showOutcome(text, kind) {
  $("hc-result").textContent = text;
  $("hc-result").className = `result ${kind}`;
}

$("correction").addEventListener("submit", async (e) => {
  e.preventDefault();
  const hand = state.replay && state.replay.hand;
  const moves = updateBalance();
  if (!hand) return;
  if (!moves) {
    $("hc-error").textContent = $("hc-balance").textContent;
    $("hc-error").hidden = false;
    return;
  }
  const table = state.tables.get(hand.table_id);
  const tournament = !!table && table.mode === "tournament";
  state.followed = tournament ? null : { hand_id: hand.hand_id, moves, outcome: null, answered: false };
  const followed = state.followed;
  $("hc-submit").disabled = true;
  showOutcome("", "");
  const answer = await run(() => post(`/api/v1/hands/${hand.hand_id}/corrections/`, {
    kind: $("hc-kind").value, detail: $("hc-detail").value,
    adjustments: moves.map((m) => ({ seat: m.seat, amount: m.stack })),
  }), $("hc-error"));
  if (!answer) {
    if (state.followed === followed) state.followed = null;
    updateBalance();
    return;
  }
  if (tournament) showOutcome(gettext("Correction recorded. At a tournament table the director moves the chips."), "ok");
  else if (followed.outcome) showOutcome(...followed.outcome);
  else {
    showOutcome(gettext("Correction recorded; waiting for the table's stacks…"), "pending");
    setTimeout(() => {
      if (state.followed === followed && !followed.outcome) {
        showOutcome(gettext("Correction recorded, but the table's answer has not arrived (is the feed offline?): check its stacks."), "error");
      }
    }, 10_000);
  }
  if (followed) followed.answered = true;
  $("hc-detail").value = "";
  refreshTable(hand.table_id);
  await loadReplay(hand.hand_id, { last: true });
});

$("chop").addEventListener("submit", async (e) => {
  e.preventDefault();
  const hand = state.replay && state.replay.hand;
  if (!hand) return;
  const seats = [...$("ch-seats").querySelectorAll("input:checked")].map((c) => Number(c.value));
  if (!seats.length) {
    $("ch-error").textContent = gettext("Tick the seats concerned.");
    $("ch-error").hidden = false;
    return;
  }
  $("ch-result").textContent = "";
  $("ch-submit").disabled = true;
  const answer = await run(() => post(`/api/v1/hands/${hand.hand_id}/chop-exception/`, {
    floor: $("ch-floor").value, reason: $("ch-reason").value, seats,
  }), $("ch-error"));
  $("ch-submit").disabled = false;
  if (!answer) return;
  $("ch-result").textContent = gettext("Chop exception recorded on the hand.");
  $("ch-result").className = "result ok";
  $("ch-reason").value = "";
  await loadReplay(hand.hand_id, { last: true });
});

// --- waiting and interest lists --------------------------------------------------------------
let listsFeed = null;
async function loadLists() {
  const answer = await run(() => get("/api/v1/waitlists/"), null, { read: true });
  if (!answer || answer === true) return;
  state.clockSkew = Date.parse(answer.now) - Date.now();
  state.lists = answer.lists;
  renderLists();
  if (!listsFeed) {
    listsFeed = new Feed("/ws/waitlists/", {
      onSnapshot: () => {},
      onEvent: (msg) => { if (msg.type === "event") scheduleLists(); },
      isNewStream: () => true,
      onStatus: (s) => { if (s === "live") scheduleLists(); },
      badge: "lists-feed-status", // the top bar's badge follows the tables feed
    });
    listsFeed.start();
  }
}
let listsTimer = null;
function scheduleLists() { clearTimeout(listsTimer); listsTimer = setTimeout(loadLists, 30); }

// The lists are drawn again on every feed event: keep what the floor is typing, the open
// sections and the focus.
function keepForms(draw) {
  const saved = new Map();
  $("lists").querySelectorAll("[data-list]").forEach((box) => {
    const fields = {};
    box.querySelectorAll("form input[name], form select[name]").forEach((el) => {
      fields[`${el.closest("form").className}|${el.name}`] = el.value;
    });
    saved.set(box.dataset.list, { fields, open: [...box.querySelectorAll("details")].map((d) => d.open) });
  });
  const active = document.activeElement && document.activeElement.closest("[data-list]") ? document.activeElement : null;
  const activeKey = active && active.name ? [active.closest("[data-list]").dataset.list, active.closest("form").className, active.name] : null;
  draw();
  $("lists").querySelectorAll("[data-list]").forEach((box) => {
    const was = saved.get(box.dataset.list);
    if (!was) return;
    box.querySelectorAll("form input[name], form select[name]").forEach((el) => {
      const value = was.fields[`${el.closest("form").className}|${el.name}`];
      if (value !== undefined && value !== "") el.value = value;
    });
    box.querySelectorAll("details").forEach((d, i) => { if (was.open[i]) d.open = true; });
  });
  if (activeKey) {
    const box = $("lists").querySelector(`[data-list="${activeKey[0]}"]`);
    const again = box && [...box.querySelectorAll(`form [name="${activeKey[2]}"]`)].find((el) => el.closest("form").className === activeKey[1]);
    if (again) again.focus();
  }
}

function renderLists() {
  keepForms(drawLists);
}

function drawLists() {
  $("lists").innerHTML = state.lists.map((l) => {
    const entries = l.entries.map((e) => `<tr><td>${e.position}</td><td>${esc(e.display)} <span class="muted">#${e.player_id}</span></td><td>${esc(channelLabel(e.channel))}</td><td>${esc(e.phone)}</td>
      <td>${e.misses ? `${gettext("missed")} ${e.misses}` : ""} ${e.away ? gettext("away") : ""}</td>
      <td class="nowrap"><button type="button" class="btn small" data-away="${l.list_id}:${e.player_id}:${e.away ? "" : "1"}">${e.away ? gettext("Back") : gettext("Away")}</button>
      <button type="button" class="btn small" data-leave="${l.list_id}:${e.player_id}" data-display="${esc(e.display)}">${gettext("Remove")}</button></td></tr>`).join("");
    const calls = l.calls.map((c) => `<tr><td>${esc(c.display)} <span class="muted">#${c.player_id}</span></td><td>${gettext("table")} ${c.table_id} ${gettext("seat")} ${c.seat}</td>
      <td class="countdown" data-deadline="${c.deadline}"></td>
      <td><button type="button" class="btn small primary" data-seatcall="${l.list_id}:${c.call_id}:${c.player_id}:${c.table_id}:${c.seat}" data-display="${esc(c.display)}">${pgettext("button: seat the player", "Seat")}</button>
      <button type="button" class="btn small" data-noshow="${l.list_id}:${c.call_id}">${gettext("No-show")}</button>
      <button type="button" class="btn small" data-cancelcall="${l.list_id}:${c.call_id}">${gettext("Cancel call")}</button></td></tr>`).join("");
    // an open seat's offer: a player to call from the list, or (a main table fed by a
    // must-move table, SES-2/SES-4) the must-move player who moves first. One per table,
    // its first open seat: every seat of a table offers the same player (found by QA: a
    // button per open seat of every table, twenty of them for one call)
    const seats = l.tables.flatMap((t) => t.open_seats.filter((s) => !s.call_id && s.offer).slice(0, 1).map((s) => (s.offer.offer_kind === "must_move"
      ? `<button type="button" class="btn small" data-mustmove-seat="${l.list_id}:${s.seat}">${gettext("Move the next must-move player")} ${esc(s.offer.display)} → ${esc(t.name)} ${gettext("seat")} ${s.seat}</button>`
      : `<button type="button" class="btn small" data-call="${l.list_id}:${t.table_id}:${s.seat}:${s.offer.player_id}">${gettext("Call player")} ${esc(s.offer.display)} → ${esc(t.name)} ${gettext("seat")} ${s.seat}</button>${seatedElsewhere(s.offer)}`))).join(" ");
    return `<section class="card wl" data-list="${l.list_id}"><header><h2>${esc(l.game)} ${number(l.small_blind)}/${number(l.big_blind)}</h2>
      <span class="badge">${esc({ waiting: gettext("waiting list"), interest: gettext("interest list"), table_change: gettext("table change") }[l.list_kind] || l.list_kind)}</span><span class="muted">${gettext("waiting")}: ${l.waiting}${l.interest_threshold ? ` / ${l.interest_threshold}` : ""}</span>
      ${l.calls.length ? "" : `<button type="button" class="btn small" data-close-list="${l.list_id}">${gettext("Close the list")}</button>`}</header>
      ${calls ? `<h3>${gettext("Called")}</h3><table class="grid">${calls}</table>` : ""}
      ${seats ? `<p>${seats}</p>` : ""}
      <table class="grid"><thead><tr><th>#</th><th>${gettext("Player")}</th><th>${gettext("Channel")}</th><th>${gettext("Phone")}</th><th></th><th></th></tr></thead><tbody>${entries}</tbody></table>
      ${listExtras(l)}
      <form class="row wrap join" data-join="${l.list_id}">
        <div><label>${gettext("Player (name or number)")}<input name="player" type="search" autocomplete="off" maxlength="100" required list="player-found"></label></div>
        <div><label>${gettext("Channel")}<select name="channel"><option value="in_person">${gettext("in person")}</option><option value="phone">${gettext("phone")}</option><option value="console">${gettext("console")}</option></select></label></div>
        <div><label>${gettext("Phone")}<input name="phone" maxlength="40"></label></div>
        <div class="shrink"><button class="btn" type="submit">${gettext("Join")}</button></div>
      </form></section>`;
  }).join("") || `<p class="muted">${gettext("No lists open.")}</p>`;
  tickCountdowns();
}

// The open cash tables: where a player can be transferred or a must-move game can run;
// with ``game`` (a table or a list), only those of the same game and stakes, where a
// transfer keeps the whole stack (SES-3, SES-4).
function openCashTables(game) {
  return [...state.tables.values()].filter((t) => t.status === "open" && t.mode !== "tournament"
    && (!game || (t.game === game.game && t.small_blind === game.small_blind && t.big_blind === game.big_blind
      && (game.ante_type === undefined || (t.ante === game.ante && t.ante_type === game.ante_type)))));
}

function tableOptions(selected, game) {
  return openCashTables(game)
    .map((t) => `<option value="${t.table_id}" ${t.table_id === selected ? "selected" : ""}>${esc(t.name)} #${t.table_id}</option>`).join("");
}

// Must-move (a main game fed by a must-move table, SES-2/SES-4) and interest lists (start
// the game once enough players are interested).

// A player on a waiting list may sit in another game meanwhile: called, he is seated here only
// once he left that seat (BI-10, one seat a player). The offer said nothing of it, and the
// seating was then refused while the call held the seat (found by QA).
function seatedElsewhere(offer) {
  if (offer.offer_kind !== "waiting_list" || !offer.seated_at_table_id) return "";
  const text = offer.seated_in_tournament_id // a tournament seat is not cashed out (found by QA)
    ? gettext("playing in a tournament at table %(table)s (BI-10)")
    : gettext("seated at table %(table)s: cash out that seat first (BI-10)");
  return ` <span class="badge warn" data-seated-elsewhere="${offer.seated_at_table_id}">${esc(interpolate(
    text, { table: offer.seated_at_table_id }, true))}</span>`;
}
function listExtras(l) {
  if (l.list_kind === "interest") {
    // An open, empty table of the same game and stakes may host the game instead of a new one.
    const empty = openCashTables(l).filter((t) => !(t.seats || []).length);
    return `<form class="row wrap" data-start-game="${l.list_id}">
      <div><label>${gettext("Table")}<select name="table"><option value="">${gettext("a new table")}</option>${empty.map((t) => `<option value="${t.table_id}">${esc(t.name)} #${t.table_id}</option>`).join("")}</select></label></div>
      <div><label>${gettext("New table name")}<input name="name" maxlength="100" value="${esc(l.game)} ${l.small_blind}/${l.big_blind}"></label></div>
      <div><label>${gettext("Buy-in min")}<input name="buy_in_min" type="number" min="1" placeholder="${gettext("the stakes' limits")}"></label></div>
      <div><label>${gettext("Buy-in max")}<input name="buy_in_max" type="number" min="1" placeholder="${gettext("the stakes' limits")}"></label></div>
      <div><label>${gettext("Why other limits (BI-5)")}<input name="limits_reason" maxlength="500"></label></div>
      <div class="shrink"><button class="btn" type="submit">${gettext("Start the game")}</button></div></form>`;
  }
  if (l.list_kind !== "waiting") return "";
  const move = l.must_move_table_id
    ? `<form class="row wrap" data-must-move="${l.list_id}"><div><label>${gettext("Open seat at the main table")}<input name="seat" type="number" min="1" max="10" required></label></div>
       <div class="shrink"><button class="btn" type="submit">${gettext("Move the next must-move player")}</button></div></form>`
    : "";
  return `<details><summary class="btn small">${gettext("Must-move")}</summary>
    <form class="row wrap" data-link="${l.list_id}">
      <div><label>${gettext("Main table")}<select name="main"><option value="">${gettext("— none —")}</option>${tableOptions(l.main_table_id, l)}</select></label></div>
      <div><label>${gettext("Must-move table")}<select name="must"><option value="">${gettext("— none —")}</option>${tableOptions(l.must_move_table_id, l)}</select></label></div>
      <div class="shrink"><button class="btn" type="submit">${gettext("Link")}</button></div></form>${move}</details>`;
}

function channelLabel(c) {
  return { in_person: gettext("in person"), phone: gettext("phone"), console: gettext("console") }[c] || c;
}

function tickCountdowns() {
  const now = Date.now() + state.clockSkew;
  document.querySelectorAll(".countdown[data-deadline]").forEach((el) => {
    const left = (Date.parse(el.dataset.deadline) - now) / 1000;
    el.textContent = left > 0 ? seconds(left) : gettext("overdue");
    el.classList.toggle("late", left <= 30);
  });
}
setInterval(tickCountdowns, 1000);

$("lists").addEventListener("submit", once(async (e) => {
  const extra = e.target.closest("[data-link], [data-must-move], [data-start-game]");
  if (extra) {
    e.preventDefault();
    let ok = null;
    if (extra.dataset.link) {
      // both "none" unlinks them (the link could only be undone through the API: QA)
      const id = (v) => (v ? Number(v) : null);
      ok = await run(() => post(`/api/v1/waitlists/${extra.dataset.link}/must-move/`, {
        main_table_id: id(extra.main.value), must_move_table_id: id(extra.must.value),
      }));
    } else if (extra.dataset.mustMove) {
      ok = await run(() => post(`/api/v1/waitlists/${extra.dataset.mustMove}/must-move/moves/`, { seat: Number(extra.seat.value) }));
    } else {
      // a new table takes the stakes' configured limits, or the agreed ones typed here (BI-5:
      // stakes with no configured limits were refused, and the form could not give any)
      const body = extra.table.value ? { table_id: Number(extra.table.value) } : { name: extra.name.value };
      if (!extra.table.value) {
        for (const k of ["buy_in_min", "buy_in_max"]) if (extra[k].value) body[k] = Number(extra[k].value);
        if (extra.limits_reason.value.trim()) body.limits_reason = extra.limits_reason.value;
      }
      ok = await run(() => post(`/api/v1/waitlists/${extra.dataset.startGame}/start-game/`, body));
    }
    if (ok) { extra.reset(); loadLists(); }
    return;
  }
  const form = e.target.closest("[data-join]");
  if (!form) return;
  e.preventDefault();
  const ok = await run(async () => post(`/api/v1/waitlists/${form.dataset.join}/entries/`, {
    player_id: await resolve(form.player.value, PICK_WORDS),
    channel: form.channel.value, phone: form.phone.value,
  }));
  if (ok) { form.reset(); loadLists(); }
}));
// The join form's player field suggests players by name as the floor types.
$("lists").addEventListener("input", (e) => {
  if (e.target.matches("form[data-join] input[name=player]")) suggest(e.target, $("player-found"));
});
$("lists").addEventListener("click", once(async (e) => {
  const b = e.target.closest("button");
  if (!b) return;
  let ok = null;
  if (b.dataset.mustmoveSeat) {
    const [list, seat] = b.dataset.mustmoveSeat.split(":");
    ok = await run(() => post(`/api/v1/waitlists/${list}/must-move/moves/`, { seat: Number(seat) }));
  } else if (b.dataset.call) {
    const [list, table, seat, player] = b.dataset.call.split(":");
    ok = await run(() => post(`/api/v1/waitlists/${list}/calls/`, { table_id: Number(table), seat: Number(seat), player_id: Number(player) }));
  } else if (b.dataset.noshow) {
    const [list, call] = b.dataset.noshow.split(":");
    ok = await run(() => post(`/api/v1/waitlists/${list}/calls/${call}/no-show/`, {}));
  } else if (b.dataset.cancelcall) {
    const [list, call] = b.dataset.cancelcall.split(":");
    ok = await run(() => post(`/api/v1/waitlists/${list}/calls/${call}/cancel/`, { reason: "floor" }));
  } else if (b.dataset.seatcall) {
    openSeatCall(b.dataset.seatcall, b.dataset.display);
    return;
  } else if (b.dataset.closeList) {
    // a game no longer spread, or a list opened by mistake; the names on it come off
    const reason = prompt(gettext("Close the list: why?"), gettext("The game is no longer spread"));
    if (!reason || !reason.trim()) return;
    ok = await run(() => post(`/api/v1/waitlists/${b.dataset.closeList}/close/`, { reason: reason.trim() }));
  } else if (b.dataset.away) {
    // WL-3: away for a while (he keeps his place; the offers skip him), or back
    const [list, player, away] = b.dataset.away.split(":");
    ok = await run(() => post(`/api/v1/waitlists/${list}/entries/${player}/away/`, { away: away === "1" }));
  } else if (b.dataset.leave) {
    const [list, player] = b.dataset.leave.split(":");
    // one stray click took a player off the list, with no undo but the bottom of the list
    if (!confirm(`${gettext("Remove from the list:")} ${b.dataset.display || label(Number(player))}?`)) return;
    ok = await run(() => post(`/api/v1/waitlists/${list}/entries/${player}/leave/`, { reason: "floor" }));
  }
  if (ok) loadLists();
}, "button[data-mustmove-seat], button[data-call], button[data-noshow], button[data-cancelcall], button[data-leave], button[data-away], button[data-close-list]"));
// Seating a called player: his buy-in, and how he pays it — cash at the table, or chips he
// bought at the cage (BI-2; the drop and the chips in circulation differ: cashgame/cage.py).
function openSeatCall(spec, display) {
  const [list, call, player, table, seat] = spec.split(":");
  const t = state.tables.get(Number(table));
  const form = $("seat-call-form");
  form.dataset.spec = JSON.stringify({ list, call, player: Number(player), table: Number(table), seat: Number(seat) });
  $("sc-who").textContent = `${display || label(Number(player))} → ${t ? t.name : `${gettext("Table")} ${table}`}, ${gettext("seat")} ${seat}`;
  // The buy-in is the cash he hands over: typed, never filled in. A filled-in table minimum
  // seated a player for less than he gave, and hid his returning minimum (SES-7; found by
  // QA): the seat check says the range this player may bring, and any refusal, as a hint.
  $("sc-buyin").value = "";
  $("sc-buyin").placeholder = t ? String(t.buy_in_min) : "";
  $("sc-range").textContent = "";
  $("sc-paid").value = "cash";
  $("sc-error").hidden = true;
  // a table change moves his whole stack (SES-4): no buy-in to ask for (the field was
  // required and then ignored: found by QA)
  const move = (state.lists.find((l) => l.list_id === list) || {}).list_kind === "table_change";
  $("sc-money").hidden = move;
  $("sc-buyin").required = !move;
  $("sc-move").hidden = !move;
  form.dataset.move = move ? "1" : "";
  $("seat-call-dialog").showModal();
  if (move) return;
  get(`/api/v1/tables/${Number(table)}/seat-check/?player_id=${Number(player)}`).then((c) => {
    $("sc-buyin").placeholder = String(c.buy_in_min);
    $("sc-range").textContent = interpolate(gettext("Buy-in %(min)s to %(max)s (rule %(rule)s)"),
      { min: number(c.buy_in_min), max: number(c.buy_in_max), rule: c.rule }, true)
      + (c.refusal ? ` — ${c.refusal.detail}` : "");
  }).catch(() => { /* a hint only: the seating itself still checks */ });
}
$("sc-cancel").addEventListener("click", () => $("seat-call-dialog").close());
$("seat-call-form").addEventListener("submit", once(async (e) => {
  const spec = JSON.parse(e.target.dataset.spec || "{}");
  const body = { player_id: spec.player, table_id: spec.table, seat: spec.seat };
  if (!e.target.dataset.move) Object.assign(body, { buy_in: Number($("sc-buyin").value), paid_with: $("sc-paid").value });
  // The call must still stand: another screen may have cancelled it (or seated him) while
  // this dialog was open, and the seating went through regardless (found by QA). The list
  // is read afresh, and the seating sent with its version (If-Match): a change in between
  // answers 409 and is checked again once.
  const seatIfCalled = async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const fresh = (await get("/api/v1/waitlists/")).lists.find((l) => l.list_id === spec.list);
      if (!fresh || !fresh.calls.some((c) => String(c.call_id) === String(spec.call))) {
        throw new Error(gettext("This call was cancelled or answered on another screen: nothing was recorded."));
      }
      try {
        return await post(`/api/v1/waitlists/${spec.list}/seatings/`, body, { ifMatch: fresh.version });
      } catch (err) {
        if (!(err instanceof ApiError && err.code === "version_conflict") || attempt) throw err;
      }
    }
    return null;
  };
  const ok = await run(seatIfCalled, $("sc-error"));
  if (!ok) { loadLists(); return; }
  $("seat-call-dialog").close();
  loadLists();
}));

$("open-list").addEventListener("submit", once(async (e) => {
  const ok = await run(() => post("/api/v1/waitlists/", {
    game: $("ol-game").value, small_blind: Number($("ol-sb").value), big_blind: Number($("ol-bb").value), list_kind: $("ol-kind").value,
  }));
  if (ok) loadLists();
}));

// --- devices and staff --------------------------------------------------------------------------

// Roles in the page's language, as the top bar names them (they showed as "floor", "admin"
// in Czech too, found by QA); the API's values stay the codes.
const ROLE_NAMES = {
  dealer: gettext("dealer"), cashier: gettext("cashier"), floor: gettext("floor"),
  director: gettext("tournament director"), manager: gettext("manager"), admin: gettext("administrator"),
};
const roleName = (role) => ROLE_NAMES[role] || role;

async function loadDevices() {
  $("rd-table").innerHTML = [...state.tables.values()].filter((t) => t.status === "open")
    .map((t) => `<option value="${t.table_id}">${esc(t.name)} #${t.table_id}</option>`).join("");
  const devices = await run(() => get("/api/v1/devices/"), null, { read: true });
  if (devices && devices !== true) {
    // data-label: a phone shows each row as a block, every cell named (floor.css)
    $("devices").querySelector("tbody").innerHTML = devices.map((d) => `<tr><td>${esc(d.name)}</td><td>${esc(roleName(d.role))}</td><td data-label="${esc(gettext("Table"))}">${d.table_id ?? ""}</td>
      <td data-label="${esc(gettext("Registered"))}">${dateTime(d.created_at)}</td><td>${d.revoked ? `<span class="badge bad">${gettext("revoked")}</span>` : `<span class="badge ok">${gettext("active")}</span>`}</td>
      <td>${d.revoked || d.role !== "dealer" ? "" : `<button type="button" class="btn small danger" data-revoke="${d.id}">${gettext("Revoke")}</button>`}</td></tr>`).join("");
  }
  // staff accounts are the admin's (the API refuses anyone else): no doomed call, no 403
  const admin = document.body.dataset.role === "admin";
  $("staff-denied").hidden = admin;
  $("create-staff").hidden = !admin;
  $("staff").hidden = !admin;
  if (!admin) return;
  try {
    const staff = await get("/api/v1/staff/");
    $("staff-denied").hidden = true;
    $("create-staff").hidden = false;
    $("staff").hidden = false;
    $("staff").querySelector("tbody").innerHTML = staff.map((u) => `<tr><td>${esc(u.username)}</td>
      <td><select data-role="${u.id}" aria-label="${gettext("Role")}">${["floor", "cashier", "director", "manager", "admin"].map((r) => `<option value="${r}" ${r === u.role ? "selected" : ""}>${esc(roleName(r))}</option>`).join("")}</select></td>
      <td>${u.is_active ? gettext("active") : gettext("locked")}</td>
      <td><button type="button" class="btn small" data-lock="${u.id}:${u.is_active ? "0" : "1"}">${u.is_active ? gettext("Lock") : gettext("Unlock")}</button></td></tr>`).join("");
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) {
      $("staff-denied").hidden = false;
      $("create-staff").hidden = true;
      $("staff").hidden = true;
    } else showError(err);
  }
}
$("register-device").addEventListener("submit", async (e) => {
  e.preventDefault();
  const device = await run(() => post("/api/v1/devices/", { name: $("rd-name").value, table_id: Number($("rd-table").value) }));
  if (device && device.token) {
    $("new-token-value").textContent = device.token;
    $("new-token").hidden = false;
    e.target.reset();
  } else if (device && device.id) {
    showNotice(gettext("Registered, but the token was already shown once: revoke and register again if it was lost."), "error");
  }
  loadDevices();
});
$("new-token-hide").addEventListener("click", () => { $("new-token-value").textContent = ""; $("new-token").hidden = true; });
$("devices").addEventListener("click", async (e) => {
  const b = e.target.closest("[data-revoke]");
  if (!b || !confirm(gettext("Revoke this tablet? Its token stops working at once."))) return;
  if (await run(() => post(`/api/v1/devices/${b.dataset.revoke}/revoke/`, {}))) loadDevices();
});
// One account per Create, said by name; a second one typed while the first was being saved
// (hashing its password takes a second) was wiped by the first one's reset, and nothing
// said so (found by QA). The button waits for the answer, and only what was sent is cleared.
$("create-staff").addEventListener("submit", once(async (e) => {
  const body = { username: $("cs-user").value, password: $("cs-pass").value, role: $("cs-role").value };
  const ok = await run(() => post("/api/v1/staff/", body));
  if (!ok) return;
  if ($("cs-user").value === body.username && $("cs-pass").value === body.password) e.target.reset();
  showNotice(interpolate(gettext("Account %(username)s created."), { username: body.username }, true));
  loadDevices();
}));
$("staff").addEventListener("change", async (e) => {
  const sel = e.target.closest("[data-role]");
  if (sel && await run(() => patch(`/api/v1/staff/${sel.dataset.role}/`, { role: sel.value }))) showNotice(gettext("Role changed."));
});
$("staff").addEventListener("click", async (e) => {
  const b = e.target.closest("[data-lock]");
  if (!b) return;
  const [id, active] = b.dataset.lock.split(":");
  if (await run(() => patch(`/api/v1/staff/${id}/`, { is_active: active === "1" }))) loadDevices();
});
