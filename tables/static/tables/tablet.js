// Dealer tablet (/tablet/, issue #13): a client of the public API and the table feed.
//
// Paired once with its device token (localStorage), then `Authorization: Token` on REST
// and `?token=` on /ws/tables/<id>/. The server decides everything: the page shows the
// hand's `legal` actions only, bounds the amount picker by min/max, and shows a refusal's
// rule in words. Feed events are signals: the table or hand is read again by REST (never
// computed here); a write's answer is shown at once.
import { get, post, describeError, ruleTitle, setDeviceToken, ApiError, NetworkError } from "/static/casino/api.js";
import { Feed } from "/static/casino/feed.js";
import { amount as fmtAmount, esc, number, seconds } from "/static/casino/fmt.js";
import { showNotice, showError, clearNotice, plainNumber } from "/static/casino/shell.js";
import { actionWord, handWord, streetWord } from "/static/tables/words.js";

const gettext = globalThis.gettext || ((s) => s);
const interpolate = globalThis.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_, k) => obj[k]));
const $ = (id) => document.getElementById(id);
const TOKEN_KEY = "casino.deviceToken";
const RANKS = "AKQJT98765432".split("");
const SUITS = [["s", "♠"], ["h", "♥"], ["d", "♦"], ["c", "♣"]];

const state = {
  me: null, table: null, hand: null, lastHand: null, preview: null,
  picked: [], pickFor: null, showSeat: null, straddles: [], busy: false, feed: null,
  names: new Map(), // player_id -> {nickname, short_name}: GET /tables/<id>/players/ (the feed has ids only)
  show: null, lastShow: null, // a Show poker table's running and last hand (SHOW-1..27)
  chips: { key: null, motions: [[]] }, // the chips pushed by the player to act, per motion (BET-17)
  chipRuling: null, // the last chip reading's ruling, shown until the hand moves past it
};
window.__tablet = state; // for the browser tests and the screenshots (read-only use)

const money = (n) => fmtAmount(n, state.table && state.table.mode);

// --- pairing --------------------------------------------------------------------------------

async function pair(token) {
  setDeviceToken(token);
  const me = await get("/api/v1/auth/me/");
  if (me.kind !== "device" || !me.table_id) {
    throw new Error(gettext("This token is not a dealer tablet bound to a table."));
  }
  return me;
}

async function boot() {
  const token = localStorage.getItem(TOKEN_KEY);
  if (!token) { showPairing(); return; }
  try {
    state.me = await pair(token);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      localStorage.removeItem(TOKEN_KEY);
      showPairing(describeError(err));
      return;
    }
    showError(err); // offline at start: keep the token, try again
    setTimeout(boot, 2000);
    return;
  }
  $("pairing").hidden = true;
  $("desk").hidden = false;
  $("unpair").hidden = false;
  await refreshTable();
  await showLastResult();
  startFeed(token);
  $("tablet").dataset.ready = "true";
  performance.mark("tablet-ready"); // first render with the table's state (measured in tests)
}

// Between hands, a reloaded tablet (or one switched to Czech) shows the last hand's result
// again: who won what stayed on the other tablets only, before the pots were pushed (QA).
async function showLastResult() {
  if (!state.table || state.table.current_hand_id || state.lastHand || isShowPoker()) return;
  try {
    const [last] = (await get(`/api/v1/tables/${state.table.table_id}/hands/?page_size=1`)).results || [];
    if (last) { setHand(await get(`/api/v1/hands/${last.hand_id}/`)); render(); }
  } catch (err) {
    // the result is a convenience: the next hand can be dealt without it
  }
}

// The floor revoked this tablet (its socket is closed, its token refused): forget the
// token and ask for a new one, rather than retrying with a dead one.
function revoked() {
  if (state.feed) { state.feed.stop(); state.feed = null; }
  localStorage.removeItem(TOKEN_KEY);
  setDeviceToken(null);
  $("tablet").dataset.ready = "false";
  $("unpair").hidden = true;
  // nothing of the table it served stays on screen, nor the dead token (found by QA)
  $("table-name").textContent = "";
  $("device-token").value = "";
  showPairing(gettext("This tablet's device token was revoked. Pair it again with a new token."));
}

// A read that failed: a refused token means the tablet was revoked; anything else is shown.
function readFailed(err) {
  if (err instanceof ApiError && err.status === 401) revoked();
  else showError(err);
}

function showPairing(message) {
  $("pairing").hidden = false;
  $("desk").hidden = true;
  if (message) { $("pair-error").textContent = message; $("pair-error").hidden = false; }
  $("device-token").focus();
}

$("pair-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const token = $("device-token").value.trim();
  try {
    await pair(token);
    localStorage.setItem(TOKEN_KEY, token);
    $("pair-error").hidden = true;
    boot();
  } catch (err) {
    setDeviceToken(null);
    $("pair-error").textContent = describeError(err);
    $("pair-error").hidden = false;
  }
});

$("unpair").addEventListener("click", () => {
  if (!confirm(gettext("Forget this tablet's device token?"))) return;
  localStorage.removeItem(TOKEN_KEY);
  location.reload();
});

// --- reading state (REST) -------------------------------------------------------------------

const inflight = {};
// Coalesce reads: one request per resource at a time, one more if asked meanwhile.
function coalesced(key, fn) {
  const slot = inflight[key] || (inflight[key] = { running: null, again: false });
  if (slot.running) { slot.again = true; return slot.running; }
  slot.running = (async () => {
    try {
      do { slot.again = false; await fn(); } while (slot.again);
    } finally { slot.running = null; }
  })();
  return slot.running;
}

function setTable(table) {
  if (state.table && table.table_id === state.table.table_id && table.version < state.table.version) return;
  state.table = table;
}

function setHand(hand) {
  if (!hand) return;
  const current = state.hand && state.hand.hand_id === hand.hand_id ? state.hand : null;
  if (current && hand.version < current.version) return;
  if (state.feed) state.feed.adopt(`hand-${hand.hand_id}`, hand.version);
  if (hand.phase === "complete") {
    state.lastHand = hand;
    if (state.hand && state.hand.hand_id === hand.hand_id) state.hand = null;
  } else {
    state.hand = hand;
  }
}

async function refreshTable() {
  return coalesced("table", async () => {
    const table = await get(`/api/v1/tables/${state.me.table_id}/`);
    setTable(table);
    if (state.feed) state.feed.adopt(`table-${table.table_id}`, table.version);
    await learnNames(table);
    if (isShowPoker()) { await refreshShow(); return; } // its hands are Show poker hands
    const id = state.table.current_hand_id;
    if (id && (!state.hand || state.hand.hand_id !== id)) await refreshHand(id);
    if (!id && state.hand) { await refreshHand(state.hand.hand_id); state.hand = null; }
    if (!state.table.current_hand_id) await refreshPreview();
    render();
  });
}

// Names of the players at this table (list_table_players), read again when someone new sits.
async function learnNames(table) {
  if (table.seats.every((s) => state.names.has(s.player_id))) return;
  try {
    for (const p of await get(`/api/v1/tables/${table.table_id}/players/`)) state.names.set(p.player_id, p);
  } catch (err) {
    // names are a convenience: the seat still shows the player's id
  }
}

function playerLabel(id) {
  const p = state.names.get(id);
  if (!p) return `#${id}`;
  return `${p.nickname || p.short_name || ""} #${id}`.trim();
}

async function refreshHand(id) {
  return coalesced(`hand-${id}`, async () => {
    setHand(await get(`/api/v1/hands/${id}/`));
    render();
  });
}

async function refreshPreview() {
  const t = state.table;
  if (!t || t.current_hand_id || t.seats.length < 2) { state.preview = null; return; }
  const draw = needsDraw(t) ? $("button-draw").value || (t.seats[0] && t.seats[0].seat) : "";
  try {
    state.preview = await get(`/api/v1/tables/${t.table_id}/next-hand/${draw ? `?button_seat=${draw}` : ""}`);
  } catch (err) {
    state.preview = { error: describeError(err) };
  }
}

// --- the feed -------------------------------------------------------------------------------

function startFeed(token) {
  const tableStream = `table-${state.me.table_id}`;
  state.feed = new Feed(`/ws/tables/${state.me.table_id}/`, {
    token,
    isNewStream: (stream) => stream.startsWith("hand-") || stream.startsWith("show-hand-"),
    onSnapshot: (snap) => {
      setTable(snap.table);
      if (isShowPoker()) { refreshShow().catch(readFailed); return; }
      if (snap.hand) setHand(snap.hand);
      else if (state.hand) refreshHand(state.hand.hand_id).catch(readFailed);
      if (!snap.table.current_hand_id) refreshPreview().then(render);
      render();
    },
    onEvent: (msg) => {
      if (msg.type !== "event") return;
      if (msg.stream === tableStream) refreshTable().catch(readFailed);
      else if (msg.stream.startsWith("show-hand-")) refreshShow().catch(readFailed);
      else if (msg.stream.startsWith("hand-")) {
        showFact(msg);
        refreshHand(msg.stream.slice(5)).catch(readFailed);
      }
    },
    onStatus: (s) => {
      document.body.classList.toggle("feed-offline", s === "offline");
      // Back after a loss: read everything again, so what is shown is the server's state.
      if (s === "live" && state.wasOffline) {
        state.wasOffline = false;
        refreshTable().catch(readFailed);
        // "No answer from the server (offline?)... retry" stayed up after the tablet was
        // back and the hand had moved on (QA): the screen now shows what was recorded
        if (state.unanswered) {
          state.unanswered = false;
          showNotice(gettext("Back online: the screen shows what the server recorded. Check the last tap before repeating it."), "info");
        }
      }
      if (s === "offline") state.wasOffline = true;
      // The socket refused: if the token was revoked (the close that says so may be lost
      // to a reconnect), the next read answers 401 and the tablet goes back to pairing.
      if (s === "denied") get("/api/v1/auth/me/").catch(readFailed);
    },
    onError: (msg) => {
      if (msg.code === "revoked") { revoked(); return; }
      showNotice(`${gettext("Feed")}: ${msg.detail}`, "error");
    },
  }).start();
}

// An action recorded by another screen: show the fact the event states (the seat's chips,
// bet, fold) at once; whose turn, the legal actions and the pots come with the hand read
// by REST right after (they are the server's to compute, never the tablet's).
function showFact(msg) {
  const h = state.hand;
  if (!h || `hand-${h.hand_id}` !== msg.stream || msg.version !== h.version + 1) return;
  if (msg.event_type !== "tables.ActionTaken") return;
  const d = msg.data;
  const seats = h.seats.map((s) => (s.seat !== d.seat ? s : {
    ...s, stack: s.stack - d.added, bet: s.bet + d.added, contributed: s.contributed + d.added,
    folded: s.folded || d.action === "fold", all_in: s.all_in || d.all_in,
  }));
  state.hand = { ...h, seats, pot: h.pot + d.added, version: msg.version, to_act: null, legal: null, phase: "pending" };
  renderSeats();
  renderCenter();
  $("turn").textContent = gettext("Updating…");
  $("betting").hidden = true;
}

