// The cashier's console (issue #13): player search, chip sales and redemptions at the
// cage, the returning-player minimum before a buy-in (SES-7), the day's cage balance,
// tournament entries and the prizes to pay. A client of the public API only.
import { get, post } from "../casino/api.js";
import { Feed } from "../casino/feed.js";
import { amount, dateTime, esc, number, time } from "../casino/fmt.js";
import { showError } from "../casino/shell.js";
import { intent } from "../casino/intent.js";
import { label, learn } from "../casino/names.js";
import { buysOffered } from "../tournaments/offers.js";

const T = JSON.parse(document.getElementById("page-i18n").textContent);
const $ = (id) => document.getElementById(id);
let player = null; // {id, name, nickname}
let restrictions = [];
let tournaments = [];
// Who is logged in: "my movements of the day" are the journal's rows recorded by this user.
const me = document.body.dataset.user || "";

// --- players -----------------------------------------------------------------------------

async function search(q) {
  const meta = {};
  const found = await get(`/api/v1/players/search/?q=${encodeURIComponent(q)}`, { meta });
  const list = $("player-results");
  list.innerHTML = found.length
    ? found.map((p) => `<li><button type="button" class="pick" data-id="${p.id}"
        data-name="${esc(p.name)}" data-nickname="${esc(p.nickname)}">${esc(p.name)}
        ${p.nickname ? `<span class="muted">(${esc(p.nickname)})</span>` : ""}
        <span class="muted">#${p.id}</span></button></li>`).join("")
    : `<li class="muted">${esc(T.none)}</li>`;
  // the server lists at most 20: say that the list was cut, so nobody picks a namesake
  // believing he was the only one (found by QA)
  if (meta.total > found.length) {
    list.insertAdjacentHTML("beforeend", `<li class="muted cut">${esc(T.cut
      .replace("%(shown)s", String(found.length)).replace("%(total)s", String(meta.total)))}</li>`);
  }
}

// an empty search asks for a name: it answered "No players found." (found by QA)
$("player-q").addEventListener("input", () => $("player-q").setCustomValidity(""));
$("search-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const q = $("player-q").value.trim();
  if (!q) {
    $("player-q").setCustomValidity(T.searchNeeded);
    $("player-q").reportValidity();
    return;
  }
  search(q).catch(showError);
});

$("player-results").addEventListener("click", (e) => {
  const b = e.target.closest("button.pick");
  if (!b) return;
  choose({ id: Number(b.dataset.id), name: b.dataset.name, nickname: b.dataset.nickname });
});

// A new player: a blank name is said, not ignored; a name already registered is shown
// (the results list) and asked about, so nobody is registered twice by accident and his
// chips split over two records (found by QA).
$("new-name").addEventListener("input", () => $("new-name").setCustomValidity(""));
// While the name is being checked the button is disabled and a second submit does nothing:
// a double click passed the check twice and registered the player twice (found by QA).
// intent() then keeps it disabled until the registration is settled.
let checkingName = false;
$("new-player-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  if (checkingName) return;
  const body = { name: $("new-name").value.trim(), nickname: $("new-nick").value.trim() };
  if (!body.name) {
    $("new-name").setCustomValidity(T.nameNeeded);
    $("new-name").reportValidity();
    return;
  }
  // a registration whose answer was lost waits for Retry (the same Idempotency-Key) or
  // Discard: pressed again it would register the player twice (found by QA)
  if ($("new-result").querySelector("button")) { $("new-result").querySelector("button").focus(); return; }
  // the last registration's line is not this one's (it stayed under a dismissed question)
  $("new-result").className = "result";
  $("new-result").textContent = "";
  checkingName = true;
  $("new-submit").disabled = true;
  let register = false;
  try {
    // the same name as the search compares it: any case, no accents ("Novák" = "novak")
    const meta = {};
    const same = await get(`/api/v1/players/search/?name=${encodeURIComponent(body.name)}`, { meta });
    if (same.length) {
      await search(body.name);
      const count = String(Math.max(meta.total || 0, same.length));
      if (!window.confirm(T.sameName.replace("%(name)s", body.name).replace("%(count)s", count))) return;
    }
    register = true;
  } catch (err) {
    showError(err);
    return;
  } finally {
    checkingName = false;
    if (!register) $("new-submit").disabled = false;
  }
  intent($("new-submit"), $("new-result"), () => post("/api/v1/players/", body), (p) => {
    e.target.reset();
    // his number, the one he is asked for at the tables, said where the cashier looks (QA)
    $("new-result").textContent = T.newPlayerNumber.replace("%(id)s", String(p.id));
    choose(p);
  });
});

