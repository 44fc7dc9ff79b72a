// The tournament director's console (issue #13): publish from a structure (with re-entry,
// rebuys, an add-on, a bounty and a guarantee when the director unfolds them), registration and
// late registration, start, pause/resume, breaks, hand-for-hand, close late registration;
// the clock; the table plan with the balancing moves to make; eliminations and payouts;
// deals (DEAL-1..11), penalties and flags (PEN-1..16), holds on winnings (ELIM-9), the lobby
// start time (TREG-5), a crash rollback (CXL-1) and cancellation with its settlement (CXL-2..9).
// A client of the public API and of the feed /ws/tournaments/<id>/ (resumed from version 0
// on first connect, so the page sees every move decided so far; reconnects resume).
import { get, post } from "../casino/api.js";
import { Feed } from "../casino/feed.js";
import { amount, currency, dateTime, esc, number, roomTimeInput, roomTimeToUtc, seconds, time } from "../casino/fmt.js";
import { showError } from "../casino/shell.js";
import { intent } from "../casino/intent.js";
import { label, learn } from "../casino/names.js";
import { lateRegistrationText } from "./clock.js";
import { buysOffered } from "./offers.js";

const T = JSON.parse(document.getElementById("page-i18n").textContent);
const STRUCTURES = JSON.parse(document.getElementById("structures").textContent);
const $ = (id) => document.getElementById(id);

let tid = null;
let tournament = null;
let entries = [];
let clock = null;
let clockAt = 0;
let feed = null;
let moves = [];
let races = []; // the chip races (ChipRaceRun) from the feed, oldest first
let seats = new Map(); // player id -> { table, seat }, from the feed
let refreshTimer = null;
let bracket = null; // a heads-up event's bracket, else null
let deal = null; // GET deal/ while deals may be made, else null
let penalties = null; // GET penalties/ once it runs
let owed = []; // GET payments/: what the cage still owes (held or not)
let settlement = null; // GET settlement/ once cancelled
const doneKey = () => `director-moves-done-${tid}`;
const done = () => new Set(JSON.parse(localStorage.getItem(doneKey()) || "[]"));

// --- publishing from a structure -----------------------------------------------------------

$("n-structure").innerHTML = STRUCTURES.map((s) => `<option value="${s.key}">${esc(s.label)}</option>`).join("");
function structure() { return STRUCTURES.find((s) => s.key === $("n-structure").value); }
function fillFromStructure() {
  const s = structure();
  $("n-stack").value = s.starting_stack;
  $("n-minutes").value = s.levels[0].minutes;
  preview();
  placeholders();
}
function preview() {
  const s = structure();
  const first = s.levels.slice(0, 4).map((l) => `${number(l.small_blind)}/${number(l.big_blind)}`).join(", ");
  $("n-preview").textContent = `${s.levels.length} × ${$("n-minutes").value} min: ${first}, …`;
}

// Re-entry (TREG-9), rebuys (TREG-14), an add-on (CLK-5), a bounty (BNTY-1) and a
// guarantee, folded away so that the simple case stays simple. A section's fields take part
// only while its box is ticked (disabled fields are neither checked nor sent); a blank field
// takes the value of the field its data-default names (a re-entry costs the buy-in and fee,
// a rebuy runs until late registration closes, the add-on follows the last rebuy level),
// shown as its placeholder.
function valueOf(id) {
  const el = $(id);
  if (el.value !== "" && !el.matches(":disabled")) return Number(el.value);
  return el.dataset.default ? valueOf(el.dataset.default) : null;
}
function placeholders() {
  for (const el of document.querySelectorAll("#new-form input[data-default]")) {
    const v = valueOf(el.dataset.default);
    el.placeholder = v === null ? "" : String(v);
  }
}
function bountyFields() {
  const kind = $("n-bounty").value;
  $("n-bounty-amount").disabled = kind === "none";
  $("n-bounty-cash").disabled = kind !== "progressive";
  $("n-bounty-cash-box").hidden = kind !== "progressive";
}
for (const box of document.querySelectorAll("#new-form input[data-fields]")) {
  box.addEventListener("change", () => { $(box.dataset.fields).disabled = !box.checked; placeholders(); });
}
$("n-bounty").addEventListener("change", bountyFields);
$("new-form").addEventListener("input", placeholders);
// a field the browser refuses may be folded away: unfold it so that it can say why
$("new-form").addEventListener("invalid", (e) => {
  const box = e.target.closest("details");
  if (box) box.open = true;
}, true);

// The sub-objects of the configuration the director ticked, in whole CZK, chips and levels;
// a level left blank with nothing to follow is not sent, so the server says what is missing.
function entryOptions(body) {
  const v = valueOf;
  if ($("n-re").checked) {
    body.reentry = { allowed: true, max_per_player: v("n-re-max"), price: v("n-re-price"), fee: v("n-re-fee"), stack: v("n-re-stack") };
    if (v("n-re-until") !== null) body.reentry.until_level = v("n-re-until"); // else while late registration is open
  }
  if ($("n-rb").checked) {
    body.rebuy = { allowed: true, max_per_player: v("n-rb-max"), price: v("n-rb-price"), fee: v("n-rb-fee"), stack: v("n-rb-stack") };
    if (v("n-rb-until") !== null) body.rebuy.until_level = v("n-rb-until");
    if ($("n-rb-threshold").value !== "") body.rebuy.stack_threshold = Number($("n-rb-threshold").value); // else the starting stack
  }
  if ($("n-ao").checked) {
    body.add_on = { allowed: true, price: v("n-ao-price"), fee: v("n-ao-fee"), stack: v("n-ao-stack") };
    if (v("n-ao-level") !== null) body.add_on.at_level = v("n-ao-level");
    if ($("n-ao-break").value !== "") body.add_on.break_minutes = Number($("n-ao-break").value);
  }
  const kind = $("n-bounty").value;
  if (kind !== "none") {
    body.bounty = { kind, amount: Number($("n-bounty-amount").value) };
    if (kind === "progressive") body.bounty.progressive_cash_bp = Math.round(Number($("n-bounty-cash").value) * 100);
  }
  const guarantee = Number($("n-guarantee").value || 0);
  if (guarantee > 0) body.guarantee = guarantee;
}

$("n-structure").addEventListener("change", fillFromStructure);
$("n-minutes").addEventListener("input", preview);
fillFromStructure();
bountyFields();

$("new-toggle").addEventListener("click", () => {
  const card = $("new-card");
  card.hidden = !card.hidden;
  $("new-toggle").setAttribute("aria-expanded", String(!card.hidden));
  if (!card.hidden) $("n-name").focus();
});