// --- writes ---------------------------------------------------------------------------------

// One user intent = one write (one Idempotency-Key, reused by api.js on retries). The
// answer is shown at once; a refusal shows its rule in words. The answer is the hand, the
// table, or holds them (a chip reading answers {ruling, hand}).
//
// `ifMatch` is the stream version the screen was drawn on: a tap on a hand or table that
// moved on since (another screen acted, the street changed) answers 409 and appends
// nothing, instead of landing on a street the dealer never saw (QA: a stale "call" was
// recorded on the turn). The screen is read again and the dealer taps once more.
async function act(path, body, { errorBox = null, ifMatch = null } = {}) {
  if (state.busy) return null;
  state.busy = true;
  document.body.classList.add("busy");
  try {
    const answer = await post(path, body, { ifMatch });
    clearNotice();
    state.unanswered = false;
    if (errorBox) errorBox.hidden = true;
    const hand = answer && (answer.hand_id ? answer : answer.hand && answer.hand.hand_id ? answer.hand : null);
    if (hand) setHand(hand);
    if (answer && answer.table_id && answer.seats && !answer.hand_id) setTable(answer);
    if (answer && answer.table) setTable(answer.table);
    if (hand && hand.phase === "complete") await refreshTable();
    else if (answer && !hand && state.table && !state.table.current_hand_id) await refreshPreview();
    render();
    return answer;
  } catch (err) {
    if (errorBox) { errorBox.textContent = describeError(err); errorBox.hidden = false; }
    showError(err);
    state.unanswered = err instanceof NetworkError; // said again once the feed is back
    if (err instanceof ApiError && err.code === "version_conflict") {
      refreshTable().catch(readFailed);
      const h = state.hand || state.lastHand;
      if (h) refreshHand(h.hand_id).catch(readFailed);
    }
    return null;
  } finally {
    state.busy = false;
    document.body.classList.remove("busy");
  }
}

const handPath = (suffix) => `/api/v1/hands/${state.hand.hand_id}/${suffix}`;
const tablePath = (suffix) => `/api/v1/tables/${state.table.table_id}/${suffix}`;
// A write on the running hand or on the table, checked against the version on screen.
const handWrite = (suffix, body, opts = {}) => act(handPath(suffix), body, { ...opts, ifMatch: state.hand.version });
const tableWrite = (suffix, body, opts = {}) => act(tablePath(suffix), body, { ...opts, ifMatch: state.table.version });

// --- rendering ------------------------------------------------------------------------------

function seatPosition(seat, max) {
  // seat 1 bottom-left of centre, then clockwise (as the dealer sees the table)
  const angle = Math.PI / 2 + ((seat - 0.5) / max) * 2 * Math.PI;
  return { left: 50 + 40 * Math.cos(angle), top: 50 + 39 * Math.sin(angle) };
}

function cardHtml(card, extra = "") {
  const suit = SUITS.find(([s]) => s === card[1]);
  const red = card[1] === "h" || card[1] === "d";
  return `<span class="pcard ${red ? "red" : ""} ${extra}" aria-label="${card}">${card[0] === "T" ? "10" : card[0]}${suit ? suit[1] : card[1]}</span>`;
}
const splitCards = (s) => (s ? s.match(/.{2}/g) || [] : []);

function render() {
  const t = state.table;
  // a read still on its way when the tablet was revoked does not redraw the old table
  // (CI caught its name back on the pairing screen)
  if (!t || !localStorage.getItem(TOKEN_KEY)) return;
  // the last hand's cards and result belong to its players: once a seat holds someone else
  // (a redraw, a balancing move) they are no longer shown against it (found by QA, TSEAT-8)
  if (state.lastHand && !state.hand && state.lastHand.seats.some((hs) => {
    const now = t.seats.find((x) => x.seat === hs.seat);
    return now && Number(now.player_id) !== Number(hs.player_id);
  })) state.lastHand = null;
  $("table-name").textContent = `${t.name} · ${gettext("table")} ${t.table_id} · ${t.small_blind}/${t.big_blind}`;
  renderSeats();
  renderCenter();
  renderPanel();
  renderSidebetControl();
}

// A Show hand's seats as the felt draws a hand's: stacks after blinds and purchases,
// folded or dead hands greyed, the seat to act lit, the cards shown (SHOW-23).
function showAsHand() {
  const sh = state.show;
  if (!sh) return null;
  return {
    button_seat: sh.button_seat, to_act: sh.to_act, phase: "betting", straddles: [],
    small_blind_seat: null, big_blind_seat: null,
    seats: sh.seats.map((x) => ({ seat: x.seat, player_id: Number(x.player_id), stack: x.stack, bet: 0,
      folded: x.folded || x.dead, all_in: false, mucked: false, shown: x.shown.join("") })),
  };
}

function renderSeats() {
  const t = state.table;
  const h = isShowPoker() ? showAsHand() : state.hand;
  const byHand = new Map((h ? h.seats : []).map((s) => [s.seat, s]));
  // between hands the last hand's shown cards stay on the seats until the next deal
  const lastShown = new Map((!h && !isShowPoker() && state.lastHand ? state.lastHand.seats : []).map((s) => [s.seat, s.shown]));
  const bySeat = new Map(t.seats.map((s) => [s.seat, s]));
  const out = [];
  for (let seat = 1; seat <= t.max_seats; seat += 1) {
    const pos = seatPosition(seat, t.max_seats);
    const ts = bySeat.get(seat);
    const hs = byHand.get(seat);
    const classes = ["seat"];
    let body = `<span class="seat-no">${seat}</span>`;
    const button = h ? h.button_seat : t.button_seat;
    if (!ts && !hs) {
      classes.push("empty");
      body += `<span class="who">${gettext("empty")}</span>`;
      // a dead button (SEAT-5) stays on the seat its player left
      if (button === seat) body += `<span class="badges"><span class="chip-d" title="${gettext("dead button")}">D</span></span>`;
    } else {
      const stack = hs ? hs.stack : ts.stack;
      const badges = [];
      if (button === seat) badges.push(`<span class="chip-d" title="${gettext("button")}">D</span>`);
      if (h && h.small_blind_seat === seat) badges.push(`<span class="tag">${gettext("SB")}</span>`);
      if (h && h.big_blind_seat === seat) badges.push(`<span class="tag">${gettext("BB")}</span>`);
      if (h && h.straddles.includes(seat)) badges.push(`<span class="tag">${gettext("STR")}</span>`);
      if (hs && hs.all_in) { badges.push(`<span class="tag allin">${gettext("ALL-IN")}</span>`); classes.push("allin"); }
      if (hs && hs.folded) classes.push("folded");
      const floor = h && h.floor;
      if (floor && floor.passive_seats.includes(seat)) badges.push(`<span class="tag passive" title="${gettext("may not bet or raise (BET-30..32)")}">${gettext("passive")}</span>`);
      const early = floor && floor.out_of_turn.find((o) => o.seat === seat);
      if (early) badges.push(`<span class="tag status">${gettext("out of turn")}: ${actionWord(early.action)}${early.amount_to ? ` ${number(early.amount_to)}` : ""}</span>`);
      if (ts && ts.status !== "active") badges.push(`<span class="tag status">${statusLabel(ts.status)}</span>`);
      if (ts && (ts.missed_small_blind || ts.missed_big_blind)) badges.push(`<span class="tag status">${gettext("owes")}</span>`);
      // no chips between hands: not dealt in until he re-buys (BI-7) or leaves (found by QA)
      if (!h && ts && ts.busted) badges.push(`<span class="tag status busted">${gettext("busted: re-buy or cash out")}</span>`);
      // a top-up declared during his hand: paid, on the stack when the hand ends (BI-6)
      if (ts && ts.top_up_after_hand) badges.push(`<span class="tag status topup" title="${gettext("top-up, added when the hand ends")}">+${number(ts.top_up_after_hand)}</span>`);
      if (h && h.to_act === seat && h.phase === "betting") classes.push("to-act");
      body += `<span class="who">${esc(playerLabel(ts ? ts.player_id : hs.player_id))}</span>`;
      body += `<span class="stack" data-stack="${stack}">${money(stack)}</span>`;
      body += `<span class="badges">${badges.join("")}</span>`;
      if (hs && hs.bet) body += `<span class="bet">${number(hs.bet)}</span>`;
      const shown = hs ? hs.shown : lastShown.get(seat);
      if (shown) body += `<span class="shown">${splitCards(shown).map((c) => cardHtml(c, "small")).join("")}</span>`;
      if (hs && hs.mucked) body += `<span class="tag">${gettext("mucked")}</span>`;
    }
    out.push(`<button type="button" class="${classes.join(" ")}" data-seat="${seat}" style="left:${pos.left}%;top:${pos.top}%">${body}</button>`);
  }
  $("seats").innerHTML = out.join("");
}

function statusLabel(status) {
  return { active: gettext("active"), new: gettext("new"), waiting: gettext("waits for BB"), sitting_out: gettext("sitting out") }[status] || status;
}

function renderCenter() {
  const line = $("hand-line");
  if (isShowPoker()) { // a Show hand: its board (up to eight cards) and its pot
    const sh = state.show || state.lastShow;
    line.textContent = sh ? `${gettext("Show poker")} · ${showPhaseWord(sh.phase)}` : gettext("No hand running");
    $("board").innerHTML = sh ? `<div class="board-run">${sh.board.map((c) => cardHtml(c)).join("")}</div>` : "";
    $("pots").innerHTML = sh ? `<span class="pot-total" id="pot-total">${gettext("Pot")} ${money(sh.pot)}</span>` : "";
    return;
  }
  const h = state.hand || state.lastHand;
  if (!h) {
    line.textContent = gettext("No hand running");
    $("board").innerHTML = "";
    $("pots").innerHTML = "";
    return;
  }
  const phase = { betting: gettext("betting"), awaiting_board: gettext("board"), showdown: gettext("showdown"), complete: gettext("complete"), pending: gettext("updating") }[h.phase] || h.phase;
  line.textContent = `${gettext("Hand")} #${h.hand_number} · ${streetWord(h.street)} · ${phase}`;
  const boards = h.boards && h.boards.length > 1 ? h.boards : [h.board];
  $("board").innerHTML = boards.map((b, i) => `<div class="board-run">${boards.length > 1 ? `<span class="muted">${gettext("Run")} ${i + 1}</span>` : ""}${b.map((c) => cardHtml(c)).join("")}${"<span class='pcard blank'></span>".repeat(Math.max(0, 5 - b.length))}</div>`).join("");
  // While betting, the split by contribution is provisional (a small blind not yet called
  // reads as a "side pot"): show the pots only once someone is all-in or betting is over.
  // A finished hand has no pot left ("Pot 0" on the felt, found by QA): what each seat won,
  // or nothing (a misdeal, a void); the panel has the hand's result.
  if (h.phase === "complete") { $("pots").innerHTML = wonHtml(h); return; }
  const split = h.phase !== "betting" || h.seats.some((x) => x.all_in);
  const pots = split && h.pots && h.pots.length ? h.pots : [];
  // the pot counts every chip in, a bet nobody called too; the pots do not hold that part,
  // which goes back to the bettor: said, so the lines add up to the total (QA)
  const uncalled = pots.length ? h.pot - pots.reduce((sum, p) => sum + p.amount, 0) : 0;
  $("pots").innerHTML = `<span class="pot-total" id="pot-total">${gettext("Pot")} ${money(h.pot)}</span>` +
    pots.map((p) => `<span class="pot" data-pot="${p.index}">${p.index === 0 ? gettext("Main pot") : `${gettext("Side pot")} ${p.index}`}: ${money(p.amount)} <span class="muted">(${p.eligible_seats.join(", ")})</span></span>`).join("") +
    (uncalled > 0 ? `<span class="pot uncalled" id="pot-uncalled">${gettext("Uncalled bet, goes back")}: ${money(uncalled)}</span>` : "");
}