async function choose(p) {
  player = p;
  $("player-card").hidden = false;
  $("player-name").textContent = p.name + (p.nickname ? ` (${p.nickname})` : "");
  $("player-id").textContent = `#${p.id}`;
  $("player-results").innerHTML = "";
  // enabled, unless a write whose answer was lost waits for Retry or Discard (intent.js)
  $("sale-submit").disabled = Boolean($("sale-result").querySelector("button"));
  $("redeem-submit").disabled = Boolean($("redeem-result").querySelector("button"));
  // the last player's "Done." is not this player's (a lost answer's Retry stays)
  for (const id of ["sale-result", "redeem-result", "t-result"]) {
    if ($(id).classList.contains("ok")) { $(id).className = "result"; $(id).textContent = ""; }
  }
  $("sale-amount").focus(); // the keyboard goes on where the cashier works next (QA)
  // a reload keeps the player (found by QA: the card was gone after a reload)
  const params = new URLSearchParams(location.search);
  if (params.get("player") !== String(p.id)) { params.delete("amount"); params.set("player", String(p.id)); }
  history.replaceState(null, "", `${location.pathname}?${params}`);
  await Promise.all([loadRestrictions(), loadSessions()]).catch(showError);
  renderEntries();
}

// The card is read again with the day's figures and when the cashier comes back to the page:
// a player cashed out at his table meanwhile showed "Seated" and no returning minimum until
// he was searched again (found by QA, SES-7). The game chosen for the sale stays chosen.
async function refreshPlayer() {
  if (!player) return;
  const chosen = selectedGame();
  await Promise.all([loadRestrictions(), loadSessions()]);
  const same = chosen ? restrictions.findIndex((r) => r.game === chosen.game
    && r.small_blind === chosen.small_blind && r.big_blind === chosen.big_blind) : -1;
  if (same >= 0) { $("sale-for").value = String(same); checkMinimum(); }
}

async function loadRestrictions() {
  restrictions = await get(`/api/v1/players/${player.id}/buy-in-restrictions/`);
  const box = $("restrictions");
  box.innerHTML = restrictions.length
    ? `<div class="rule-box" data-rule="SES-7"><strong>${esc(T.returning)}</strong><ul>${restrictions.map((r) => `
        <li>${esc(r.game)} ${number(r.small_blind)}/${number(r.big_blind)}:
          ${esc(T.leftWith)} <strong class="amount-required">${amount(r.amount_required)}</strong>
          ${esc(T.at)} ${time(r.left_at).slice(0, 5)} · ${esc(T.minimumUntil)} ${time(r.until).slice(0, 5)}</li>`).join("")}
       </ul></div>`
    : `<p class="muted">${esc(T.noRestriction)}</p>`;
  const select = $("sale-for");
  select.innerHTML = `<option value="">${esc(T.chipsOnly)}</option>` + restrictions.map((r, i) =>
    `<option value="${i}">${esc(r.game)} ${number(r.small_blind)}/${number(r.big_blind)} — ${esc(T.min)} ${amount(r.amount_required)}</option>`).join("");
  if (restrictions.length) select.value = "0";
  checkMinimum();
}

async function loadSessions() {
  const sessions = await get(`/api/v1/players/${player.id}/cash-sessions/`);
  const open = sessions.filter((s) => !s.left_at);
  $("sessions").textContent = open.length
    ? open.map((s) => `${T.seated} ${s.game} ${s.small_blind}/${s.big_blind}, ${T.table} ${s.table_id}, ${T.seat} ${s.seat}`).join("; ")
    : `${T.notSeated} · ${T.sessions}: ${sessions.length}`;
}

// --- the cage ----------------------------------------------------------------------------

function selectedGame() {
  const v = $("sale-for").value;
  return v === "" ? null : restrictions[Number(v)];
}

function checkMinimum() {
  const r = selectedGame();
  const el = $("sale-minimum");
  if (!r) { el.hidden = true; return; }
  const value = Number($("sale-amount").value || 0);
  // the chips he already holds count toward it: he buys only the rest (found by QA)
  const held = r.chips_held || 0;
  const toBuy = Math.max(0, r.amount_required - held);
  const below = value > 0 && value < toBuy;
  el.hidden = false;
  el.className = below ? "minimum below" : "minimum";
  const holds = held > 0 ? ` ${esc(T.heHolds)} <strong>${amount(held)}</strong>, ${esc(T.toBuy)} <strong data-to-buy="${toBuy}">${amount(toBuy)}</strong>.` : "";
  el.innerHTML = `<span class="rule-tag">SES-7</span> ${esc(T.minimumIs)} <strong>${amount(r.amount_required)}</strong>.${holds}${below ? ` — ${esc(T.belowMinimum)}` : ""}`;
}
$("sale-amount").addEventListener("input", checkMinimum);
$("sale-for").addEventListener("change", checkMinimum);