$("new-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const s = structure();
  const minutes = Number($("n-minutes").value);
  const body = {
    name: $("n-name").value.trim(),
    buy_in: Number($("n-buy-in").value),
    fee: Number($("n-fee").value),
    starting_stack: Number($("n-stack").value),
    levels: s.levels.map((l) => ({ ...l, minutes })),
    breaks: s.breaks,
    table_size: Number($("n-table-size").value),
  };
  if ($("n-min").value) body.min_entrants = Number($("n-min").value);
  if ($("n-format").value === "headsup") { // HU-1: two seats a match, nobody joins later
    Object.assign(body, { format: "headsup", table_size: 2 });
  } else if ($("n-late").value) body.late_reg_until_level = Number($("n-late").value);
  if ($("n-satellite").value) body.satellite_target = Number($("n-satellite").value); // TREG-11
  // CR-1: the chips in play; each break colours up the smallest one no later level needs.
  // A word that is no number goes as it is, for the server to say what is wrong with it.
  const chips = $("n-denominations").value.split(/[\s,;]+/).filter(Boolean);
  if (chips.length) body.denominations = chips.map((c) => (/^\d+$/.test(c) ? Number(c) : c));
  entryOptions(body);
  intent(e.submitter, $("new-result"), () => post("/api/v1/tournaments/", body), async (t) => {
    $("new-card").hidden = true;
    await loadList(t.tournament_id);
  });
});

// --- choosing a tournament ------------------------------------------------------------------

// The tournaments to choose from (newest first), and the events a satellite may feed.
async function fillList() {
  const list = await get("/api/v1/tournaments/");
  const target = $("n-satellite").value;
  $("n-satellite").innerHTML = $("n-satellite").options[0].outerHTML + list
    .filter((t) => t.status === "registering" || t.status === "running").reverse()
    .map((t) => `<option value="${t.tournament_id}">${esc(t.name)}</option>`).join("");
  $("n-satellite").value = target;
  const el = $("t-select");
  const current = el.value;
  el.innerHTML = `<option value="">—</option>` + list.slice().reverse().map((t) =>
    `<option value="${t.tournament_id}">${esc(t.name)} · ${esc(T[t.status] || t.status)}</option>`).join("");
  el.value = current;
  return list;
}

async function loadList(select) {
  const list = await fillList();
  const el = $("t-select");
  const wanted = String(select || new URLSearchParams(location.search).get("t") || (list.length ? list[list.length - 1].tournament_id : ""));
  if (list.some((t) => String(t.tournament_id) === wanted)) el.value = wanted;
  open(el.value);
}

$("t-select").addEventListener("change", () => open($("t-select").value));
// a tournament published on another console appears within half a minute (never while
// the director has the list open)
setInterval(() => { if (document.activeElement !== $("t-select")) fillList().catch(() => {}); }, 30_000);

function open(id) {
  if (feed) feed.stop();
  feed = null;
  tid = id ? Number(id) : null;
  $("tournament").hidden = !tid;
  $("choose").textContent = tid ? "" : T.choose;
  $("board-link").hidden = $("chips-link").hidden = !tid;
  if (!tid) return;
  history.replaceState(null, "", `?t=${tid}`);
  $("board-link").href = `/board/tournament/${tid}/`;
  $("chips-link").href = `/board/tournament/${tid}/chips/`;
  moves = [];
  races = [];
  seats = new Map();
  tournament = null;
  const stream = `tournament-${tid}`;
  feed = new Feed(`/ws/tournaments/${tid}/`, {
    onSnapshot(state) { setTournament(state.tournament); refreshSoon(); },
    onEvent(msg) {
      if (msg.type === "clock") { setClock(msg.clock); return; }
      if (msg.type !== "event") return;
      followSeats(msg);
      refreshSoon(msg.event_type === "tournaments.DealDiscussionStarted" ? 0 : 250);
    },
    onError(msg) { showError(new Error(msg.detail || msg.code)); },
  });
  feed.adopt(stream, 0); // first connect: every event since the start (the moves so far)
  feed.start();
  refreshSoon(0);
}

// Where each player sits, followed from the feed (which starts at the tournament's first
// event), so that every move to make names where he comes from: a balancing or broken-table
// move (PlayerMoved), and each new seat of the final-table redraw (TSEAT-8), which has no
// PlayerMoved of its own.
function followSeats(msg) {
  const d = msg.data || {};
  const at = (p) => seats.get(p) || {};
  switch (msg.event_type) {
    case "tournaments.TournamentStarted":
    case "tournaments.MatchSeated":
      for (const a of d.seats || []) seats.set(a.player_id, { table: a.table_id, seat: a.seat });
      break;
    case "tournaments.LateEntrySeated":
    case "tournaments.PlayerReinstated": // a rebuy after the bust: back in his seat (TREG-14)
      seats.set(d.player_id, { table: d.table_id, seat: d.seat });
      break;
    case "tournaments.PlayerMoved":
      moves.push({ version: msg.version, at: msg.recorded_at, ...d });
      seats.set(d.player_id, { table: d.to_table, seat: d.to_seat });
      break;
    case "tournaments.FinalTableRedrawn":
      for (const a of d.seats || []) {
        const from = at(a.player_id);
        if (from.table !== a.table_id || from.seat !== a.seat) {
          moves.push({ version: msg.version, at: msg.recorded_at, player_id: a.player_id, reason: "final_table",
            from_table: from.table, from_seat: from.seat, to_table: a.table_id, to_seat: a.seat });
        }
        seats.set(a.player_id, { table: a.table_id, seat: a.seat });
      }
      break;
    case "tournaments.PlayerEliminated":
    case "tournaments.PlayerDisqualified":
      seats.delete(d.player_id);
      for (const m of moves) if (m.player_id === d.player_id) m.settled = true; // he is gone
      break;
    case "tournaments.ChipRaceRun":
      races.push({ at: msg.recorded_at, ...d });
      break;
    case "tournaments.TableHandStarted":
      // the table the player moved to dealt a hand since: he has taken his new seat
      for (const m of moves) if (m.to_table === d.table_id && m.version < msg.version) m.settled = true;
      break;
    default:
  }
  if (msg.event_type === "tournaments.PlayerMoved" || msg.event_type === "tournaments.FinalTableRedrawn") {
    const movedNow = new Set(moves.filter((m) => m.version === msg.version).map((m) => m.player_id));
    for (const m of moves) if (m.version < msg.version && movedNow.has(m.player_id)) m.settled = true; // moved on again
  }
}

