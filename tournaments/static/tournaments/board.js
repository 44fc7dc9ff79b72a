// The tournament clock board (issue #13). Public feed /ws/tournaments/<id>/clock/: whole
// clock snapshots (no names). The time left counts down locally from the snapshot's
// seconds_left, measured from when the snapshot arrived; each new snapshot (a level or a
// break started by the timer, a pause, an entry, an elimination) corrects it. At 0:00 the
// board waits for the feed's next level rather than guessing it.
import { Feed } from "../casino/feed.js";
import { amount, esc, number, seconds, time } from "../casino/fmt.js";
import { startWallClock } from "../casino/board.js";
import { lateRegistrationText } from "./clock.js";

const T = JSON.parse(document.getElementById("board-i18n").textContent);
const id = document.getElementById("tclock").dataset.tournament;
const $ = (x) => document.getElementById(x);
let state = null;
let receivedAt = 0;

function running(c) {
  return state && state.status === "running" && !c.paused;
}

// A finished or cancelled tournament has no clock: its last level's time and blinds would
// read as a clock stopped by mistake.
const over = () => state && (state.status === "finished" || state.status === "cancelled");

function render() {
  const c = state.clock;
  $("t-name").textContent = state.name;
  document.title = `${state.name} · ${T.clock}`;
  const level = $("level");
  level.dataset.level = String(c.level);
  if (state.status === "registering") level.textContent = T.registering;
  else if (state.status === "finished") level.textContent = T.finished;
  else if (state.status === "cancelled") level.textContent = T.cancelled; // its clock stands still
  else if (c.on_break) level.textContent = T.break;
  else level.textContent = `${T.level} ${c.level}`;
  const ante = c.ante ? ` · ${c.ante_type === "big_blind_ante" ? T.bbAnte : T.ante} ${number(c.ante)}` : "";
  $("blinds").textContent = over() ? "" : `${number(c.small_blind)} / ${number(c.big_blind)}${ante}`;
  // before the start nobody is seated yet, and once it ended nobody is left: "—", as the
  // director's console shows it ("0" and "average 0" read as a count, found by QA)
  const seated = state.status === "running";
  $("players").textContent = seated || c.players_left ? number(c.players_left) : "—";
  $("entries").textContent = number(c.entries);
  $("average").textContent = c.players_left ? number(c.average_stack) : "—";
  $("pool").textContent = amount(c.prize_pool);
  $("paid").textContent = number(c.places_paid);
  $("late").textContent = lateRegistrationText(c, state.status, T);
  const flags = [];
  if (c.paused) flags.push(T.paused);
  // a break is the level line's word already: said twice on the board (found by QA)
  if (c.break_due && !c.on_break) flags.push(T.breakDue);
  if (c.hand_for_hand) flags.push(T.handForHand);
  $("clock-state").hidden = flags.length === 0;
  $("clock-state").textContent = flags.join(" · ");
  $("next").innerHTML = c.next_break_at && !c.on_break && state.status === "running"
    ? `${esc(T.nextBreak)} <strong>${esc(time(c.next_break_at).slice(0, 5))}</strong>` : "";
  tick();
}

function tick() {
  if (!state) return;
  const c = state.clock;
  const base = c.on_break ? c.break_seconds_left : c.seconds_left;
  const elapsed = running(c) ? (performance.now() - receivedAt) / 1000 : 0; // a paused break is frozen too
  const left = Math.max(0, base - elapsed);
  const el = $("time");
  if (over()) {
    el.textContent = "—";
    delete el.dataset.secondsLeft;
    return;
  }
  if (c.hands_left !== null && c.hands_left !== undefined && !c.on_break) {
    el.textContent = `${T.handsLeft}: ${number(c.hands_left)}`; // SHOW-1: levels by hands
    el.dataset.handsLeft = String(c.hands_left);
    return;
  }
  el.textContent = seconds(left);
  el.dataset.secondsLeft = String(Math.ceil(left));
}

new Feed(`/ws/tournaments/${id}/clock/`, {
  onSnapshot(next) {
    state = next;
    receivedAt = performance.now();
    render();
  },
  onError(msg) {
    if (msg.code === "not_found") $("level").textContent = T.notFound;
  },
}).start();
setInterval(tick, 250);
startWallClock();