function showBalance(b) {
  $("cage-day").textContent = b.day;
  for (const k of ["cash_in", "cash_out", "table_drop", "chips_issued", "chips_at_tables", "house_chips", "dealer_fees", "chips_with_players",
    "tournament_cash_in", "tournament_cash_out", "tournament_fees", "tournament_money_held", "tournament_t_money_outstanding"]) {
    $(`cage-${k}`).textContent = amount(b[k]);
  }
  const rec = $("cage-reconciled");
  rec.innerHTML = b.reconciled === null ? "—"
    : b.reconciled ? `<span class="badge ok">${esc(T.yes)}</span>` : `<span class="badge bad">${esc(T.no)}</span>`;
}

// The cage's journal of the balance's day (GET /cage/journal/), the books: "my movements
// of the day" (this user's, one line per operation with its net amount) and, opened, every
// desk's movements with who recorded each and the day's cash totals. It replaced a list
// kept in the browser, which showed a previous cashier's lines after a hand-over, only
// the last 12, and a sale under the player picked while it was on its way (found by QA).
function kindsOf(rows) {
  const words = rows.map((r) => T.kinds[r.kind] || r.kind);
  const t = rows.find((r) => r.tournament_id);
  return `${words.join(" + ")}${t ? ` · ${T.tournament} #${t.tournament_id}` : ""}`;
}

function renderMine(rows) {
  const operations = new Map(); // request -> its rows: an entry's buy-in, fee and bounty
  for (const r of rows) {
    if (r.actor_name !== me) continue;
    const key = r.request_id || `@${r.position}`;
    if (!operations.has(key)) operations.set(key, []);
    operations.get(key).push(r);
  }
  const lines = [...operations.values()].reverse(); // newest first
  $("journal").innerHTML = lines.length ? lines.map((op) => {
    const net = op.reduce((sum, r) => sum + (r.cash ? (r.direction === "in" ? r.amount : -r.amount) : 0), 0);
    return `<tr><td>${time(op[0].at)}</td><td>${esc(label(op[0].player_id))}</td><td>${esc(kindsOf(op))}</td>
      <td class="num">${amount(net)}</td></tr>`;
  }).join("") : `<tr class="muted"><td colspan="4">${esc(T.nothingYet)}</td></tr>`;
}

function renderBooks(rows) {
  const newest = [...rows].reverse();
  $("cage-journal").innerHTML = newest.length ? newest.map((r) => {
    const what = `${esc(T.kinds[r.kind] || r.kind)}${r.tournament_id ? ` · ${esc(T.tournament)} #${r.tournament_id}` : ""}${r.cash ? "" : ` (${esc(T.notCash)})`}`;
    const value = number(r.amount); // the currency is in the column's head: the books fit 1024 px
    return `<tr><td class="time">${time(r.at)}</td><td>${esc(label(r.player_id))}</td><td>${what}</td>
      <td class="num">${r.direction === "in" ? value : ""}</td><td class="num">${r.direction === "out" ? value : ""}</td>
      <td>${esc(r.actor_name || r.actor)}</td></tr>`;
  }).join("") : `<tr class="muted"><td colspan="6">${esc(T.nothingYet)}</td></tr>`;
  const cash = (direction) => rows.reduce((sum, r) => sum + (r.cash && r.direction === direction ? r.amount : 0), 0);
  $("cage-journal-total").innerHTML = rows.length ? `<tr><th colspan="3">${esc(T.cashTotal)}</th>
    <th class="num">${number(cash("in"))}</th><th class="num">${number(cash("out"))}</th><th></th></tr>` : "";
}

async function loadJournal(day) {
  const range = `date_from=${day}&date_to=${day}`;
  $("cage-journal-csv").href = `/api/v1/cage/journal/?format=csv&${range}`;
  const rows = [];
  let url = `/api/v1/cage/journal/?${range}&page_size=1000`;
  while (url) {
    const page = await get(url);
    rows.push(...page.results);
    url = page.next ? new URL(page.next).pathname + new URL(page.next).search : null;
  }
  await learn(rows.map((r) => r.player_id));
  renderMine(rows);
  renderBooks(rows);
}