// After events (many at once on a resume), read the tournament and its entries again.
function refreshSoon(delay = 250) {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => refresh().catch(showError), delay);
}

let refreshes = 0; // reads may finish out of order: only the latest one started is shown
async function refresh() {
  if (!tid) return;
  const id = tid;
  const mine = ++refreshes;
  const [t, e] = await Promise.all([get(`/api/v1/tournaments/${id}/`), get(`/api/v1/tournaments/${id}/entries/`)]);
  await learn(e.map((x) => x.player_id)).catch(() => {}); // names are a nicety: ids stay
  const headsUp = t.config && t.config.format === "headsup";
  const b = headsUp ? await get(`/api/v1/tournaments/${id}/bracket/`) : null;
  const base = `/api/v1/tournaments/${id}`;
  const started = t.status !== "registering";
  const [d, p, o, x] = await Promise.all([
    started && t.config.deals_allowed !== false ? get(`${base}/deal/`) : null,
    started ? get(`${base}/penalties/`) : null,
    started ? get(`${base}/payments/`) : [],
    t.status === "cancelled" ? get(`${base}/settlement/`) : null,
  ]);
  if (id !== tid || mine !== refreshes) return; // another tournament, or a newer read
  entries = e;
  bracket = b;
  deal = d;
  penalties = p;
  owed = o;
  settlement = x;
  setTournament(t);
}

// --- a heads-up bracket (HU-1..4): rounds side by side, each match with its table -------------

function renderBracket() {
  $("bracket-card").hidden = !bracket;
  if (!bracket) return;
  const who = (p) => (p ? esc(label(p)) : `<span class="muted">${esc(T.waiting)}</span>`);
  $("bracket-byes").textContent = bracket.byes.length
    ? `${T.byes}: ${bracket.byes.map((p) => label(p)).join(", ")}` : "";
  const rounds = [];
  for (let r = 1; r <= bracket.rounds; r++) rounds.push(bracket.matches.filter((m) => m.round === r));
  $("bracket").innerHTML = rounds.map((list, i) => `<div class="tbl" data-round="${i + 1}">
    <h4>${esc(T.round)} ${i + 1}</h4><ol>${list.map((m) => `<li data-match="${m.match_id}">
      <span>${[m.a, m.b].map((p) => (p && p === m.winner ? `<strong>${who(p)}</strong>` : who(p))).join(" – ")}</span>
      <span class="muted small">${m.winner ? (m.ended_by === "inactivity" ? esc(T.inactivity) : "✓")
        : m.table_id ? `${esc(T.table)} ${m.table_id}` : ""}</span></li>`).join("")}</ol></div>`).join("")
    + (bracket.champion ? `<div class="tbl"><h4>${esc(T.champion)}</h4><p><strong>${who(bracket.champion)}</strong></p></div>` : "");
}

function setTournament(t) {
  tournament = t;
  // the list's entry says its status too: keep it in step (found by QA: "registering"
  // stayed after the start until a reload)
  const option = $("t-select").querySelector(`option[value="${t.tournament_id}"]`);
  if (option) option.textContent = `${t.name} · ${T[t.status] || t.status}`;
  setClock(t.clock);
  renderStatus();
  renderOptions();
  renderLevels();
  renderTables();
  renderBracket();
  renderDeal();
  renderPenalties();
  renderHolds();
  renderEvent();
}

// --- the clock ------------------------------------------------------------------------------

function setClock(c) {
  clock = c;
  clockAt = performance.now();
  const ante = c.ante ? ` · ${c.ante_type === "big_blind_ante" ? T.bbAnte : T.ante} ${number(c.ante)}` : "";
  const before = !tournament || tournament.status === "registering";
  const over = ended();
  $("clock-level").textContent = over ? T[tournament.status] : c.on_break ? T.break : before ? T.registrationOpen : `${T.level} ${c.level}`;
  $("clock-blinds").textContent = over ? "" : `${number(c.small_blind)}/${number(c.big_blind)}${ante}`;
  $("c-players").textContent = before ? number(c.entries) : `${number(c.players_left)} / ${number(c.entries)}`;
  $("c-average").textContent = before ? "—" : `${number(c.average_stack)}`;
  $("c-pool").textContent = amount(c.prize_pool);
  $("c-paid").textContent = number(c.places_paid);
  $("c-late").textContent = lateRegistrationText(c, tournament && tournament.status, T);
  $("c-next").textContent = c.next_break_at ? time(c.next_break_at).slice(0, 5) : "—";
  const flags = [];
  if (c.paused) flags.push(T.paused);
  if (c.on_break) flags.push(T.break);
  else if (c.break_due) flags.push(T.breakDue);
  if (c.hand_for_hand) flags.push(T.handForHand);
  if (deal && deal.discussing && !deal.agreed) flags.push(T.dealDiscussion); // DEAL-4: the director is alerted
  $("clock-flags").innerHTML = flags.map((f) => `<span class="flag">${esc(f)}</span>`).join(" ");
  $("hfh").textContent = `${T.handForHand}: ${c.hand_for_hand ? T.on : T.off}`;
  $("hfh").setAttribute("aria-pressed", String(c.hand_for_hand));
  if (tournament) renderStatus();
  tick();
}

// What the tournament offers beside the entry, as published: re-entry, rebuys, the add-on
// (each with its price + fee), the bounty and the guarantee.
function renderOptions() {
  const c = tournament.config || {};
  const money = (r) => `${number(r.price)} + ${number(r.fee)} ${currency}`;
  const times = (n) => (n ? `${n}× ${T.perPlayer}` : T.unlimited);
  const re = c.reentry || {}, rb = c.rebuy || {}, ao = c.add_on || {}, b = c.bounty || {};
  const buys = [
    re.allowed ? `${T.reEntry}: ${times(re.max_per_player)}${re.until_level ? `, ${T.toLevel} ${re.until_level}` : ""}, ${money(re)}` : null,
    rb.allowed ? `${T.rebuy}: ${times(rb.max_per_player)}, ${T.toLevel} ${rb.until_level}, ${money(rb)}` : null,
    ao.allowed ? `${T.addOn}: ${T.atLevel} ${ao.at_level}, ${money(ao)}` : null,
  ].filter(Boolean);
  const cash = b.kind === "progressive" ? ` (${number(b.progressive_cash_bp / 100)} % ${T.inCash})` : "";
  const bounty = [
    b.kind && b.kind !== "none" ? `${T[`bounty_${b.kind}`] || b.kind} ${amount(b.amount)}${cash}` : null,
    tournament.guarantee > 0 ? `${T.guarantee} ${amount(tournament.guarantee)}` : null,
  ].filter(Boolean);
  $("c-buys").innerHTML = buys.length ? buys.map(esc).join("<br>") : "—";
  $("c-bounty").innerHTML = bounty.length ? bounty.map(esc).join("<br>") : "—";
}