// What each seat won in a finished hand (every pot together, rake taken), for the felt.
// Each seat's winning hand is named beside it (SD-1: the dealer announces it); a seat that won
// on several runs with different hands gets each name once.
function wonHtml(h) {
  if (!h.result || h.voided) return "";
  const won = new Map();
  const hands = new Map();
  const named = (w) => {
    if (!w.hand) return;
    const names = hands.get(w.seat) || new Set();
    hands.set(w.seat, names.add(handWord(w.hand.category)));
  };
  for (const p of h.result.pots) {
    for (const w of p.winners) won.set(w.seat, (won.get(w.seat) || 0) + w.amount);
    for (const w of p.winners) named(w);
    for (const r of p.runs || []) for (const w of r.winners) named(w);
  }
  return [...won].map(([seat, n]) => `<span class="pot won" data-won="${seat}">${gettext("seat")} ${seat} +${money(n)}${hands.has(seat) ? ` <span class="hand-name">${esc([...hands.get(seat)].join(", "))}</span>` : ""}</span>`).join("");
}

// A winner in the hand's result: seat, chips, and the hand with its five cards.
function winnerHtml(w) {
  const hand = w.hand ? ` <span class="hand-name">${esc(handWord(w.hand.category))}</span> <span class="five">${splitCards(w.hand.cards).map((c) => cardHtml(c, "small")).join("")}</span>` : "";
  return `<div class="winner" data-winner-seat="${w.seat}">${gettext("seat")} ${w.seat} +${number(w.amount)}${hand}</div>`;
}

function boardNeeded(h) {
  return !!(h && h.next_street && (h.phase === "awaiting_board" || h.phase === "showdown"));
}

// A Show poker table (SHOW-1..27) deals Show hands (/api/v1/show-hands/): declarations and
// bought board cards, no betting; its panel is its own.
function isShowPoker() {
  return Boolean(state.table && state.table.game === "SHOW");
}

function renderPanel() {
  $("show-panel").hidden = !isShowPoker();
  if (isShowPoker()) {
    for (const id of ["betting", "board-entry", "showdown", "between", "complete", "cards-pane"]) $(id).hidden = true;
    renderShow();
    return;
  }
  const h = state.hand;
  const board = boardNeeded(h);
  $("betting").hidden = !(h && h.phase === "betting");
  $("board-entry").hidden = !board || !!state.showSeat;
  $("showdown").hidden = !(h && h.phase === "showdown");
  $("between").hidden = !!h;
  $("complete").hidden = !!h || !state.lastHand;
  const needCards = board || (h && h.phase === "showdown" && state.showSeat);
  $("cards-pane").hidden = !needCards;
  $("desk").classList.toggle("with-cards", !!needCards);
  const turn = $("turn");
  if (!h) turn.textContent = gettext("Between hands");
  else if (h.phase === "betting") turn.innerHTML = `${gettext("To act")}: <strong>${gettext("seat")} ${h.to_act}</strong>${clockHtml(h)}`;
  else if (board) turn.textContent = gettext("Deal the board");
  else if (h.phase === "showdown") turn.textContent = gettext("Showdown: show or muck");
  renderChipRuling();
  if (h && h.phase === "betting") renderBetting(h);
  if (h && h.phase === "betting") renderChips(h);
  if (board) renderBoardEntry(h);
  if (h && h.phase === "showdown") renderShowdown(h);
  if (needCards) renderPicker();
  if (!h) { renderBetween(); renderResult(); }
  tickClock();
}

// --- a called clock (BET-28): counts down on the tablet; the server's timer rules at 0 ------

const clockSeen = new Map(); // a clock's called_at -> performance.now() at its start, here
function clockHtml(h) {
  const c = h.floor && h.floor.clock;
  return c && c.seat === h.to_act
    ? ` <span class="hand-clock" id="hand-clock" role="timer">${gettext("Clock")} <span id="hand-clock-left"></span></span>` : "";
}
// Seconds left: counted from when this tablet first saw the clock, less how late it saw it
// (its own clock against called_at, bounded by the clock's length).
function clockLeft(c) {
  const total = (Date.parse(c.expires_at) - Date.parse(c.called_at)) / 1000;
  if (!clockSeen.has(c.called_at)) {
    const late = Math.min(Math.max(0, (Date.now() - Date.parse(c.called_at)) / 1000), total);
    clockSeen.set(c.called_at, performance.now() - late * 1000);
  }
  return Math.max(0, total - (performance.now() - clockSeen.get(c.called_at)) / 1000);
}
function tickClock() {
  const el = $("hand-clock-left");
  const c = state.hand && state.hand.floor && state.hand.floor.clock;
  if (!el || !c) return;
  const left = clockLeft(c);
  el.textContent = seconds(Math.ceil(left));
  $("hand-clock").classList.toggle("final", left <= (Date.parse(c.expires_at) - Date.parse(c.final_countdown_at)) / 1000);
}
setInterval(tickClock, 250);

// A tournament table's blinds follow the tournament's clock, whose level changes are not
// events of the table's stream: between hands the tablet reads the table again every 10 s
// (QA: the header kept the last level's blinds until the next hand was started).
const TOURNAMENT_TABLE_REREAD_MS = 10_000;
setInterval(() => {
  const t = state.table;
  if (!t || t.mode !== "tournament" || t.current_hand_id || document.hidden) return;
  refreshTable().catch(() => {}); // a failed read shows on the next one; the feed's badge says why
}, TOURNAMENT_TABLE_REREAD_MS);

// All-in is a button only when the whole stack may go in: always in no limit, and in pot or
// fixed limit when it is a call or within the largest raise (BET-4; an all-in above the pot
// is refused, and a fixed-limit "all-in" would be only the fixed step).
function allInAllowed(h, legal) {
  if (legal.all_in_to <= legal.call_to) return true;
  if (!legal.can_bet && !legal.can_raise) return false; // a passive hand (BET-30..32)
  if (h.game === "NLH") return true;
  return (legal.can_bet || legal.can_raise) && legal.max_raise_to !== null && legal.all_in_to <= legal.max_raise_to;
}

function renderBetting(h) {
  const legal = h.legal;
  const buttons = [];
  if (legal.can_fold) buttons.push(`<button type="button" class="btn act fold" data-action="fold">${gettext("Fold")}</button>`);
  if (legal.can_check) buttons.push(`<button type="button" class="btn act" data-action="check">${gettext("Check")}</button>`);
  // a call that takes his whole stack is his all-in: one button, not "Call 1,900" beside
  // "All-in 2,000" for the same chips (the first what he adds, the second his total; QA)
  const callIsAllIn = legal.to_call > 0 && legal.all_in_to <= legal.call_to;
  if (legal.to_call > 0) buttons.push(`<button type="button" class="btn act${callIsAllIn ? " allin" : ""}" data-action="call">${gettext("Call")} ${number(callIsAllIn ? legal.all_in_to - (legal.call_to - legal.to_call) : legal.to_call)}${callIsAllIn ? ` · ${gettext("All-in")}` : ""}</button>`);
  if (legal.can_bet) buttons.push(`<button type="button" class="btn act primary" data-action="bet">${gettext("Bet")}</button>`);
  if (legal.can_raise) buttons.push(`<button type="button" class="btn act primary" data-action="raise">${gettext("Raise to")}</button>`);
  if (!callIsAllIn && allInAllowed(h, legal)) buttons.push(`<button type="button" class="btn act allin" data-action="all_in">${gettext("All-in")} ${number(legal.all_in_to)}</button>`);
  const key = JSON.stringify(legal);
  if ($("actions").dataset.key !== key) {
    $("actions").innerHTML = buttons.join("");
    $("actions").dataset.key = key;
    const box = $("amount-box");
    const sized = (legal.can_bet || legal.can_raise) && legal.min_raise_to !== null;
    box.hidden = !sized;
    if (sized) {
      for (const el of [$("amount"), $("amount-range")]) {
        el.min = legal.min_raise_to;
        el.max = legal.max_raise_to;
        el.value = legal.min_raise_to;
      }
      $("amount-bounds").textContent = interpolate(gettext("from %(min)s to %(max)s"), { min: number(legal.min_raise_to), max: number(legal.max_raise_to) }, true);
    }
  }
}

function clampAmount(v) {
  const legal = state.hand && state.hand.legal;
  if (!legal || legal.min_raise_to === null) return v;
  return Math.max(legal.min_raise_to, Math.min(legal.max_raise_to, Math.round(Number(v) || 0)));
}

function setAmount(v) {
  const value = clampAmount(v);
  $("amount").setCustomValidity("");
  $("amount").value = value;
  $("amount-range").value = value;
}

// What the dealer typed is what is sent, never clamped to the range: 999999 was recorded as an
// all-in and 1500.5 as 1,501 (found by QA). The slider follows a typed amount it can show.
$("amount").addEventListener("input", () => {
  const typed = $("amount").value;
  if (/^[0-9]+$/.test(typed)) $("amount-range").value = typed;
});
$("amount-range").addEventListener("input", () => setAmount($("amount-range").value));
document.querySelectorAll("[data-step]").forEach((b) => b.addEventListener("click", () => {
  const bb = state.table ? state.table.big_blind : 1;
  setAmount(Number($("amount").value) + Number(b.dataset.step) * bb);
}));
document.querySelectorAll("[data-preset]").forEach((b) => b.addEventListener("click", () => {
  const h = state.hand;
  if (!h || !h.legal) return;
  const { legal } = h;
  // pot-sized raise to: the call plus the pot after calling (every chip in, bets included)
  const potAfterCall = h.pot + legal.to_call;
  const values = {
    min: legal.min_raise_to,
    max: legal.max_raise_to,
    half: legal.call_to + Math.floor(potAfterCall / 2),
    pot: legal.call_to + potAfterCall,
  };
  setAmount(values[b.dataset.preset]);
}));