// The balance and journal of a business day: today unless the cashier picks an earlier
// one (a shift past the day's cut-off still sees its start).
const loadBalance = () => {
  const picked = $("cage-day-pick").value;
  return get(`/api/v1/cage/balance/${picked ? `?day=${picked}` : ""}`)
    .then((b) => { showBalance(b); return loadJournal(b.day); })
    .catch(showError);
};
// A write is recorded today: after one the figures go back to today, where it shows (QA: a
// sale made with an earlier day shown appeared nowhere, and could have been made again).
const loadToday = () => {
  $("cage-day-pick").value = "";
  return loadBalance();
};
$("cage-refresh").addEventListener("click", loadBalance);
$("cage-day-pick").addEventListener("change", loadBalance);

$("sale-form").addEventListener("submit", (e) => {
  e.preventDefault();
  if (!player) return;
  const value = Number($("sale-amount").value);
  const r = selectedGame();
  const body = { player_id: player.id, amount: value };
  if (r) body.buy_in_for = { game: r.game, small_blind: r.small_blind, big_blind: r.big_blind };
  intent($("sale-submit"), $("sale-result"), () => post("/api/v1/cage/sales/", body), () => {
    loadToday();
    $("sale-amount").value = "";
    refreshPlayer().catch(showError); // the chips he holds changed: so did his SES-7 minimum
  });
});

// A write kept across a reload (intent.js) settled by its Retry: the balance and the
// player's day are read again, and the amount the link refilled is cleared (QA).
document.addEventListener("settled", (e) => {
  if (e.target === $("sale-result")) $("sale-amount").value = "";
  if (e.target === $("redeem-result")) $("redeem-amount").value = "";
  loadBalance();
  if (player) { loadToday(); refreshPlayer().catch(showError); }
});

$("redeem-form").addEventListener("submit", (e) => {
  e.preventDefault();
  if (!player) return;
  const value = Number($("redeem-amount").value);
  const body = { player_id: player.id, amount: value };
  intent($("redeem-submit"), $("redeem-result"), () => post("/api/v1/cage/redemptions/", body), () => {
    loadToday();
    $("redeem-amount").value = "";
    // he holds fewer chips now, so he buys more of his SES-7 minimum: the hint said he
    // bought at least 0 until a reload, and the sale was refused (found by QA)
    refreshPlayer().catch(showError);
  });
});

// --- tournaments -------------------------------------------------------------------------

let entries = [];
let payments = [];
let owed = []; // what the tournament still owes each player in cash (list_tournament_winnings)

async function loadTournaments() {
  tournaments = (await get("/api/v1/tournaments/")).filter((t) => t.status !== "finished" || t.winner_player_id);
  const select = $("t-select");
  const keep = select.value;
  select.innerHTML = tournaments.length
    ? tournaments.slice().reverse().map((t) => `<option value="${t.tournament_id}">${esc(t.name)} · ${esc(T[t.status] || t.status)}</option>`).join("")
    : `<option value="">${esc(T.noTournaments)}</option>`;
  if (keep && tournaments.some((t) => String(t.tournament_id) === keep)) select.value = keep;
  followTournament();
  await loadEntries();
}

async function loadEntries() {
  const id = $("t-select").value;
  if (!id) { entries = []; renderEntries(); return; }
  const t = tournaments.find((x) => String(x.tournament_id) === id);
  [entries, payments, owed] = await Promise.all([
    get(`/api/v1/tournaments/${id}/entries/`),
    get(`/api/v1/cage/prize-payments/?tournament_id=${id}`),
    get(`/api/v1/tournaments/${id}/payments/`),
  ]);
  await learn(entries.map((x) => x.player_id)).catch(() => {}); // names are a nicety
  $("t-summary").textContent = t
    ? `${T.buyInFee}: ${amount(t.buy_in)} + ${amount(t.fee)}${t.prices.registration !== t.buy_in + t.fee
      ? ` + ${T.bounty} ${amount(t.prices.registration - t.buy_in - t.fee)} = ${amount(t.prices.registration)}` : ""} · ${T.entries}: ${number(t.entries)} · ${T.prizePool}: ${amount(t.clock.prize_pool)} · ${T.placesPaid}: ${number(t.clock.places_paid)}`
    : "";
  renderEntries();
}