// A finished or cancelled tournament has no clock (its last level's time would read as a
// clock stopped by mistake).
function ended() {
  return !!tournament && (tournament.status === "finished" || tournament.status === "cancelled");
}

function tick() {
  if (!clock || !tournament) return;
  if (ended()) { $("clock-time").textContent = "—"; return; }
  const live = tournament.status === "running" && !clock.paused; // a paused break is frozen too
  const base = clock.on_break ? clock.break_seconds_left : clock.seconds_left;
  const left = Math.max(0, base - (live ? (performance.now() - clockAt) / 1000 : 0));
  const byHands = clock.hands_left !== null && clock.hands_left !== undefined && !clock.on_break;
  $("clock-time").textContent = byHands ? `${T.handsLeft}: ${clock.hands_left}` : seconds(left);
}
setInterval(tick, 250);

// Only the commands that make sense now: start while registering; pause or resume, call a
// break or end it, while running.
function renderStatus() {
  const status = tournament.status;
  $("t-status").textContent = T[status] || status;
  const c = clock || {};
  // a break needs a running clock; hand-for-hand needs two tables to keep together
  // (TSEAT-9): the console offered both, and the server refused them (found by QA)
  const tables = (tournament.tables || []).length;
  const hide = {
    "clock/pause": c.paused, "clock/resume": !c.paused,
    // a clock that counts hands has no time to correct (SHOW-1); an ended level waits (CLK-7)
    "clock/adjustments": (c.hands_left !== null && c.hands_left !== undefined && !c.on_break)
      || (c.break_due && !c.on_break),
    breaks: c.on_break || c.break_due || c.paused, "breaks/end": !c.on_break,
    "late-registration/close": !c.late_registration_open,
    "hand-for-hand": !c.hand_for_hand && tables < 2,
  };
  for (const el of document.querySelectorAll("#controls [data-when]")) {
    const op = el.dataset.op || (el.querySelector("[data-op]") || {}).dataset?.op;
    el.hidden = el.dataset.when !== status || Boolean(hide[op]);
  }
}

// --- director's commands ----------------------------------------------------------------------

$("controls").addEventListener("click", (e) => {
  const b = e.target.closest("button[data-op]");
  if (!b || !tid) return;
  const op = b.dataset.op;
  let body = {};
  if (op === "start") {
    if (!confirm(T.confirmStart)) return;
    body = { reserve_tables: Number($("reserve").value || 0), game: $("start-game").value };
  } else if (op === "breaks") {
    body = $("break-minutes").value ? { minutes: Number($("break-minutes").value) } : {};
  } else if (op === "hand-for-hand") {
    body = { on: !(clock && clock.hand_for_hand) };
  } else if (op === "clock/adjustments") {
    body = { seconds: Number(b.dataset.seconds) };
  } else if (op === "late-registration/close") {
    if (!confirm(T.confirmCloseLate)) return; // one click closed it for good (found by QA)
  }
  intent(b, $("op-result"), () => post(`/api/v1/tournaments/${tid}/${op}/`, body), (t) => setTournament(t));
});

// --- the structure (TREG-6) -------------------------------------------------------------------
// The published levels, the one in progress marked; a level still to come may be set, or
// one added after the last (past its end the clock goes on at the last level's stakes). The
// API replaces the levels from the one named on: the form sends the levels after it too, so
// that setting level 7 of 12 keeps 8 to 12.

function levelsNow() { return ((tournament && tournament.config) || {}).levels || []; }

function firstChangeable() {
  const running = tournament && tournament.status === "running";
  return running ? ((clock && clock.level) || 0) + 1 : 1;
}

function renderLevels() {
  const levels = levelsNow();
  const current = tournament && tournament.status === "running" ? (clock && clock.level) || 0 : 0;
  // each break on its own line after the level it follows (the list had no breaks: QA)
  const config = (tournament && tournament.config) || {};
  const breaks = [...(config.breaks || [])];
  // the add-on break after its level (CLK-5), unless the structure has a break there already:
  // the clock took it, and the published structure left it out (found by QA)
  const addOn = config.add_on || {};
  if (addOn.allowed && addOn.break_minutes && !breaks.some((b) => b.after_level === addOn.at_level)) {
    breaks.push({ after_level: addOn.at_level, minutes: addOn.break_minutes, add_on: true });
  }
  $("levels").innerHTML = levels.map((lv, i) => {
    const n = i + 1;
    const ante = lv.ante ? `${number(lv.ante)}${lv.ante_type === "big_blind_ante" ? ` (${esc(T.bbAnte)})` : ""}` : "—";
    const after = breaks.filter((b) => b.after_level === n).map((b) => `<tr class="break" data-break-after="${n}">
      <td>${esc(b.add_on ? T.addOnBreak : T.break)}</td><td class="num">${b.chip_up_denomination ? `${esc(T.colourUp)} ${number(b.chip_up_denomination)}` : ""}</td><td></td><td class="num">${b.minutes}</td></tr>`).join("");
    return `<tr class="${n === current ? "current" : n < current ? "muted" : ""}"${n === current ? ' aria-current="step"' : ""}>
      <td>${n}</td><td class="num">${number(lv.small_blind)}/${number(lv.big_blind)}</td><td class="num">${ante}</td><td class="num">${lv.minutes}</td></tr>${after}`;
  }).join("");
  const open = Boolean(tournament) && ["registering", "running"].includes(tournament.status);
  $("level-form").hidden = !open;
  const number_ = $("lv-number");
  number_.min = firstChangeable();
  // another tournament chosen: its own levels, not the last one's (QA: the form kept the
  // other tournament's 25/50 and would have set them here)
  const other = number_.dataset.tournament !== String(tid);
  if (other || !number_.value || Number(number_.value) < firstChangeable()) {
    if (tournament) number_.dataset.tournament = String(tid); // once its levels are here
    number_.value = Math.max(levels.length + 1, firstChangeable());
    fillLevel();
  }
}