$("actions").addEventListener("click", (e) => {
  const button = e.target.closest("[data-action]");
  if (!button || !state.hand) return;
  const action = button.dataset.action;
  const body = { seat: state.hand.to_act, action };
  if (action === "bet" || action === "raise") {
    const field = $("amount");
    // Empty (the field is required) or not a whole amount in digits (the shell's rule for
    // every number field; the field's minimum is the legal raise, so it takes no sign):
    // nothing is sent. The server refuses a whole amount out of the range, with its rule.
    if (!plainNumber(field) || field.validity.valueMissing) {
      field.reportValidity();
      return;
    }
    body.amount_to = Number(field.value);
  }
  handWrite("actions/", body);
});

// --- chips pushed (BET-10..13, 17..24, 27): the dealer reports, the server rules -------------

// The chips offered: the room's chip set (the CASINO_CHIP_SET setting, in the page; a
// tournament's `denominations` is the director's to read, not a dealer tablet's), from the
// largest chip that fits in the small blind up to the stack of the player to act; any other
// chip is typed in ("Add").
const CHIP_SET = JSON.parse(document.getElementById("chip-set").textContent);

function chipValues(h) {
  const t = state.table;
  const seat = h.seats.find((x) => x.seat === h.to_act);
  const blind = t.small_blind || t.big_blind || 1;
  const low = Math.max(1, ...CHIP_SET.filter((c) => c <= blind));
  const values = CHIP_SET.filter((c) => c >= low && (!seat || c <= seat.stack));
  return values.length ? values : [low];
}

const motions = () => state.chips.motions;
const pushed = () => motions().filter((m) => m.length);

function renderChips(h) {
  // a new turn starts blank: nothing of the last player's chips is sent again
  const key = `${h.hand_id}:${h.street}:${h.to_act}`;
  if (state.chips.key !== key) {
    state.chips = { key, motions: [[]] };
    $("chips-said").value = "none";
    $("chips-amount").value = "";
    $("chip-other").value = "";
    $("chips-error").hidden = true;
    $("chips-box").open = false;
  }
  $("chips-for").textContent = `${gettext("Seat")} ${h.to_act}`;
  const values = chipValues(h);
  const valuesKey = values.join(",");
  if ($("chip-values").dataset.key !== valuesKey) {
    $("chip-values").dataset.key = valuesKey;
    $("chip-values").innerHTML = values.map((c) => `<button type="button" class="btn chip" data-chip="${c}">${number(c)}</button>`).join("");
  }
  const ms = motions();
  $("chip-motions").innerHTML = ms.map((m, i) => `<li data-motion="${i + 1}">${gettext("Motion")} ${i + 1}: ${m.length
    ? `${m.map((c) => number(c)).join(" + ")} = <strong>${number(m.reduce((a, c) => a + c, 0))}</strong>`
    : `<span class="muted">${gettext("no chips yet")}</span>`}</li>`).join("");
  $("chips-next-motion").disabled = ms[ms.length - 1].length === 0;
  $("chips-undo").disabled = ms.length === 1 && ms[0].length === 0;
  $("chips-amount-box").hidden = $("chips-said").value !== "raise";
}

// A tap on the control redraws it (only while the hand waits on the player to act).
function redrawChips() {
  if (state.hand && state.hand.phase === "betting") renderChips(state.hand);
}

function addChip(value) {
  const ms = motions();
  ms[ms.length - 1].push(value);
  $("chips-error").hidden = true;
  redrawChips();
}

$("chip-values").addEventListener("click", (e) => {
  const b = e.target.closest("[data-chip]");
  if (b && state.hand) addChip(Number(b.dataset.chip));
});
$("chip-other-add").addEventListener("click", () => {
  const value = Number($("chip-other").value);
  if (!state.hand) return;
  if (!Number.isInteger(value) || value < 1) {
    $("chips-error").textContent = gettext("A chip value is a whole number above 0.");
    $("chips-error").hidden = false;
    return;
  }
  addChip(value);
});
$("chips-next-motion").addEventListener("click", () => {
  const ms = motions();
  if (ms[ms.length - 1].length) ms.push([]);
  redrawChips();
});
$("chips-undo").addEventListener("click", () => {
  const ms = motions();
  if (ms[ms.length - 1].length) ms[ms.length - 1].pop();
  else if (ms.length > 1) ms.pop();
  redrawChips();
});
$("chips-clear").addEventListener("click", () => {
  state.chips.motions = [[]];
  redrawChips();
});
$("chips-said").addEventListener("change", redrawChips);
// opened: the whole control in view (the panel scrolls on a landscape tablet)
$("chips-box").addEventListener("toggle", () => {
  if ($("chips-box").open) $("chips-box").scrollIntoView({ block: "nearest" });
});

$("chips-submit").addEventListener("click", async () => {
  const h = state.hand;
  if (!h || h.phase !== "betting") return;
  const body = { seat: h.to_act, chips: pushed().map((m) => [...m]), announced: $("chips-said").value };
  if (body.announced === "raise" && $("chips-amount").value !== "") body.announced_amount_to = Number($("chips-amount").value);
  const answer = await handWrite("chips/", body, { errorBox: $("chips-error") });
  if (!answer) return; // the refusal is in the control's error box
  state.chipRuling = { hand_id: answer.hand.hand_id, version: answer.hand.version, ruling: answer.ruling };
  state.chips = { key: null, motions: [[]] };
  render();
});

// The ruling in words, with its rule ID: what the wager is, the rule's title (translated,
// from the server's list; else the server's sentence), and what the dealer does with the
// chips (completes the raise, returns the excess).
function chipHead(r) {
  const to = number(r.amount_to);
  return { call: gettext("Call"), check: gettext("Check"), bet: `${gettext("Bet")} ${to}`,
    raise: `${gettext("Raise to")} ${to}`, insufficient_call: gettext("Insufficient call") }[r.kind] || r.kind;
}

function chipRulingText(r) {
  const extra = [];
  if (r.completed) extra.push(gettext("to be completed"));
  if (r.returned) extra.push(interpolate(gettext("%(amount)s back to the player"), { amount: number(r.returned) }, true));
  return `${chipHead(r)} — ${ruleTitle(r.rule) || r.detail} (${r.rule})${extra.length ? ` · ${extra.join(" · ")}` : ""}`;
}

// Shown until the hand moves past it (the next action or ruling), then it is history.
function renderChipRuling() {
  const c = state.chipRuling;
  const h = state.hand || state.lastHand;
  const el = $("chips-ruling");
  const live = Boolean(c && h && h.hand_id === c.hand_id && h.version === c.version);
  el.hidden = !live;
  if (!live) return;
  el.textContent = chipRulingText(c.ruling);
  el.dataset.rule = c.ruling.rule;
  el.dataset.kind = c.ruling.kind;
}

// --- board entry and card picker ---------------------------------------------------------------

function usedCards() {
  const h = state.hand || state.lastHand;
  const used = new Set();
  if (!h) return used;
  for (const b of [h.board, ...(h.boards || [])]) for (const c of b || []) used.add(c);
  for (const s of h.seats) for (const c of splitCards(s.shown)) used.add(c);
  if (h.rabbit && h.rabbit.cards) for (const c of splitCards(h.rabbit.cards)) used.add(c);
  return used;
}

function cardsNeeded() {
  const h = state.hand;
  if (!h) return 0;
  if (h.phase === "showdown" && state.showSeat) return h.game === "PLO" ? 4 : 2;
  if (boardNeeded(h)) return h.next_street === "flop" ? 3 : 1;
  return 0;
}

function renderPicker() {
  const used = usedCards();
  const picked = new Set(state.picked);
  const rows = SUITS.map(([s, symbol]) => `<div class="suit-row">${RANKS.map((r) => {
    const card = r + s;
    const isUsed = used.has(card);
    return `<button type="button" class="pick ${s === "h" || s === "d" ? "red" : ""} ${picked.has(card) ? "on" : ""}" data-card="${card}" ${isUsed ? "disabled aria-disabled=true" : ""} aria-pressed="${picked.has(card)}" aria-label="${card}">${r === "T" ? "10" : r}${symbol}</button>`;
  }).join("")}</div>`);
  $("card-picker").innerHTML = rows.join("");
  const need = cardsNeeded();
  const pickedHtml = state.picked.map((c) => cardHtml(c)).join("") + "<span class='pcard blank'></span>".repeat(Math.max(0, need - state.picked.length));
  $("picked").innerHTML = pickedHtml;
  $("show-picked").innerHTML = state.showSeat ? `${gettext("Seat")} ${state.showSeat}: ${pickedHtml} <button type="button" class="btn primary" id="show-submit" ${state.picked.length === need ? "" : "disabled"}>${gettext("Show")}</button>` : "";
  $("board-submit").disabled = state.picked.length !== need;
}

$("card-picker").addEventListener("click", (e) => {
  const b = e.target.closest("[data-card]");
  if (!b || b.disabled) return;
  const card = b.dataset.card;
  if (usedCards().has(card)) { showNotice(gettext("That card is already in play."), "error"); return; }
  const i = state.picked.indexOf(card);
  if (i >= 0) state.picked.splice(i, 1);
  else if (state.picked.length < cardsNeeded()) state.picked.push(card);
  renderPicker();
});

function renderBoardEntry(h) {
  const run = h.run_count > 1 ? ` · ${gettext("run")} ${h.next_run}` : "";
  $("board-title").textContent = `${streetWord(h.next_street)}${run}`;
  const anyAllIn = h.seats.some((s) => s.all_in && !s.folded);
  // RAKE-10: only once the betting is over with the players left all in (the server's showdown)
  $("run-it").hidden = !(anyAllIn && h.phase === "showdown" && h.run_count === 1 && h.table_id && state.table.mode === "cash");
  if (state.pickFor !== `${h.hand_id}:${h.next_street}:${h.next_run}`) {
    state.pickFor = `${h.hand_id}:${h.next_street}:${h.next_run}`;
    state.picked = [];
  }
}

$("board-clear").addEventListener("click", () => { state.picked = []; renderPicker(); });
$("board-submit").addEventListener("click", async () => {
  const h = state.hand;
  const body = { street: h.next_street, cards: state.picked.join("") };
  if (h.run_count > 1) body.run = h.next_run;
  if (await handWrite("board/", body)) { state.picked = []; render(); }
});
$("run-it").addEventListener("click", (e) => {
  const b = e.target.closest("[data-times]");
  if (b) handWrite("run-it/", { times: Number(b.dataset.times) });
});

// --- showdown ---------------------------------------------------------------------------------