// Only what the chosen event sells to the chosen player, with its price: a rebuy or
// add-on was offered for events without them, and the refusal named the player, not the
// event (found by QA). Registration while it (or late entry) is open, to a player with no
// live entry; unregistration before the start. The server has the last word.
function offerActions() {
  const t = tournaments.find((x) => String(x.tournament_id) === $("t-select").value);
  const live = player && entries.some((e) => e.player_id === player.id && ["registered", "playing"].includes(e.status));
  // a player out of a running event comes back by re-entry only (TREG-9), never a second
  // registration (offered to a busted player, and refused: found by QA)
  const entered = player && entries.some((e) => e.player_id === player.id && e.status !== "unregistered");
  const registering = Boolean(t) && (t.status === "registering" || (t.status === "running" && Boolean(t.clock.late_registration_open)));
  const buys = !t ? [] : player ? buysOffered(t, t.clock, entries, player.id)
    : t.status !== "running" ? [] : [["re-entries", t.prices.re_entry], ["rebuys", t.prices.rebuy], ["add-ons", t.prices.add_on]]
      .filter(([, price]) => price !== null).map(([op, price]) => ({ op, price }));
  const prices = new Map(buys.map((b) => [b.op, b.price]));
  if (registering && !live && !(t.status === "running" && entered)) prices.set("registrations", t.prices.registration);
  if (t && t.status === "registering" && (!player || live)) prices.set("unregistrations", null);
  for (const b of $("t-actions").querySelectorAll("button[data-op]")) {
    b.dataset.label ??= b.textContent;
    b.hidden = !prices.has(b.dataset.op);
    const price = prices.get(b.dataset.op);
    b.textContent = price ? `${b.dataset.label} · ${amount(price)}` : b.dataset.label;
  }
  $("t-none").hidden = !t || $("t-actions").querySelector("button[data-op]:not([hidden])") !== null;
}

function renderEntries() {
  offerActions();
  const mine = (e) => player && e.player_id === player.id;
  $("entries").innerHTML = entries.map((e) => `<tr class="${mine(e) ? "mine" : ""}">
    <td>${e.entry_number}</td><td>${esc(label(e.player_id))}</td><td>${esc(T[e.status] || e.status)}</td>
    <td class="num">${number(e.stack)}</td><td>${e.table_id ? `${e.table_id}/${e.seat}` : "—"}</td>
    <td class="num">${e.rebuys}</td><td class="num">${e.add_ons}</td></tr>`).join("")
    || `<tr class="muted"><td colspan="7">${esc(T.noEntries)}</td></tr>`;
  // Each prize by place: paid (with the time), a Pay button while the cage owes the player
  // cash, or the satellite seat he took instead (TREG-11: no cash). Then what is owed with
  // no prize of its own: bounties, an early payout, a cancelled event's settlement.
  const prizes = entries.filter((e) => e.prize).sort((a, b) => a.place - b.place);
  const paid = new Map(payments.map((p) => [p.entry_number, p]));
  const due = new Map(owed.map((o) => [o.player_id, o]));
  const status = (e) => {
    const o = due.get(e.player_id);
    if (paid.has(e.entry_number)) return `<span class="badge ok">${esc(T.paid)} ${time(paid.get(e.entry_number).paid_at).slice(0, 5)}</span>`;
    if (o && o.held) return `<span class="badge warn">${esc(T.held)}</span>`;
    if (o && o.prize + o.bounties > 0) return `<button type="button" class="btn small primary" data-pay="${e.entry_number}">${esc(T.pay)} ${amount(o.prize + o.bounties)}</button>`;
    if (o && o.seats_won) return `<span class="badge">${esc(T.seatWon)}</span>`;
    return "—";
  };
  const withPrize = new Set(prizes.filter((e) => !paid.has(e.entry_number)).map((e) => e.player_id));
  const others = owed.filter((o) => !withPrize.has(o.player_id) && (o.held || o.prize + o.bounties > 0));
  $("prizes").innerHTML = prizes.map((e) => `<tr class="${mine(e) ? "mine" : ""}" data-entry="${e.entry_number}">
    <td>${e.place}${e.place_to && e.place_to !== e.place ? `–${e.place_to}` : ""}</td>
    <td>${esc(label(e.player_id))}</td><td>${e.entry_number}</td><td class="num">${amount(e.prize)}</td>
    <td>${status(e)}</td></tr>`).join("")
    + others.map((o) => `<tr class="${player && o.player_id === player.id ? "mine" : ""}" data-owed="${o.player_id}">
    <td>—</td><td>${esc(label(o.player_id))}</td><td>—</td><td class="num">${amount(o.prize + o.bounties)}</td>
    <td>${o.held ? `<span class="badge warn">${esc(T.held)}</span>`
      : `<button type="button" class="btn small primary" data-pay-player="${o.player_id}">${esc(T.pay)}</button>`}</td></tr>`).join("")
    || `<tr class="muted"><td colspan="5">${esc(T.noPrizes)}</td></tr>`;
}

