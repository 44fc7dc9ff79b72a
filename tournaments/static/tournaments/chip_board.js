// The chip-count board of a tournament (a second TV beside the clock board): the players
// still in ranked by chips with table and seat, players left / entries, average stack, the
// chip leader, the prize pool, the payout ladder and the places taken with their prizes;
// before the start the number registered, after the end the final results.
//
// Data: GET /api/v1/tournaments/<id>/chip-counts/ (public, tournament_chip_counts:
// nicknames or initials only). Live: the public clock feed /ws/tournaments/<id>/clock/
// sends a snapshot after every new event of the tournament -- a hand finished at one of its
// tables (HandResultRecorded, which carries the new stacks), an elimination, an entry, a
// level -- and each one makes the board read the endpoint again (at most one read every
// READ_GAP_MS, the last one always done), so a change shows within about 2 s. A read every
// POLL_MS besides, in case a push is lost. Chips are as of the last hand finished at each
// table (a hand in progress is not counted out).
//
// Many players: a list shows as many rows as fit its panel (rows of the fixed height
// --row, chip_board.css) and turns its pages every ROTATE_MS (page 1 = the leaders;
// "2/15" in the panel's title); a payout ladder groups places of equal prize ("10–18").
import { Feed } from "../casino/feed.js";
import { get } from "../casino/api.js";
import { amount, esc, number } from "../casino/fmt.js";
import { startWallClock } from "../casino/board.js";

const READ_GAP_MS = 2000;
const POLL_MS = 15000;
const ROTATE_MS = 10000;

const T = JSON.parse(document.getElementById("board-i18n").textContent);
const root = document.getElementById("tchips");
const id = root.dataset.tournament;
const $ = (x) => document.getElementById(x);

function rowPx() {
  const vh = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--row")) || 4.2;
  return (window.innerHeight * vh) / 100;
}

// One list on the board, its rows turned page by page when they do not all fit.
class Pages {
  constructor(key) {
    this.body = $(key);
    this.pager = $(`${key}-page`);
    this.wrap = this.body.closest(".rows-wrap");
    this.rows = [];
    this.page = 0;
  }

  size() {
    const head = this.wrap.querySelector("thead");
    const room = this.wrap.clientHeight - (head ? head.offsetHeight : 0);
    return Math.max(1, Math.floor(room / rowPx()));
  }

  count() { return Math.max(1, Math.ceil(this.rows.length / this.size())); }

  set(rows) {
    this.rows = rows;
    this.show();
  }

  turn() {
    this.page = (this.page + 1) % this.count();
    this.show();
  }

  show() {
    const n = this.size();
    const pages = this.count();
    if (this.page >= pages) this.page = 0;
    this.body.innerHTML = this.rows.slice(this.page * n, this.page * n + n).join("");
    this.body.dataset.page = String(this.page + 1);
    this.body.dataset.pages = String(pages);
    this.pager.textContent = pages > 1 ? `${this.page + 1}/${pages}` : "";
  }
}

const lists = {
  counts: new Pages("counts"),
  results: new Pages("results"),
  payouts: new Pages("payouts"),
  out: new Pages("out"),
};

const places = (a, b) => (b && b !== a ? `${a}–${b}` : `${a}`);
const prize = (n) => (n ? amount(n) : "—");

// Consecutive places with the same prize as one row ("10–18  1 500 CZK").
function ladder(payouts) {
  const bands = [];
  for (const p of payouts) {
    const last = bands[bands.length - 1];
    if (last && last.prize === p.prize) last.to = p.place;
    else bands.push({ from: p.place, to: p.place, prize: p.prize });
  }
  return bands.map((b) => `<tr data-place="${b.from}"><td class="num rank">${places(b.from, b.to)}</td><td class="num">${prize(b.prize)}</td></tr>`);
}

// A re-entry's place says which of the player's entries it was: "P00 (2)" (QA: the same
// nickname twice, told apart by nothing).
function finisher(f) {
  return `<tr class="${f.prize ? "paid" : ""}" data-place="${f.place}"><td class="num rank">${places(f.place, f.place_to)}</td>`
    + `<td class="name">${esc(f.name)}${f.player_entry > 1 ? ` <span class="tag">(${f.player_entry})</span>` : ""}</td><td class="num">${prize(f.prize)}</td></tr>`;
}