// The form shows the level it would replace; a new one starts from the last.
function fillLevel() {
  const levels = levelsNow();
  const n = Number($("lv-number").value);
  const lv = levels[n - 1] || levels[levels.length - 1];
  if (!lv) return;
  $("lv-sb").value = lv.small_blind;
  $("lv-bb").value = lv.big_blind;
  $("lv-ante").value = lv.ante || 0;
  $("lv-minutes").value = lv.minutes;
}
$("lv-number").addEventListener("change", fillLevel);

$("level-form").addEventListener("submit", (e) => {
  e.preventDefault();
  if (!tid) return;
  const levels = levelsNow();
  const n = Number($("lv-number").value);
  const ante = Number($("lv-ante").value || 0);
  const withAnte = [levels[n - 1], ...levels.slice().reverse()].find((lv) => lv && lv.ante_type !== "none");
  const level = {
    small_blind: Number($("lv-sb").value), big_blind: Number($("lv-bb").value), ante,
    ante_type: ante ? (withAnte ? withAnte.ante_type : "big_blind_ante") : "none",
    minutes: Number($("lv-minutes").value),
  };
  // levels past the end were played at the last level's stakes: the server keeps them so
  const body = { from_level: n, levels: [level, ...levels.slice(n)], reason: $("lv-reason").value.trim() };
  intent(e.submitter, $("level-result"), () => post(`/api/v1/tournaments/${tid}/structure/levels/`, body), (t) => {
    $("lv-number").value = "";
    $("lv-reason").value = "";
    setTournament(t);
  });
});

// --- registration -------------------------------------------------------------------------------

$("search-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    const found = await get(`/api/v1/players/search/?q=${encodeURIComponent($("player-q").value.trim())}`);
    $("player-results").innerHTML = found.length ? found.map((p) => `<li class="row">
      <span class="wide">${esc(p.name)} ${p.nickname ? `<span class="muted">(${esc(p.nickname)})</span>` : ""} <span class="muted">#${p.id}</span></span>
      <button type="button" class="btn small shrink" data-register="${p.id}">${esc(T.registerSelected)}</button>
      <button type="button" class="btn small shrink" data-register="${p.id}" data-pay="t_money">${esc(T.registerTMoney)}</button>
      ${buysFor(p.id)}</li>`).join("")
      : `<li class="muted">${esc(T.none)}</li>`;
  } catch (err) { showError(err); }
});

// What the running tournament offers this player (tournaments/offers.js), as buttons.
function buysFor(playerId) {
  const text = { "re-entries": T.reEntry, rebuys: T.rebuy, "add-ons": T.addOn };
  return buysOffered(tournament, clock, entries, playerId)
    .map(({ op, price }) => `<button type="button" class="btn small shrink" data-buy="${op}" data-player="${playerId}">${esc(text[op])} · ${amount(price)}</button>`)
    .join("");
}

$("player-results").addEventListener("click", (e) => {
  const buy = e.target.closest("button[data-buy]");
  if (buy && tid) {
    const body = { player_id: Number(buy.dataset.player) };
    intent(buy, $("reg-result"), () => post(`/api/v1/tournaments/${tid}/${buy.dataset.buy}/`, body), () => refreshSoon(0));
    return;
  }
  const b = e.target.closest("button[data-register]");
  if (!b || !tid) return;
  const body = { player_id: Number(b.dataset.register), pay_with: b.dataset.pay || "cash" };
  intent(b, $("reg-result"), () => post(`/api/v1/tournaments/${tid}/registrations/`, body), () => refreshSoon(0));
});

$("entries").addEventListener("click", (e) => {
  const b = e.target.closest("button[data-unregister]");
  if (!b || !tid) return;
  const body = { player_id: Number(b.dataset.unregister) };
  intent(b, $("reg-result"), () => post(`/api/v1/tournaments/${tid}/unregistrations/`, body), () => refreshSoon(0));
});

// --- table plan, moves, eliminations, payouts ------------------------------------------------

// A place, or a tie's range of places ("3–4", ELIM-3).
function placeText(e) {
  if (e.place === null || e.place === undefined) return "—";
  return e.place_to && e.place_to !== e.place ? `${e.place}–${e.place_to}` : `${e.place}`;
}

// The event is over: its table plan is empty for good (it said "The tables are drawn at the
// start." after the end; found by QA).
const over = () => Boolean(tournament) && ["finished", "cancelled"].includes(tournament.status);

// BI-10: a player the draw seated here who still holds a seat elsewhere (a cash game he
// plays until the start, another event): the floor calls him over (the draw seated him
// in silence, found by QA).
function alsoSeated(e) {
  return (e.also_seated || []).map((s) => ` <span class="badge warn" data-also-seated="${s.table_id}">${esc(
    T.alsoSeated.replace("%(table)s", s.table_id).replace("%(seat)s", s.seat))}</span>`).join("");
}