function renderShowdown(h) {
  // the server's show order (SD-13..15; all at once after an all-in, SD-10): first to show first
  const order = h.show_order ? h.show_order.seats : [];
  const rank = (seat) => (order.includes(seat) ? order.indexOf(seat) : order.length + seat);
  const live = h.seats.filter((s) => !s.folded).sort((a, b) => rank(a.seat) - rank(b.seat));
  // every live hand is turned face up once a player is all in at a tournament table (SD-11)
  // and at a cash table of the SD-10 rule (`allin_faceup_in_cash`): the server's show order
  // then cites that rule, and no muck is offered that the server refuses (found by QA)
  const faceUp = Boolean(h.show_order) && ["SD-10", "SD-11"].includes(h.show_order.rule);
  const first = h.show_order ? `<p class="muted" id="show-first">${interpolate(gettext("Shows first: seat %(seat)s (rule %(rule)s)"), { seat: order[0], rule: h.show_order.rule }, true)}</p>` : "";
  $("showdown-seats").innerHTML = first + live.map((s) => {
    if (s.shown) return `<div class="sd-row"><span>${gettext("Seat")} ${s.seat}</span> ${splitCards(s.shown).map((c) => cardHtml(c, "small")).join("")}</div>`;
    if (s.mucked) return `<div class="sd-row"><span>${gettext("Seat")} ${s.seat}</span> <span class="muted">${gettext("mucked")}</span></div>`;
    return `<div class="sd-row"><span>${gettext("Seat")} ${s.seat}</span>
      <button type="button" class="btn" data-show="${s.seat}" aria-pressed="${state.showSeat === s.seat}">${gettext("Show cards")}</button>
      ${faceUp ? "" : `<button type="button" class="btn" data-muck="${s.seat}">${gettext("Muck")}</button>`}</div>`;
  }).join("");
  if (state.showSeat && !live.some((s) => s.seat === state.showSeat && !s.shown && !s.mucked)) state.showSeat = null;
}

$("showdown").addEventListener("click", async (e) => {
  const show = e.target.closest("[data-show]");
  const muck = e.target.closest("[data-muck]");
  if (show) { state.showSeat = Number(show.dataset.show); state.picked = []; render(); }
  if (muck) {
    // SD-12: an all-in hand is never mucked unseen; the tablet mucked one on a tap (QA).
    // Only a player who threw it away on purpose gives it up, and the dealer says so.
    const seat = Number(muck.dataset.muck);
    const allIn = (state.hand.seats.find((x) => x.seat === seat) || {}).all_in;
    if (!allIn) handWrite("muck/", { seat });
    else if (confirm(interpolate(gettext("Seat %(seat)s is all in: an all-in hand is never mucked unseen (SD-12). Did the player throw it away on purpose?"), { seat }, true))) {
      handWrite("muck/", { seat, deliberate: true });
    }
  }
  if (e.target.id === "show-submit") {
    if (await handWrite("show/", { seat: state.showSeat, cards: state.picked.join("") })) {
      state.showSeat = null; state.picked = []; render();
    }
  }
});

$("open-award").addEventListener("click", () => {
  const h = state.hand;
  // the cards each seat tabled, as recorded: the dealer sees who showed (SD-3: once one
  // player of a pot showed, the server gives none of it to a seat that did not)
  const shown = new Map(h.seats.filter((s) => s.shown).map((s) => [s.seat, s.shown]));
  const tabled = (seat) => (shown.has(seat) ? ` <span class="cards">${splitCards(shown.get(seat)).map((c) => cardHtml(c, "small")).join("")}</span>` : "");
  $("award-pots").innerHTML = h.pots.map((p) => `<fieldset><legend>${p.index === 0 ? gettext("Main pot") : `${gettext("Side pot")} ${p.index}`} · ${money(p.amount)}</legend>
    ${p.eligible_seats.map((seat) => `<label class="check"><input type="checkbox" data-pot="${p.index}" value="${seat}"> ${gettext("Seat")} ${seat}${tabled(seat)}</label>`).join("")}</fieldset>`).join("");
  $("award-error").hidden = true;
  $("award-dialog").showModal();
});
$("award-submit").addEventListener("click", async () => {
  const h = state.hand;
  const winners = h.pots.map((p) => [...document.querySelectorAll(`#award-pots input[data-pot="${p.index}"]:checked`)].map((i) => Number(i.value)));
  // every pot needs a winner: said in the dialog's words, not the API's field path
  // ("winners_by_pot.0: Ensure this field has at least 1 elements", found by QA)
  const empty = h.pots.find((p, i) => winners[i].length === 0);
  if (empty) {
    $("award-error").textContent = interpolate(gettext("Tick a winner for %(pot)s."), { pot: empty.index === 0 ? gettext("Main pot") : `${gettext("Side pot")} ${empty.index}` }, true);
    $("award-error").hidden = false;
    return;
  }
  if (await handWrite("award/", { winners_by_pot: winners }, { errorBox: $("award-error") })) $("award-dialog").close();
});

// --- between hands: preview, straddles, start ---------------------------------------------

// A new game at a cash table starts with the dealer's high-card draw (SEAT-1). A tournament
// table's first button is the tournament's draw (TSEAT-8 at the final table too), which the
// server deals with: the tablet's own draw put the blinds on the wrong players (QA).
function needsDraw(t) {
  return !t.button_seat && t.mode !== "tournament";
}

function renderBetween() {
  const t = state.table;
  const p = state.preview;
  if (t.status === "closed") { // found by QA: a tablet of a closed table offered "Start hand"
    $("new-game").hidden = true;
    $("straddles").hidden = true;
    $("preview").innerHTML = `<p class="error">${gettext("Table closed.")}</p>`;
    $("start-hand").disabled = true;
    return;
  }
  const needDraw = needsDraw(t);
  $("new-game").hidden = !needDraw;
  if (needDraw) {
    const current = $("button-draw").value;
    $("button-draw").innerHTML = t.seats.map((s) => `<option value="${s.seat}" ${String(s.seat) === current ? "selected" : ""}>${gettext("Seat")} ${s.seat}</option>`).join("");
  }
  if (!p) {
    $("preview").innerHTML = `<p class="muted">${t.seats.length < 2 ? gettext("Seat at least two players to deal.") : ""}</p>`;
    $("start-hand").disabled = t.seats.length < 2;
    $("straddles").hidden = true;
    return;
  }
  if (p.error) { // what refuses a deal now (a tournament's break, CLK-8): said before a tap (QA)
    $("preview").innerHTML = `<p class="error" data-deal-refused>${esc(p.error)}</p>`;
    $("straddles").hidden = true;
    $("start-hand").disabled = true;
    return;
  }
  const posts = p.posts.map((x) => `${gettext("Seat")} ${x.seat}: ${postLabel(x.kind)}`);
  $("preview").innerHTML = `<dl class="preview">
    <dt>${gettext("Button")}</dt><dd>${gettext("seat")} ${p.button_seat}</dd>
    <dt>${gettext("Small blind")}</dt><dd>${p.small_blind_seat ? `${gettext("seat")} ${p.small_blind_seat}` : gettext("dead")}</dd>
    <dt>${gettext("Big blind")}</dt><dd>${gettext("seat")} ${p.big_blind_seat}</dd>
    <dt>${gettext("Dealt in")}</dt><dd>${p.dealt_in.join(", ")}</dd>
    ${posts.length ? `<dt>${gettext("Owed blinds posted")}</dt><dd>${posts.join("; ")}</dd>` : ""}
    ${p.waiting.length ? `<dt>${gettext("Waiting for the big blind")}</dt><dd>${p.waiting.join(", ")}</dd>` : ""}
    ${p.became_waiting.length ? `<dt>${gettext("Ask before dealing (post both blinds or wait)")}</dt><dd>${p.became_waiting.map((s) => `${s} <button type="button" class="btn small" data-post="${s}">${gettext("posts")}</button>`).join(" ")}</dd>` : ""}
  </dl>`;
  // straddle chain: from the seat after the big blind, in dealing order (SEAT-18, SEAT-19)
  const order = p.dealt_in;
  const bbIndex = order.indexOf(p.big_blind_seat);
  const chain = bbIndex >= 0 ? [...order.slice(bbIndex + 1), ...order.slice(0, bbIndex)].filter((s) => s !== p.big_blind_seat && s !== p.small_blind_seat) : [];
  const showStraddles = t.mode === "cash" && chain.length > 0 && !p.heads_up;
  $("straddles").hidden = !showStraddles;
  state.straddles = state.straddles.filter((s) => chain.includes(s));
  $("straddle-seats").innerHTML = chain.map((s) => `<label class="check"><input type="checkbox" value="${s}" ${state.straddles.includes(s) ? "checked" : ""}> ${gettext("Seat")} ${s}</label>`).join("");
  $("start-hand").disabled = false;
}

function postLabel(kind) {
  return { dead_sb: gettext("dead small blind"), posted_bb: gettext("big blind"), posted_sb: gettext("small blind") }[kind] || kind;
}

$("straddle-seats").addEventListener("change", () => {
  state.straddles = [...document.querySelectorAll("#straddle-seats input:checked")].map((i) => Number(i.value));
});
$("button-draw").addEventListener("change", () => refreshPreview().then(render));
$("preview").addEventListener("click", (e) => {
  const b = e.target.closest("[data-post]");
  if (b) tableWrite(`seats/${b.dataset.post}/sit-in/`, { post: true });
});
// SD-25/26: the dealer reports the next shuffle's first riffle or cut; at a table whose
// hand_closed_by names it, the last hand is closed to disputes of its reading from then on.
$("shuffle").addEventListener("click", async (e) => {
  const b = e.target.closest("[data-shuffle]");
  if (!b) return;
  const answer = await tableWrite("shuffle/", { step: b.dataset.shuffle });
  if (answer) b.setAttribute("aria-pressed", "true");
});
$("start-hand").addEventListener("click", async () => {
  document.querySelectorAll("#shuffle [data-shuffle]").forEach((x) => x.setAttribute("aria-pressed", "false"));
  const body = { straddles: state.straddles };
  if (needsDraw(state.table)) body.button_seat = Number($("button-draw").value);
  const hand = await tableWrite("hands/", body);
  if (hand) { state.straddles = []; state.lastHand = null; await refreshTable(); }
});