function render(d) {
  $("t-name").textContent = d.name;
  document.title = `${d.name} · ${T.chipCounts}`;
  root.dataset.status = d.status;
  root.dataset.version = String(d.version);
  const state = { registering: T.registering, finished: T.finished, cancelled: T.cancelled }[d.status] || "";
  $("t-state").textContent = state;
  $("t-state").hidden = !state;

  const before = d.status === "registering";
  const over = d.status === "finished";
  $("before").hidden = !before;
  $("registered").textContent = number(d.registered);
  $("counts-wrap").hidden = before || over;
  $("results-wrap").hidden = !over;
  $("title-counts").hidden = over;
  $("title-results").hidden = !over;
  $("out-panel").hidden = over; // the final results are the main list
  // the final results give each prize as paid (an agreed deal's too): the published ladder
  // beside them contradicted a deal's amounts (found by QA)
  $("payouts-panel").hidden = over;
  $("out-none").hidden = d.finished.length > 0;
  $("out-wrap").hidden = d.finished.length === 0;

  $("players-left").textContent = before ? "—" : `${number(d.players_left)} / ${number(d.entries)}`;
  $("average").textContent = d.players_left ? number(d.average_stack) : "—";
  const lead = d.chip_leader;
  $("leader").innerHTML = lead
    ? `${esc(lead.name)} · ${esc(number(lead.chips))}${lead.table_id ? `<span class="tag">${esc(T.table)} ${lead.table_id}, ${esc(T.seat)} ${lead.seat}</span>` : ""}`
    : "—";
  $("pool").innerHTML = `${esc(amount(d.prize_pool))}${d.prize_pool_provisional ? `<span class="tag">${esc(T.provisional)}</span>` : ""}`;

  lists.counts.set(d.players.map((p) => `<tr class="${p.rank === 1 ? "leader" : ""}" data-rank="${p.rank}">`
    + `<td class="num rank">${p.rank}</td><td class="name">${esc(p.name)}</td><td class="num chips">${number(p.chips)}</td>`
    + `<td class="num">${p.table_id ?? "—"}</td><td class="num">${p.seat ?? "—"}</td></tr>`));
  lists.results.set(over ? d.finished.map(finisher) : []);
  // an agreed deal's shares come first, in place of the places its players had left (DEAL-5)
  const deal = d.deal ? [
    ...d.deal.shares.map((x) => `<tr class="deal" data-deal-share><td class="name">${esc(T.deal)}: ${esc(x.name)}</td><td class="num">${prize(x.amount)}</td></tr>`),
    ...(d.deal.money_on_table ? [`<tr class="deal" data-deal-left><td class="name">${esc(T.playedFor)}</td><td class="num">${prize(d.deal.money_on_table)}</td></tr>`] : []),
  ] : [];
  lists.payouts.set([...deal, ...ladder(d.payouts)]);
  lists.out.set(over ? [] : d.finished.map(finisher)); // after the panels are shown: sizes
}

let reading = false;
let again = false;
let timer = null;
let lastRead = -Infinity;

async function read() {
  if (reading) { again = true; return; }
  reading = true;
  lastRead = performance.now();
  try {
    render(await get(`/api/v1/tournaments/${id}/chip-counts/`));
  } catch (err) {
    if (err.status === 404) notFound();
    // otherwise (offline): keep what is shown; the feed's badge says so, the poll retries
  } finally {
    reading = false;
    if (again) { again = false; readSoon(); }
  }
}

// At most one read every READ_GAP_MS; a signal during the gap is read at its end.
function readSoon() {
  if (timer) return;
  const wait = Math.max(0, READ_GAP_MS - (performance.now() - lastRead));
  timer = setTimeout(() => { timer = null; read(); }, wait);
}

function notFound() {
  $("not-found").textContent = T.notFound;
  $("not-found").hidden = false;
  $("counts-wrap").hidden = true;
}

new Feed(`/ws/tournaments/${id}/clock/`, {
  onSnapshot: readSoon,
  onEvent: readSoon,
  onError(msg) { if (msg.code === "not_found") notFound(); },
}).start();
read();
setInterval(readSoon, POLL_MS);
setInterval(() => Object.values(lists).forEach((list) => list.turn()), ROTATE_MS);
window.addEventListener("resize", () => Object.values(lists).forEach((list) => list.show()));
startWallClock();