function renderTables() {
  const playing = entries.filter((e) => e.status === "playing" && e.table_id);
  const tables = new Map();
  for (const e of playing) {
    if (!tables.has(e.table_id)) tables.set(e.table_id, []);
    tables.get(e.table_id).push(e);
  }
  $("plan").innerHTML = tables.size ? [...tables.entries()].sort((a, b) => a[0] - b[0]).map(([table, list]) => {
    const chips = list.reduce((s, e) => s + e.stack, 0);
    return `<div class="tbl" data-table="${table}"><h4>${esc(T.table)} ${table} · ${list.length}</h4><ol>${list.sort((a, b) => a.seat - b.seat).map((e) =>
      `<li><span>${e.seat}. ${esc(label(e.player_id))}${alsoSeated(e)}</span><span>${number(e.stack)}</span></li>`).join("")}</ol>
      <div class="muted small">Σ ${number(chips)}</div></div>`;
  }).join("") : `<p class="muted">${esc(over() ? T[tournament.status] || tournament.status : T.noTables)}</p>`;

  // A move is done when the director ticks it (kept in this browser), when the table the
  // player moved to deals its next hand, or when he moves on or is out: only the moves still
  // to make are listed, the last done ones folded away below them.
  const finished = done();
  const moveItem = (m, ok) => {
    const key = `${m.version}:${m.player_id}`;
    return `<li class="${ok ? "muted" : "todo"}"><label><input type="checkbox" data-move="${key}" ${ok ? "checked" : ""} ${m.settled ? "disabled" : ""}>
      ${esc(T.moves)} ${esc(label(m.player_id))}: ${m.from_table ? `${esc(T.table)} ${m.from_table} ${esc(T.seat)} ${m.from_seat}` : "?"} → ${esc(T.table)} ${m.to_table} ${esc(T.seat)} ${m.to_seat}
      <span class="muted small">(${esc(T[m.reason] || m.reason)}, ${time(m.at)})</span></label></li>`;
  };
  const isDone = (m) => m.settled || finished.has(`${m.version}:${m.player_id}`);
  const toMake = moves.filter((m) => !isDone(m)).reverse();
  const made = moves.filter(isDone).reverse();
  $("moves").innerHTML = toMake.length ? toMake.map((m) => moveItem(m, false)).join("") : `<li class="muted">${esc(T.noMoves)}</li>`;
  $("moves-done").hidden = !made.length;
  $("moves-done-count").textContent = made.length;
  $("moves-done-list").innerHTML = made.slice(0, MOVES_DONE_SHOWN).map((m) => moveItem(m, true)).join("");
  renderRaces();
  renderSeatFix(playing);

  const out = entries.filter((e) => e.status === "eliminated").sort((a, b) => (a.place || 1e9) - (b.place || 1e9));
  // places given while late registration is open move down as entries arrive (ELIM-2)
  const provisional = tournament && tournament.status === "running" && clock && clock.late_registration_open
    ? ` <span class="muted small">(${esc(T.provisional)})</span>` : "";
  $("eliminations").innerHTML = out.length ? out.map((e) => `<tr><td>${placeText(e)}${provisional}</td>
    <td>${esc(label(e.player_id))}</td><td>${e.entry_number}</td><td class="num">${e.prize ? amount(e.prize) : "—"}</td></tr>`).join("")
    : `<tr class="muted"><td colspan="4">${esc(T.noEliminations)}</td></tr>`;

  const paid = entries.filter((e) => e.prize).sort((a, b) => a.place - b.place);
  $("payouts").innerHTML = paid.length ? paid.map((e) => `<tr><td>${placeText(e)}</td><td>${esc(label(e.player_id))}</td><td class="num">${amount(e.prize)}</td></tr>`).join("")
    : `<tr class="muted"><td colspan="3">${esc(T.noPayouts)} ${clock ? `(${number(clock.places_paid)} · ${amount(clock.prize_pool)})` : ""}</td></tr>`;

  $("entries").innerHTML = entries.map((e) => `<tr><td>${e.entry_number}</td><td>${esc(label(e.player_id))}</td><td>${esc(T[e.status] || e.status)}</td>
    <td class="num">${number(e.stack)}</td><td>${e.table_id ? `${e.table_id}/${e.seat}` : "—"}</td>
    <td>${e.status === "registered" && tournament && tournament.status === "registering"
      ? `<button type="button" class="btn small" data-unregister="${e.player_id}">${esc(T.unregister)}</button>` : ""}</td></tr>`).join("");
}

// The chip races run at breaks (CR-1..5), newest first: per table, the chip coloured up,
// who won a chip of the next one, and each player's cards.
function renderRaces() {
  $("races-card").hidden = !races.length;
  $("races").innerHTML = races.slice().reverse().map((r) => {
    const cards = new Map();
    for (const c of r.cards || []) cards.set(c.player_id, [...(cards.get(c.player_id) || []), c.card]);
    const who = [...cards.entries()].map(([p, list]) =>
      `${(r.winners || []).includes(p) ? "<strong>" : ""}${esc(label(p))} ${esc(list.join(" "))}${(r.winners || []).includes(p) ? ` ★</strong>` : ""}`).join(", ");
    return `<li>${esc(T.table)} ${r.table_id}: ${number(r.denomination)} → ${number(r.next_denomination)}
      <span class="muted small">(${time(r.at)})</span><br><span class="small">${who || "—"}</span></li>`;
  }).join("");
}

// Moving a player by hand, or back to his drawn seat (TSEAT-2), between hands.
function renderSeatFix(playing) {
  const running = tournament && tournament.status === "running" && (tournament.tables || []).length > 0;
  $("seat-fix").hidden = !running;
  if (!running) return;
  const keep = (id, html) => { const el = $(id); const v = el.value; el.innerHTML = html; if ([...el.options].some((o) => o.value === v)) el.value = v; };
  keep("fix-player", playing.slice().sort((a, b) => a.table_id - b.table_id || a.seat - b.seat).map((e) =>
    `<option value="${e.player_id}">${esc(label(e.player_id))} · ${esc(T.table)} ${e.table_id} ${esc(T.seat)} ${e.seat}</option>`).join(""));
  keep("fix-table", (tournament.tables || []).map((t) => `<option value="${t}">${esc(T.table)} ${t}</option>`).join(""));
  $("fix-seat").max = (tournament.config || {}).table_size || 10;
}

$("seat-fix").addEventListener("submit", (e) => {
  e.preventDefault();
  if (!tid) return;
  const body = { player_id: Number($("fix-player").value), table_id: Number($("fix-table").value), seat: Number($("fix-seat").value) };
  intent(e.submitter, $("fix-result"), () => post(`/api/v1/tournaments/${tid}/seat-corrections/`, body), (t) => {
    $("fix-seat").value = "";
    setTournament(t);
    refreshSoon(0);
  });
});

const MOVES_DONE_SHOWN = 20;
function tickMove(e) {
  const box = e.target.closest("input[data-move]");
  if (!box) return;
  const set = done();
  if (box.checked) set.add(box.dataset.move); else set.delete(box.dataset.move);
  localStorage.setItem(doneKey(), JSON.stringify([...set]));
  renderTables();
}
$("moves").addEventListener("change", tickMove);
$("moves-done").addEventListener("change", tickMove); // unticked by mistake: back to make

// --- a deal at the final table (DEAL-1..11) ---------------------------------------------------