function renderResult() {
  const h = state.lastHand;
  if (!h) { $("result").innerHTML = ""; return; }
  if (h.voided) {
    $("result").innerHTML = `<p><strong>${h.voided.kind === "misdeal" ? gettext("Misdeal") : gettext("Void")}</strong>: ${esc(h.voided.reason)}</p>`;
    return;
  }
  const r = h.result;
  if (!r) { $("result").innerHTML = ""; return; }
  // A pot whose board ran more than once (RAKE-10) lists what each run paid, and with what.
  const potLine = (p) => {
    const name = p.index === 0 ? gettext("Main pot") : `${gettext("Side pot")} ${p.index}`;
    if (!p.runs || !p.runs.length) return `<li data-pot-result="${p.index}">${name} ${money(p.amount)}: ${p.winners.map(winnerHtml).join("")}</li>`;
    const runs = p.runs.map((r) => `<li data-run="${r.run}">${gettext("Run")} ${r.run} ${money(r.amount)}: ${r.winners.map(winnerHtml).join("")}</li>`);
    return `<li data-pot-result="${p.index}">${name} ${money(p.amount)}<ul class="result">${runs.join("")}</ul></li>`;
  };
  const lines = r.pots.map(potLine);
  if (r.uncalled.length) lines.push(`<li>${gettext("Uncalled bet returned")}: ${r.uncalled.map((u) => `${gettext("seat")} ${u.seat} ${number(u.amount)}`).join(", ")}</li>`);
  lines.push(`<li>${gettext("Rake")}: ${money(r.rake)}</li>`);
  if (h.rabbit) lines.push(`<li>${gettext("Rabbit hunt")}: ${splitCards(h.rabbit.cards).map((c) => cardHtml(c, "small")).join("")} (${gettext("fee")} ${money(h.rabbit.fee)})</li>`);
  $("result").innerHTML = `<p class="muted">${gettext("Hand")} #${h.hand_number}</p><ul class="result">${lines.join("")}</ul>`;
}

// --- seats: seat, top-up, sit out/in, cash-out ------------------------------------------------

let dialogSeat = null;
$("seats").addEventListener("click", (e) => {
  const b = e.target.closest("[data-seat]");
  if (!b) return;
  dialogSeat = Number(b.dataset.seat);
  const taken = state.table.seats.find((s) => s.seat === dialogSeat);
  $("seat-dialog-title").textContent = `${gettext("Seat")} ${dialogSeat}`;
  // a tournament table's seats and stacks are the tournament's: the cash controls were
  // offered there and every one was refused (found by QA)
  const tournament = state.table.mode === "tournament";
  $("seat-empty").hidden = !!taken || tournament;
  $("seat-taken").hidden = !taken;
  $("seat-cash").hidden = tournament;
  $("seat-tournament").hidden = !tournament;
  $("seat-error").hidden = true;
  $("seat-restriction").textContent = "";
  // Every amount and payment is this player's, typed now: the last seat's top-up stayed in
  // the field, one tap from recording cash the next player never gave (found by QA).
  for (const id of ["topup-amount", "seat-buyin"]) $(id).value = "";
  for (const id of ["topup-paid", "seat-paid"]) $(id).selectedIndex = 0;
  if (taken) {
    $("seat-info").innerHTML = `${gettext("Player")} ${esc(playerLabel(taken.player_id))} · ${money(taken.stack)} · ${statusLabel(taken.status)}`;
    $("sit-out").hidden = taken.status === "sitting_out";
    $("sit-in-wait").hidden = taken.status !== "sitting_out";
    $("sit-in-post").hidden = !(taken.status === "sitting_out" || taken.status === "waiting" || taken.status === "new");
  } else {
    // The buy-in is the cash (or cage chips) the player hands over: the dealer types it.
    // The script never writes an amount into the field; the minimum is only a hint (the
    // placeholder and the line above it). A lookup used to raise a typed amount to the
    // SES-7 minimum, seating the player for more cash than he gave (found by QA).
    $("seat-player").value = "";
    $("seat-restriction").classList.remove("error");
    $("seat-buyin").value = "";
    $("seat-buyin").placeholder = String(state.table.buy_in_min);
    $("seat-buyin").min = 1;
  }
  $("seat-dialog").showModal();
});

// The player number typed: the server names the player (nickname, "Jan N."), the buy-in he
// may bring here (BI-3..5, SES-7) or the refusal the seat would get (BI-10, BI-11), so a
// mistyped number is seen before the cash is counted (GET seat-check: the seat's own checks,
// nothing written). The minimum is only a hint: a typed amount is never overwritten.
let seatCheckTimer = null;
async function checkSeat() {
  clearTimeout(seatCheckTimer);
  const asked = $("seat-player").value;
  const id = Number(asked);
  const box = $("seat-restriction");
  if (!id) { box.textContent = ""; box.classList.remove("error"); return; }
  let text;
  let refused = false;
  let minimum = state.table.buy_in_min;
  try {
    const c = await get(`${tablePath("seat-check/")}?player_id=${id}`);
    const who = [c.nickname, c.short_name].filter(Boolean).join(" · ") || `#${id}`;
    if (c.refusal) {
      refused = true;
      text = `${who}: ${describeError(new ApiError(422, c.refusal))}`;
    } else {
      minimum = c.buy_in_min;
      text = `${who} — ${c.rule === "SES-7"
        ? interpolate(gettext("Returning player (SES-7): at least %(amount)s."), { amount: money(c.buy_in_min) }, true)
        : interpolate(gettext("Buy-in from %(min)s to %(max)s."), { min: money(c.buy_in_min), max: money(c.buy_in_max) }, true)}`;
    }
  } catch (err) {
    refused = true;
    text = describeError(err);
  }
  // an answer for another player (the number changed meanwhile, or the dialog was closed) is old
  if (!$("seat-dialog").open || $("seat-player").value !== asked) return;
  box.textContent = text;
  box.classList.toggle("error", refused);
  $("seat-buyin").placeholder = String(minimum); // a hint only: a typed amount is kept as typed
}
$("seat-player").addEventListener("change", checkSeat);
$("seat-player").addEventListener("input", () => {
  clearTimeout(seatCheckTimer);
  seatCheckTimer = setTimeout(checkSeat, 350);
});

const seatErr = () => ({ errorBox: $("seat-error") });
async function seatWrite(path, body) {
  if (await act(path, body, seatErr())) $("seat-dialog").close();
}
$("seat-submit").addEventListener("click", () => {
  // an empty or invalid buy-in is not sent (the browser says why): only a typed amount is
  if (!$("seat-buyin").reportValidity()) return;
  seatWrite(tablePath("seats/"), {
    player_id: Number($("seat-player").value), seat: dialogSeat,
    buy_in: Number($("seat-buyin").value), paid_with: $("seat-paid").value,
  });
});
$("topup-submit").addEventListener("click", async () => {
  // an empty amount is the field's own check, not a validator's sentence from the server (QA)
  if (!$("topup-amount").reportValidity()) return;
  const seat = dialogSeat;
  const amount = Number($("topup-amount").value);
  const answer = await act(tablePath(`seats/${seat}/top-up/`), {
    amount, paid_with: $("topup-paid").value,
  }, seatErr());
  if (!answer) return;
  $("seat-dialog").close();
  // BI-6, table stakes: declared during his hand, the chips wait beside the stack
  const after = (answer.seats.find((s) => s.seat === seat) || {}).top_up_after_hand;
  if (after) showNotice(interpolate(gettext("Top-up paid. Seat %(seat)s: %(amount)s goes on the stack when the hand ends (table stakes, BI-6)."), { seat, amount: number(after) }, true));
  else showNotice(interpolate(gettext("Seat %(seat)s topped up %(amount)s."), { seat, amount: number(amount) }, true));
});
$("sit-out").addEventListener("click", () => seatWrite(tablePath(`seats/${dialogSeat}/sit-out/`), {}));
$("sit-in-wait").addEventListener("click", () => seatWrite(tablePath(`seats/${dialogSeat}/sit-in/`), { post: false }));
$("sit-in-post").addEventListener("click", () => seatWrite(tablePath(`seats/${dialogSeat}/sit-in/`), { post: true }));
$("cash-out").addEventListener("click", async () => {
  if (!confirm(gettext("Cash out the whole stack and free the seat?"))) return;
  const seat = dialogSeat;
  const answer = await act(tablePath(`seats/${seat}/cash-out/`), {}, seatErr());
  if (!answer) return;
  $("seat-dialog").close();
  // the amount the player takes to the cage, said once (QA: nothing confirmed it)
  showNotice(interpolate(gettext("Seat %(seat)s cashed out %(amount)s."), { seat, amount: number(answer.amount) }, true));
});

// --- misdeal, void, rabbit hunt ------------------------------------------------------------------

// "More" closes once one of its actions is chosen (it stayed open under "Start hand")
$("more").querySelector(".more-body").addEventListener("click", (e) => {
  if (e.target.closest("button")) $("more").open = false;
});

$("open-misdeal").addEventListener("click", () => {
  if (!state.hand) { showNotice(gettext("No hand running."), "error"); return; }
  $("misdeal-error").hidden = true;
  $("misdeal-kind").value = "misdeal"; // each hand's ruling starts blank: no reason of another hand
  $("misdeal-reason").value = "";
  $("misdeal-dialog").showModal();
});
$("misdeal-submit").addEventListener("click", async () => {
  const reason = $("misdeal-reason").value.trim();
  if (!reason) { $("misdeal-error").textContent = gettext("Give a reason."); $("misdeal-error").hidden = false; return; }
  const path = $("misdeal-kind").value === "misdeal" ? "misdeal/" : "void/";
  if (await handWrite(path, { reason }, { errorBox: $("misdeal-error") })) $("misdeal-dialog").close();
});
$("open-rabbit").addEventListener("click", () => {
  const h = state.lastHand;
  if (!h || state.hand) { showNotice(gettext("A rabbit hunt is recorded after the hand."), "error"); return; }
  $("rabbit-seat").innerHTML = h.seats.map((s) => `<option value="${s.seat}">${gettext("Seat")} ${s.seat}</option>`).join("");
  $("rabbit-cards").value = "";
  $("rabbit-fee").value = ""; // RAKE-8: the requester pays a fee; the dealer types it
  $("rabbit-error").hidden = true;
  renderRabbitConsent();
  $("rabbit-dialog").showModal();
});
// RAKE-8: every other player dealt in consents; the dealer ticks each one who does.
function renderRabbitConsent() {
  const h = state.lastHand;
  const hunter = Number($("rabbit-seat").value);
  $("rabbit-consent-seats").innerHTML = h.seats.filter((s) => s.seat !== hunter).map((s) =>
    `<label class="check"><input type="checkbox" value="${s.seat}"> ${gettext("Seat")} ${s.seat} · ${esc(playerLabel(s.player_id))}</label>`).join("");
}
$("rabbit-seat").addEventListener("change", renderRabbitConsent);
$("rabbit-consent").addEventListener("change", () => { $("rabbit-error").hidden = true; });
$("rabbit-submit").addEventListener("click", async () => {
  const h = state.lastHand;
  const cards = $("rabbit-cards").value.trim();
  const used = usedCards();
  if (splitCards(cards).some((c) => used.has(c))) {
    $("rabbit-error").textContent = gettext("That card is already in play.");
    $("rabbit-error").hidden = false;
    return;
  }
  const consenting = [...$("rabbit-consent-seats").querySelectorAll("input:checked")].map((c) => Number(c.value));
  const answer = await act(`/api/v1/hands/${h.hand_id}/rabbit-hunt/`, {
    seat: Number($("rabbit-seat").value), cards, fee: Number($("rabbit-fee").value),
    consenting_seats: consenting,
  }, { errorBox: $("rabbit-error"), ifMatch: h.version });
  if (answer) { state.lastHand = answer; render(); $("rabbit-dialog").close(); }
});