$("prizes").addEventListener("click", (e) => {
  const id = $("t-select").value;
  const owner = e.target.closest("button[data-pay-player]");
  if (owner && id) { // everything owed to one player: pay_tournament_winnings
    const pid = Number(owner.dataset.payPlayer);
    intent(owner, $("t-result"), () => post(`/api/v1/tournaments/${id}/payments/`, { player_id: pid }), () => {
      loadEntries().catch(showError);
      loadToday();
    });
    return;
  }
  const b = e.target.closest("button[data-pay]");
  if (!b || !id) return;
  const entry = entries.find((x) => x.entry_number === Number(b.dataset.pay));
  const body = { tournament_id: Number(id), entry_number: entry.entry_number };
  intent(b, $("t-result"), () => post("/api/v1/cage/prize-payments/", body), () => {
    loadEntries().catch(showError);
    loadToday();
  });
});

$("t-select").addEventListener("change", () => loadEntries().catch(showError));

// The chosen tournament's feed keeps its entries live: stacks, eliminations, rebuys. They
// changed only on Refresh, and a cashier could act on a player shown "playing" who was out
// (found by QA). Events come in bursts (a hand's end): one read after the burst.
let tournamentFeed = null;
let feedFor = null;
let entriesTimer = null;
// The event's clock comes with the list: an add-on break or the end of the rebuy levels
// changes what is sold, and the offers were those of the page's load (found by QA).
function entriesSoon(ms = 400) {
  clearTimeout(entriesTimer);
  entriesTimer = setTimeout(() => loadTournaments().catch(showError), ms);
}
function followTournament() {
  const id = $("t-select").value;
  if (id === feedFor) return;
  if (tournamentFeed) tournamentFeed.stop();
  tournamentFeed = null;
  feedFor = id;
  if (!id) return;
  tournamentFeed = new Feed(`/ws/tournaments/${id}/`, {
    onSnapshot: () => entriesSoon(),
    onEvent: (msg) => { if (msg.type === "event") entriesSoon(); },
    badge: "t-feed-status",
  });
  tournamentFeed.start();
}
$("t-select").addEventListener("change", followTournament);
$("t-refresh").addEventListener("click", () => loadTournaments().catch(showError));
$("t-actions").addEventListener("click", (e) => {
  const b = e.target.closest("button[data-op]");
  const id = $("t-select").value;
  if (!b || !id) return;
  if (!player) { $("t-result").className = "result error"; $("t-result").textContent = T.pickPlayer; return; }
  const path = `/api/v1/tournaments/${id}/${b.dataset.op}/`;
  const body = b.dataset.pay ? { player_id: player.id, pay_with: b.dataset.pay } : { player_id: player.id };
  const asked = player.id;
  intent(b, $("t-result"), () => post(path, body), (answer) => {
    // a rebuy asked while his table plays a hand is only conditional (TREG-14): "Done."
    // read as taken, and the cashier took money for a rebuy that then lapsed (found by QA)
    if (b.dataset.op === "rebuys" && answer && (answer.pending_rebuys || []).includes(asked)) {
      $("t-result").className = "result pending";
      $("t-result").textContent = T.rebuyPending;
    }
    loadTournaments().catch(showError);
    loadToday();
  });
});

// A link may name the player (and an amount): /cashier/?player=<id>&amount=<CZK>.
async function fromLink() {
  const params = new URLSearchParams(location.search);
  const id = Number(params.get("player"));
  if (!id) return;
  const found = (await get(`/api/v1/players/search/?q=${id}`)).find((p) => p.id === id);
  if (!found) return;
  await choose(found);
  if (params.get("amount")) { $("sale-amount").value = params.get("amount"); checkMinimum(); }
}

loadBalance();
loadTournaments().catch(showError);
fromLink().catch(showError);
setInterval(() => { loadBalance(); refreshPlayer().catch(() => {}); }, 30_000); // the cage has no feed of its own
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") refreshPlayer().catch(() => {});
});
window.addEventListener("focus", () => refreshPlayer().catch(() => {}));
$("player-q").focus();