// Shown at the final table of an event that allows deals, or once anyone asked. Each
// remaining player's request is recorded here as the floor hears it; when all have asked the
// table pauses and the console is alerted (DEAL-4). The director proposes; each player
// confirms or declines; the last confirmation makes it final (DEAL-5).
function renderDeal() {
  const playing = entries.filter((e) => e.status === "playing");
  const d = deal;
  const atFinal = tournament && tournament.status === "running" && tournament.tables.length === 1;
  const show = Boolean(d) && (atFinal || d.discussing || d.proposal || d.agreed || d.requests.length);
  $("deal-card").hidden = !show;
  if (!show) return;
  const status = d.agreed ? T.dealAgreed : d.discussing ? T.dealDiscussion
    : `${d.requests.length} / ${playing.length} ${T.dealAsked}`;
  $("deal-status").textContent = status;
  $("deal-status").className = d.discussing && !d.agreed ? "flag" : "badge";
  const asked = new Set(d.requests);
  $("deal-requests").textContent = d.requests.length
    ? `${T.dealAsked}: ${d.requests.map((p) => label(p)).join(", ")}` : "";
  $("deal-askers").innerHTML = d.discussing || d.agreed ? "" : playing.filter((e) => !asked.has(e.player_id))
    .map((e) => `<li class="row"><span>${esc(label(e.player_id))}</span>
      <button type="button" class="btn small shrink" data-deal-ask="${e.player_id}">${esc(T.asksForDeal)}</button></li>`).join("");
  const open = d.discussing && !d.agreed;
  $("deal-form").hidden = !open;
  const custom = $("deal-method").value === "custom";
  $("deal-amounts").hidden = !(open && custom);
  if (open && custom && $("deal-amounts").dataset.players !== playing.map((e) => e.player_id).join(",")) {
    $("deal-amounts").dataset.players = playing.map((e) => e.player_id).join(",");
    $("deal-amounts").innerHTML = playing.map((e) => `<div><label for="deal-amount-${e.player_id}">${esc(label(e.player_id))} (${esc(currency)})</label>
      <input id="deal-amount-${e.player_id}" type="number" min="0" data-amount="${e.player_id}" required></div>`).join("");
  }
  // hidden amounts take no part in the form (a required, empty one would block Propose)
  for (const input of $("deal-amounts").querySelectorAll("input")) input.disabled = !(open && custom);
  const shown = d.agreed || d.proposal;
  $("deal-shares").hidden = !shown;
  if (!shown) { $("deal-note").textContent = ""; return; }
  const confirmed = new Set(d.confirmations);
  $("deal-shares").tBodies[0].innerHTML = shown.shares.map((x) => `<tr><td>${esc(label(x.player_id))}</td>
    <td class="num">${number(x.chips)}</td><td class="num">${amount(x.amount)}</td><td>${
      d.agreed ? "✓" : confirmed.has(x.player_id) ? esc(T.confirmed) : `<button type="button" class="btn small" data-deal-confirm="${x.player_id}">${esc(T.confirms)}</button>
      <button type="button" class="btn small danger" data-deal-decline="${x.player_id}">${esc(T.declines)}</button>`}</td></tr>`).join("");
  const p = d.proposal || {};
  $("deal-note").textContent = [
    d.agreed ? null : `${T[p.method] || p.method}${p.icm_method === "monte_carlo" ? ` (± ${amount(Math.ceil(p.icm_standard_error))})` : ""}`,
    `${T.moneyOnTable}: ${amount(shown.money_on_table)}`,
    p.remaining_prizes ? `${T.remainingPrizes}: ${p.remaining_prizes.filter((x) => x > 0).map((x) => amount(x)).join(", ")}` : null,
  ].filter(Boolean).join(" · ");
}

$("deal-method").addEventListener("change", renderDeal);

function dealWrite(button, op, body) {
  intent(button, $("deal-result"), () => post(`/api/v1/tournaments/${tid}/deal/${op}/`, body), (d) => {
    deal = d;
    setTournament(tournament); // at once, so a second tap never repeats the same player
    refreshSoon(0);
  });
}

$("deal-card").addEventListener("click", (e) => {
  const b = e.target.closest("button");
  if (!b || !tid) return;
  if (b.dataset.dealAsk) dealWrite(b, "requests", { player_id: Number(b.dataset.dealAsk) });
  else if (b.dataset.dealConfirm) dealWrite(b, "confirmations", { player_id: Number(b.dataset.dealConfirm) });
  else if (b.dataset.dealDecline) dealWrite(b, "cancel", { player_id: Number(b.dataset.dealDecline), reason: "declined" });
  else if (b.id === "deal-off" && confirm(T.confirmDealOff)) dealWrite(b, "cancel", { reason: "director" });
});

$("deal-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const body = { method: $("deal-method").value };
  if ($("deal-money").value !== "") body.money_on_table = Number($("deal-money").value);
  if (body.method === "custom") {
    body.amounts = [...document.querySelectorAll("#deal-amounts [data-amount]")]
      .map((i) => ({ player_id: Number(i.dataset.amount), amount: Number(i.value) }));
  }
  dealWrite(e.submitter, "proposals", body);
});

// --- penalties and flags (PEN-1..16) -----------------------------------------------------------

function playerOptions(list) {
  const seen = new Set();
  return list.filter((e) => !seen.has(e.player_id) && seen.add(e.player_id))
    .map((e) => `<option value="${e.player_id}">${esc(label(e.player_id))}${e.table_id ? ` · ${esc(T.table)} ${e.table_id}/${e.seat}` : ""}</option>`).join("");
}

function keepChoice(select, html) {
  const before = select.value;
  select.innerHTML = html;
  if ([...select.options].some((o) => o.value === before)) select.value = before;
}

function renderPenalties() {
  const running = tournament && tournament.status === "running";
  $("penalty-card").hidden = !penalties;
  if (!penalties) return;
  $("penalty-form").hidden = !running;
  keepChoice($("pen-player"), playerOptions(entries.filter((e) => e.status === "playing")));
  const out = new Map(penalties.sitting_out.map((x) => [x.player_id, x.hands_left]));
  const kind = (r) => {
    const what = T[r.kind] || r.kind;
    const length = r.kind === "sit_out" ? ` · ${r.hands} ${T.hands}` : "";
    const left = r.kind === "sit_out" && out.has(r.player_id) ? ` (${T.handsLeft}: ${out.get(r.player_id)})` : "";
    const flags = [r.override ? T.override : null, r.applies_after_hand ? T.afterHand : null].filter(Boolean);
    return `${esc(what)}${length}${left}${flags.length ? ` <span class="muted small">${esc(flags.join(", "))}</span>` : ""}`;
  };
  const offence = (code) => esc(T[`offence_${code}`] || String(code).replace(/_/g, " "));
  const rows = [
    ...penalties.rulings.map((r) => [r.issued_at, `<tr data-ruling="${r.player_id}"><td>${esc(label(r.player_id))}</td><td>${kind(r)}</td>
      <td>${offence(r.offence)}</td><td>${esc(r.reason)}</td></tr>`]),
    ...penalties.flags.map((f) => [f.flagged_at, `<tr class="muted" data-flag="${f.player_id}"><td>${esc(label(f.player_id))}</td>
      <td>${esc(f.automatic ? T.flaggedBySystem : T.flagged)}</td><td>${offence(f.offence)}</td><td>${esc(f.detail)}</td></tr>`]),
  ].sort((a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0)); // newest first
  nextStep();
  $("penalties").innerHTML = rows.length ? rows.map((r) => r[1]).join("") : `<tr class="muted"><td colspan="4">${esc(T.noPenalties)}</td></tr>`;
}