// --- the floor's rulings during a hand (BET-2, BET-25..32, SEAT-12, SD-17..19, MIS-4..21) ---

const RULING_PATHS = {
  clock: "clock/", exposure: "exposures/", out_of_turn: "out-of-turn/", burn: "burns/",
  absence: "absences/", show_request: "show-requests/", irregularity: "irregularities/",
};

function seatOptions(seats) {
  return seats.map((s) => `<option value="${s.seat}">${gettext("Seat")} ${s.seat} · ${esc(playerLabel(s.player_id))}</option>`).join("");
}

function renderRulingForm() {
  const kind = $("ruling-kind").value;
  for (const el of $("ruling-dialog").querySelectorAll("[data-for]")) el.hidden = !el.dataset.for.split(" ").includes(kind);
  // an irregularity may concern no seat (a deck changed, a four-card flop)
  $("ruling-seat").options[0].hidden = kind !== "irregularity";
  if (kind !== "irregularity" && !$("ruling-seat").value) $("ruling-seat").selectedIndex = 1;
  $("ruling-error").hidden = true;
}

// Each ruling starts blank: nothing of another hand's ruling is carried over.
$("open-ruling").addEventListener("click", () => {
  const h = state.hand;
  if (!h) { showNotice(gettext("No hand running."), "error"); return; }
  $("ruling-seat").innerHTML = `<option value="">${gettext("no seat")}</option>${seatOptions(h.seats.filter((s) => !s.folded))}`;
  // in a cash game only a player still holding cards may call the clock (BET-28)
  const callers = h.seats.filter((s) => s.seat !== h.to_act && (state.table.mode === "tournament" || !s.folded));
  $("ruling-by").innerHTML = seatOptions(callers);
  $("ruling-asker").innerHTML = `<option value="">${gettext("the floor")}</option>${seatOptions(h.seats)}`;
  $("ruling-on").textContent = h.to_act ? `${gettext("On")} ${gettext("seat")} ${h.to_act}` : gettext("Nobody is to act.");
  $("ruling-policy").value = state.table.mode === "tournament" ? "tournament_000" : "cash_000";
  for (const id of ["ruling-cards", "ruling-amount", "ruling-card", "ruling-note"]) $(id).value = "";
  $("ruling-deliberate").checked = false;
  $("ruling-floor-order").checked = false;
  $("ruling-seconds").value = "60";
  $("ruling-street").value = h.next_street || "flop";
  renderRulingForm();
  $("ruling-dialog").showModal();
});
$("ruling-kind").addEventListener("change", renderRulingForm);

function rulingBody(kind) {
  const seat = Number($("ruling-seat").value);
  const optional = (id) => ($(id).value === "" ? {} : { [id === "ruling-amount" ? "amount_to" : "requested_by"]: Number($(id).value) });
  switch (kind) {
    case "clock": return { called_by: Number($("ruling-by").value), seconds: $("ruling-seconds").value === "" ? 60 : Number($("ruling-seconds").value) };
    case "exposure": return { seat, cards: $("ruling-cards").value.trim(), policy: $("ruling-policy").value, deliberate_for_reaction: $("ruling-deliberate").checked };
    case "out_of_turn": return { seat, action: $("ruling-action").value, ...optional("ruling-amount") };
    case "burn": return { street: $("ruling-street").value, card: $("ruling-card").value.trim() };
    case "absence": return { seat };
    case "show_request": return { seat, floor_order: $("ruling-floor-order").checked, ...optional("ruling-asker") };
    default: return { cause: $("ruling-cause").value, ...(seat ? { seat } : {}), ...($("ruling-note").value.trim() ? { note: $("ruling-note").value.trim() } : {}) };
  }
}

$("ruling-submit").addEventListener("click", async () => {
  const kind = $("ruling-kind").value;
  if (await handWrite(RULING_PATHS[kind], rulingBody(kind), { errorBox: $("ruling-error") })) $("ruling-dialog").close();
});

// --- sidebets between two seated players (RAKE-5), cash tables only -------------------------
// Staff do not rule on a sidebet: the dealer records it, and settles it (the loser's chips
// to the winner) or calls it off as the two players say. The server refuses a settlement
// while a hand runs, and a sidebet that either stack does not cover; the refusal shows in
// the dialog. The open sidebets are the table's (`sidebets`), kept current by its feed.

function renderSidebetControl() {
  const t = state.table;
  const cash = t.mode !== "tournament";
  const open = t.sidebets || [];
  $("open-sidebets").hidden = !cash;
  $("sidebets-count").textContent = number(open.length);
  $("sidebets-count").hidden = !open.length;
  if (!cash && $("sidebets-dialog").open) $("sidebets-dialog").close();
  if ($("sidebets-dialog").open) renderSidebets();
}

function sidebetPlayers(seats, selected) {
  return seats.map((s) => `<option value="${s.player_id}" ${s.player_id === selected ? "selected" : ""}>${gettext("Seat")} ${s.seat} · ${esc(playerLabel(s.player_id))}</option>`).join("");
}

function renderSidebets() {
  const t = state.table;
  const open = t.sidebets || [];
  $("sidebets-list").innerHTML = open.length ? open.map((b) => {
    const won = (id) => esc(interpolate(gettext("%(player)s won"), { player: playerLabel(id) }, true));
    return `<li class="sidebet" data-sidebet="${esc(b.sidebet_id)}">
      <div class="sidebet-who"><strong>${esc(playerLabel(b.player_a))}</strong> ${gettext("against")} <strong>${esc(playerLabel(b.player_b))}</strong> · <span class="sidebet-amount">${money(b.amount)}</span></div>
      <div class="sidebet-ops"><span class="muted">${gettext("Settle:")}</span>
        <button type="button" class="btn" data-winner="${b.player_a}">${won(b.player_a)}</button>
        <button type="button" class="btn" data-winner="${b.player_b}">${won(b.player_b)}</button>
        <button type="button" class="btn danger" data-call-off="true">${gettext("Call off")}</button></div></li>`;
  }).join("") : `<li class="muted" id="sidebets-none">${gettext("No open sidebets.")}</li>`;
  // the two players: the seated ones, rebuilt only when who sits changes (a choice is kept)
  const seats = t.seats;
  const key = seats.map((s) => `${s.seat}:${playerLabel(s.player_id)}`).join(",");
  if ($("sidebet-a").dataset.key !== key) {
    $("sidebet-a").dataset.key = key;
    const ids = seats.map((s) => s.player_id);
    const keep = (id, fallback) => (ids.includes(id) ? id : fallback);
    const a = keep(Number($("sidebet-a").value), ids[0]);
    const b = keep(Number($("sidebet-b").value), ids.find((id) => id !== a));
    $("sidebet-a").innerHTML = sidebetPlayers(seats, a);
    $("sidebet-b").innerHTML = sidebetPlayers(seats, b);
  }
  $("sidebet-submit").disabled = seats.length < 2;
}

// One write of the dialog; a refusal shows in the dialog's error box, scrolled into view.
async function sidebetAct(path, body) {
  const answer = await act(path, body, { errorBox: $("sidebets-error") });
  if (!answer && !$("sidebets-error").hidden) $("sidebets-error").scrollIntoView({ block: "nearest" });
  return answer;
}

// Each opening starts blank: the players from who sits now, no amount of another sidebet.
$("open-sidebets").addEventListener("click", () => {
  if (!state.table || state.table.mode === "tournament") return;
  $("sidebets-error").hidden = true;
  $("sidebet-amount").value = "";
  $("sidebet-description").value = "";
  $("sidebet-a").value = "";
  $("sidebet-b").value = "";
  $("sidebet-a").dataset.key = "";
  renderSidebets();
  $("sidebets-dialog").showModal();
});

$("sidebet-submit").addEventListener("click", async () => {
  const body = {
    player_a: Number($("sidebet-a").value), player_b: Number($("sidebet-b").value),
    amount: Number($("sidebet-amount").value),
  };
  const description = $("sidebet-description").value.trim();
  if (description) body.description = description;
  if (await sidebetAct(tablePath("sidebets/"), body)) {
    $("sidebet-amount").value = "";
    $("sidebet-description").value = "";
  }
});

$("sidebets-list").addEventListener("click", (e) => {
  const row = e.target.closest("[data-sidebet]");
  if (!row) return;
  const id = row.dataset.sidebet;
  const winner = e.target.closest("[data-winner]");
  if (winner) { sidebetAct(tablePath(`sidebets/${id}/settle/`), { winner: Number(winner.dataset.winner) }); return; }
  if (!e.target.closest("[data-call-off]")) return;
  const bet = (state.table.sidebets || []).find((b) => b.sidebet_id === id);
  if (!bet) return;
  const question = interpolate(gettext("Call off the sidebet of %(a)s and %(b)s (%(amount)s)? No chips move."),
    { a: playerLabel(bet.player_a), b: playerLabel(bet.player_b), amount: money(bet.amount) }, true);
  if (confirm(question)) sidebetAct(tablePath(`sidebets/${id}/call-off/`), {});
});

// --- Show poker (SHOW-1..27) ----------------------------------------------------------------

async function refreshShow() {
  const id = state.table && state.table.current_hand_id;
  if (!id) {
    if (state.show) { state.lastShow = state.show; state.show = null; }
  } else {
    setShow(await get(`/api/v1/show-hands/${id}/`));
  }
  render();
}

function setShow(hand) {
  if (state.feed) state.feed.adopt(`show-hand-${hand.hand_id}`, hand.version);
  if (hand.phase === "complete") { state.lastShow = hand; state.show = null; } else state.show = hand;
}

async function showAct(path, body) {
  if (state.busy) return null;
  state.busy = true;
  document.body.classList.add("busy");
  try {
    const answer = await post(path, body);
    $("show-error").hidden = true;
    clearNotice();
    setShow(answer);
    await refreshTable(); // stacks, and whether a hand runs
    return answer;
  } catch (err) {
    $("show-error").textContent = describeError(err);
    $("show-error").hidden = false;
    return null;
  } finally {
    state.busy = false;
    document.body.classList.remove("busy");
  }
}

const showPath = (op) => `/api/v1/show-hands/${state.show.hand_id}/${op}/`;

function showPhaseWord(p) {
  return { deal: gettext("the deal"), declaring: gettext("declarations"), buying: gettext("buying cards"),
    awaiting_card: gettext("next card"), showdown: gettext("showdown"), complete: gettext("complete") }[p] || p;
}