// The ladder's next step for the chosen player (PEN-1/9): another kind is an override.
function nextStep() {
  const ladder = (tournament.config && tournament.config.penalty_ladder) || [];
  const pid = Number($("pen-player").value);
  const earlier = penalties.rulings.filter((r) => r.player_id === pid).length;
  const step = ladder.length ? ladder[Math.min(earlier, ladder.length - 1)] : null;
  $("pen-next").textContent = step && pid ? `${T.nextStep}: ${T[step] || step} (${T.earlier}: ${earlier})` : "";
}
$("pen-player").addEventListener("change", nextStep);
// a sit-out is given in hands or in orbits, not both (PEN-1)
$("pen-hands").addEventListener("input", () => { if (Number($("pen-hands").value)) $("pen-orbits").value = "0"; });
$("pen-orbits").addEventListener("input", () => { if (Number($("pen-orbits").value)) $("pen-hands").value = "0"; });

function penaltyWrite(button, op, body) {
  intent(button, $("pen-result"), () => post(`/api/v1/tournaments/${tid}/penalties/${op}/`, body), (p) => {
    penalties = p;
    // one ruling per incident: the next starts from the ladder again
    $("pen-reason").value = "";
    $("pen-kind").value = "";
    $("pen-hands").value = "0";
    $("pen-orbits").value = "0";
    $("pen-override").checked = false;
    renderPenalties();
    refreshSoon(0);
  });
}

$("penalty-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const body = {
    player_id: Number($("pen-player").value), offence: $("pen-offence").value.trim(),
    reason: $("pen-reason").value.trim(), hands: Number($("pen-hands").value || 0),
    orbits: Number($("pen-orbits").value || 0), override: $("pen-override").checked,
  };
  if ($("pen-kind").value) body.kind = $("pen-kind").value;
  if (body.kind && body.kind !== "sit_out") { delete body.hands; delete body.orbits; } // only a sit-out has a length (PEN-1)
  if (body.kind === "disqualification" && !confirm(T.confirmDisqualify)) return;
  penaltyWrite(e.submitter, "issue", body);
});

$("pen-flag").addEventListener("click", (e) => {
  if (!$("pen-player").value || !$("pen-offence").reportValidity() || !$("pen-reason").reportValidity()) return;
  penaltyWrite(e.currentTarget, "flags", {
    player_id: Number($("pen-player").value), offence: $("pen-offence").value.trim(), detail: $("pen-reason").value.trim(),
  });
});

// --- winnings held for a review (ELIM-9) ----------------------------------------------------------

function renderHolds() {
  $("hold-card").hidden = !tournament || tournament.status === "registering";
  if ($("hold-card").hidden) return;
  keepChoice($("hold-player"), playerOptions(entries.filter((e) => e.status !== "unregistered")));
  $("holds").innerHTML = owed.length ? owed.map((o) => `<tr data-owed="${o.player_id}"><td>${esc(label(o.player_id))}</td>
    <td class="num">${amount(o.prize + o.bounties)}</td><td>${o.held ? `<span class="flag">${esc(T.held)}</span>` : ""}</td></tr>`).join("")
    : `<tr class="muted"><td colspan="3">${esc(T.noneOwed)}</td></tr>`;
}

$("hold-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const body = { player_id: Number($("hold-player").value), reason: $("hold-reason").value.trim() };
  intent(e.submitter, $("hold-result"), () => post(`/api/v1/tournaments/${tid}/${e.submitter.dataset.hold}/`, body), () => {
    $("hold-reason").value = "";
    refreshSoon(0);
  });
});

// --- the lobby start time (TREG-5), a crash rollback (CXL-1), cancellation (CXL-2..9) -----------

function renderEvent() {
  const status = tournament.status;
  for (const form of document.querySelectorAll("#event-card form[data-when]")) {
    form.hidden = !form.dataset.when.split(" ").includes(status);
  }
  // before the start there are no chips to roll forward (CXL-2): only a rollback
  $("cx-method").querySelector("option[value=roll_forward]").hidden = status !== "running";
  if (status !== "running") $("cx-method").value = "rollback";
  const start = tournament.scheduled_start;
  if (start && !$("sch-at").value) $("sch-at").value = roomTimeInput(start);
  $("sch-at").title = start ? dateTime(start) : "";
  $("settlement").hidden = !settlement || !settlement.cancelled;
  if (status === "registering") {
    $("sch-delay").parentElement.hidden = !start; // a delay moves a time already set
  }
  if (!settlement || !settlement.cancelled) return;
  $("settlement-head").textContent = `${T[settlement.method] || settlement.method} · ${T.policy} ${settlement.policy_version}`;
  $("settlement-rows").innerHTML = settlement.shares.map((x) => `<tr><td>${esc(label(x.player_id))}</td>
    <td class="num">${amount(x.refund + x.prize)}${x.t_money ? ` <span class="muted small">(${esc(T.tMoney)} ${amount(x.t_money)})</span>` : ""}</td></tr>`).join("");
}

$("schedule-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const body = { start_at: roomTimeToUtc($("sch-at").value), delay: $("sch-delay").checked, reason: $("sch-reason").value.trim() };
  intent(e.submitter, $("event-result"), () => post(`/api/v1/tournaments/${tid}/schedule/`, body), (t) => {
    $("sch-at").value = ""; // the next change starts from the time now set, not as a delay
    $("sch-delay").checked = false;
    $("sch-reason").value = "";
    setTournament(t);
  });
});

$("rollback-form").addEventListener("submit", (e) => {
  e.preventDefault();
  if (!confirm(T.confirmRollback)) return;
  intent(e.submitter, $("event-result"), () => post(`/api/v1/tournaments/${tid}/crash-rollback/`, { reason: $("rb-reason").value.trim() }),
    () => refreshSoon(0));
});

$("cancel-form").addEventListener("submit", (e) => {
  e.preventDefault();
  if (!confirm(T.confirmCancel)) return;
  const body = { method: $("cx-method").value, reason: $("cx-reason").value.trim() };
  intent(e.submitter, $("event-result"), () => post(`/api/v1/tournaments/${tid}/cancel/`, body), () => refreshSoon(0));
});

loadList().catch(showError);