function renderShow() {
  const h = state.show;
  const shown = h || state.lastShow;
  const t = state.table;
  $("turn").textContent = h ? `${gettext("Show poker")}: ${showPhaseWord(h.phase)}${h.to_act ? ` · ${gettext("seat")} ${h.to_act}` : ""}` : gettext("Between hands");
  // each hand starts with its boxes closed and blank: nothing of the last hand is sent again
  const handKey = h ? h.hand_id : "";
  if ($("show-panel").dataset.hand !== handKey) {
    $("show-panel").dataset.hand = handKey;
    for (const box of ["show-report-box", "show-count-box", "show-challenge-box"]) $(box).open = false;
    for (const input of ["show-count", "show-card-input"]) $(input).value = "";
  }
  const over = Boolean(shown && shown.phase === "complete");
  $("show-state").innerHTML = shown ? [
    ...(shown.misdealt ? [[gettext("Misdeal"), gettext("the hand is abandoned, every chip back (SHOW-5)")]] : []),
    [gettext("Board"), shown.board.join(" ") || "—"],
    [gettext("Pot"), money(shown.pot)],
    ...(over ? [] : [
      [gettext("Leading"), shown.leader ? `${gettext("seat")} ${shown.leader.seat}: ${esc(shown.leader.hand)}` : "—"],
      [gettext("Next card costs"), shown.next_card_price ? money(shown.next_card_price) : "—"],
    ]),
    [gettext("Out"), shown.seats.filter((x) => x.folded || x.dead).map((x) => x.seat).join(", ") || "—"],
    ...(h && h.clock_expires_at ? [[gettext("Showdown clock"), `<span id="show-clock-left" data-until="${h.clock_expires_at}"></span>`]] : []),
    ...(shown.awards.length ? [[gettext("Won"), shown.awards.map((a) => `${gettext("seat")} ${a.winner} +${money(a.amount)}`).join(", ")]] : []),
  ].map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join("") : "";
  $("show-declarations").innerHTML = shown ? shown.declarations.map((d) => `<li>${gettext("Seat")} ${d.seat}: ${esc(d.text)}
    <span class="muted">(${esc(d.hand)}${d.false ? `, ${gettext("false")}` : d.leading ? `, ${gettext("leading")}` : ""})</span></li>`).join("") : "";
  tickShowClock();
  // between hands: deal one (the first hand of a game draws the button, SEAT-1)
  $("show-start").hidden = Boolean(h);
  $("show-new-game").hidden = Boolean(t.button_seat);
  if (!t.button_seat) {
    const current = $("show-button-draw").value;
    $("show-button-draw").innerHTML = t.seats.map((x) => `<option value="${x.seat}" ${String(x.seat) === current ? "selected" : ""}>${gettext("Seat")} ${x.seat}</option>`).join("");
  }
  // the flop (three cards) and each bought card are entered by the dealer
  const cards = h && (h.phase === "deal" || h.phase === "awaiting_card");
  $("show-cards").hidden = !cards;
  if (cards) {
    $("show-card-label").textContent = h.phase === "deal" ? gettext("Flop: three cards (e.g. 2c5d7h)") : gettext("The next card");
    $("show-card-submit").textContent = h.phase === "deal" ? gettext("Deal the flop") : gettext("Turn the card");
  }
  // before the flop: who is away (SHOW-4), a single card exposed (SHOW-7), a dealing error (SHOW-5)
  const dealing = Boolean(h && h.phase === "deal");
  $("show-flop-extra").hidden = !dealing;
  $("show-report-box").hidden = !dealing;
  const dealtKey = dealing ? `${h.hand_id}:${h.seats.map((x) => x.seat).join(",")}` : "";
  if (dealing && $("show-flop-extra").dataset.key !== dealtKey) { // each hand starts blank
    $("show-flop-extra").dataset.key = dealtKey;
    const ticks = (name) => h.seats.map((x) => `<label class="check"><input type="checkbox" name="${name}" value="${x.seat}"> ${gettext("Seat")} ${x.seat}</label>`).join("");
    $("show-absent-seats").innerHTML = ticks("absent");
    $("show-wrong-seats").innerHTML = ticks("wrong");
    $("show-exposed-seats").innerHTML = ticks("exposed");
    $("show-exposed-seat").innerHTML = `<option value="">${gettext("none")}</option>` + h.seats.map((x) => `<option value="${x.seat}">${gettext("Seat")} ${x.seat}</option>`).join("");
    $("show-exposed-card").value = "";
  }
  // after a declaration or a purchase: cards found in a hand (SHOW-6)
  const counting = Boolean(h && ["declaring", "buying", "awaiting_card"].includes(h.phase)
    && (h.declarations.length || h.board.length > 3)); // after a declaration or a purchase (SHOW-6)
  $("show-count-box").hidden = !counting;
  if (counting) {
    const live = h.seats.filter((x) => !x.folded && !x.dead).map((x) => x.seat);
    const key = live.join(",");
    if ($("show-count-seat").dataset.key !== key) {
      $("show-count-seat").dataset.key = key;
      $("show-count-seat").innerHTML = live.map((x) => `<option value="${x}">${gettext("Seat")} ${x}</option>`).join("");
    }
  }
  // the player to act declares, checks, folds or buys; at showdown each declares and shows
  const turn = h && ["declaring", "buying", "showdown"].includes(h.phase) && (h.to_act || h.phase === "showdown");
  $("show-turn").hidden = !turn;
  if (turn) {
    const atShowdown = h.phase === "showdown";
    $("show-shown").hidden = !atShowdown;
    $("show-shown-label").hidden = !atShowdown;
    $("show-text").hidden = h.phase === "buying";
    document.querySelector("label[for=show-text]").hidden = h.phase === "buying";
    const who = atShowdown ? (h.to_act || "") : h.to_act;
    const live = h.seats.filter((x) => !x.folded && !x.dead).map((x) => x.seat);
    const buttons = [];
    if (atShowdown) {
      buttons.push(`<select id="show-seat" aria-label="${gettext("Seat")}">${live.map((x) => `<option value="${x}" ${x === who ? "selected" : ""}>${gettext("Seat")} ${x}</option>`).join("")}</select>`);
      buttons.push(`<button type="button" class="btn act primary" data-show-op="declare">${gettext("Declare and show")}</button>`);
      buttons.push(`<button type="button" class="btn act fold" data-show-op="fold">${gettext("Fold")}</button>`);
    } else if (h.phase === "declaring") {
      buttons.push(`<button type="button" class="btn act primary" data-show-op="declare">${gettext("Declare")}</button>`);
      buttons.push(`<button type="button" class="btn act" data-show-op="check">${gettext("Check")}</button>`);
      buttons.push(`<button type="button" class="btn act fold" data-show-op="fold">${gettext("Fold")}</button>`);
      buttons.push(`<button type="button" class="btn act" data-show-op="push-over-line">${gettext("Chips over the line")}</button>`);
    } else {
      buttons.push(`<button type="button" class="btn act primary" data-show-op="buy">${gettext("Buy")} ${money(h.next_card_price || 0)}</button>`);
      buttons.push(`<button type="button" class="btn act fold" data-show-op="fold">${gettext("Fold")}</button>`);
    }
    const key = JSON.stringify([h.hand_id, h.phase, h.to_act, live]);
    if ($("show-actions").dataset.key !== key) {
      $("show-actions").innerHTML = buttons.join("");
      $("show-actions").dataset.key = key;
      $("show-text").value = "";
      $("show-shown").value = "";
    }
  }
  $("show-challenge-box").hidden = !(h && h.phase === "declaring"); // SHOW-10: in a declaration round
  $("show-clock").hidden = !(h && h.phase === "showdown");
}

// The showdown clock (SHOW-26) counting down to its end, corrected at each read of the hand.
function tickShowClock() {
  const el = $("show-clock-left");
  if (!el) return;
  const left = Math.max(0, (Date.parse(el.dataset.until) - Date.now()) / 1000);
  el.textContent = left > 0 ? seconds(left) : gettext("ran out");
}
setInterval(tickShowClock, 250);

$("show-deal").addEventListener("click", async () => {
  if (state.busy) return; // one deal per tap
  const body = state.table.button_seat ? {} : { button_seat: Number($("show-button-draw").value) };
  state.busy = true;
  const answer = await (async () => {
    try { return await post(`/api/v1/tables/${state.table.table_id}/show-hands/`, body); } catch (err) {
      $("show-error").textContent = describeError(err); $("show-error").hidden = false; return null;
    } finally { state.busy = false; }
  })();
  if (answer) { $("show-error").hidden = true; setShow(answer); await refreshTable(); }
});
const ticked = (id) => [...$(id).querySelectorAll("input:checked")].map((i) => Number(i.value));
$("show-card-submit").addEventListener("click", async () => {
  const value = $("show-card-input").value.trim();
  let answer;
  if (state.show.phase === "deal") {
    const body = { cards: value, absent_seats: ticked("show-absent-seats") };
    if ($("show-exposed-seat").value) {
      body.exposed_seat = Number($("show-exposed-seat").value);
      body.exposed_card = $("show-exposed-card").value.trim();
    }
    answer = await showAct(showPath("flop"), body);
  } else {
    answer = await showAct(showPath("turn-card"), { card: value });
  }
  if (answer) $("show-card-input").value = "";
});
$("show-report").addEventListener("click", () => {
  const wrong = ticked("show-wrong-seats");
  const exposed = ticked("show-exposed-seats");
  if (!wrong.length && exposed.length < 2) { // not a misdeal: nothing the report would record
    $("show-error").textContent = gettext("Not a misdeal: a single exposed card goes on the flop (SHOW-7); enter it with the flop.");
    $("show-error").hidden = false;
    return;
  }
  showAct(showPath("deal-report"), { wrong_count_seats: wrong, exposed_seats: exposed });
});
$("show-count-submit").addEventListener("click", () => {
  showAct(showPath("card-count"), { seat: Number($("show-count-seat").value), count: Number($("show-count").value) });
});
$("show-actions").addEventListener("click", (e) => {
  const b = e.target.closest("button[data-show-op]");
  if (!b || !state.show) return;
  const op = b.dataset.showOp;
  const seat = state.show.phase === "showdown" ? Number($("show-seat").value) : state.show.to_act;
  const body = { seat };
  if (op === "declare") {
    body.text = $("show-text").value.trim();
    if (state.show.phase === "showdown") body.shown = $("show-shown").value.trim();
  }
  showAct(showPath(op), body);
});
$("show-challenge").addEventListener("click", () => {
  if (!state.show) return;
  showAct(showPath("challenge"), {
    challenger: Number($("show-challenger").value), seat: Number($("show-challenged").value),
    cards: $("show-challenged-cards").value.trim(),
  });
});
$("show-start-clock").addEventListener("click", () => {
  // the dealer presses it once no better hand has come for 10 s (SHOW-26)
  showAct(showPath("start-clock"), { idle_since: new Date(Date.now() - 12_000).toISOString() });
});
$("show-expire-clock").addEventListener("click", () => showAct(showPath("expire-clock"), {}));

boot();
