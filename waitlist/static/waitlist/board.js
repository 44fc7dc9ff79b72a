// The waiting-list TV board (issue #13). Public feed /ws/board/waitlists/: whole board
// snapshots only (nicknames or initials). A call counts down locally from the snapshot's
// call_seconds_left (measured from when the snapshot arrived, so the TV's own clock does not
// matter); every new snapshot corrects it. The feed client reconnects on its own and shows
// "offline" while it is down.
import { Feed } from "../casino/feed.js";
import { esc, number, seconds } from "../casino/fmt.js";
import { startWallClock } from "../casino/board.js";

const T = JSON.parse(document.getElementById("board-i18n").textContent);
const MAX_NAMES = 12;
const listsEl = document.getElementById("lists");
const emptyEl = document.getElementById("no-lists");
let board = null;
let receivedAt = 0;

// Counted words take the language's plural form from the JavaScript catalogue (Czech has
// three: 1 hráč, 2 hráči, 5 hráčů); "1 hráčů" was on the board before (found by QA).
const moreWord = (n) => ngettext("more", "more", n);

function waitText(list) {
  if (list.list_kind === "interest") {
    const left = Math.max(0, (list.interest_threshold || 0) - list.waiting);
    return `${T.interest} · ${number(left)} ${ngettext("player to start", "players to start", left)}`;
  }
  const s = list.estimated_wait_seconds;
  if (s === null || s === undefined) return `${T.wait}: ${T.unknown}`;
  if (s === 0) return `${T.wait}: ${T.now}`;
  return `${T.wait}: ~${number(Math.round(s / 60))} ${T.min}`;
}

function render() {
  const lists = board ? board.lists : [];
  emptyEl.hidden = lists.length > 0;
  listsEl.innerHTML = lists.map((list) => {
    // the called players first (the names the room must see), then the list in order
    const ordered = [...list.names.filter((n) => n.called), ...list.names.filter((n) => !n.called)];
    const shown = ordered.slice(0, Math.max(MAX_NAMES, ordered.filter((n) => n.called).length));
    const rest = list.names.length - shown.length;
    const rows = shown.map((n) => `
      <li class="${n.called ? "called" : ""} ${n.away ? "away" : ""}" data-position="${n.position}">
        <span class="pos">${n.position}</span>
        <span class="name">${esc(n.display)}</span>
        ${n.called ? `<span class="tag">${esc(T.called)}</span>
          <span class="countdown" data-seconds-left="${n.call_seconds_left ?? ""}"></span>` : ""}
        ${n.away && !n.called ? `<span class="tag">${esc(T.away)}</span>` : ""}
      </li>`).join("");
    return `
      <section class="list" data-list="${esc(list.list_id)}">
        <h2><span>${esc(list.game)}</span>
            <span class="stakes">${number(list.small_blind)}/${number(list.big_blind)}</span></h2>
        <div class="meta">${number(list.waiting)} ${esc(ngettext("waiting", "waiting", list.waiting))} · ${esc(waitText(list))}</div>
        <ol>${rows || `<li class="muted">${esc(T.empty)}</li>`}</ol>
        <div class="more" ${rest > 0 ? "" : "hidden"}>+ <span>${rest}</span> <i>${esc(moreWord(rest))}</i></div>
      </section>`;
  }).join("");
  for (const section of listsEl.querySelectorAll("section.list")) fit(section);
  tick();
}

// Many lists squeeze each card: names that do not fit leave from the bottom (never a called
// one) and are counted in "+ n more", which stays in view. A called player sat below the
// card's edge, clipped out of sight (found by QA).
function fit(section) {
  const more = section.querySelector(".more");
  const count = more.querySelector("span");
  const overflows = () => section.scrollHeight > section.clientHeight + 1;
  while (overflows()) {
    const rows = [...section.querySelectorAll("ol li:not(.called):not(.muted)")];
    if (!rows.length) break;
    rows[rows.length - 1].remove();
    count.textContent = Number(count.textContent) + 1;
    more.querySelector("i").textContent = moreWord(Number(count.textContent));
    more.hidden = false;
  }
}
addEventListener("resize", () => render());

function tick() {
  const elapsed = (performance.now() - receivedAt) / 1000;
  for (const el of listsEl.querySelectorAll(".countdown")) {
    const start = Number(el.dataset.secondsLeft);
    if (el.dataset.secondsLeft === "" || Number.isNaN(start)) continue;
    el.textContent = seconds(Math.max(0, start - elapsed));
  }
}

new Feed("/ws/board/waitlists/", {
  onSnapshot(state) {
    board = state;
    receivedAt = performance.now();
    render();
  },
}).start();
setInterval(tick, 250);
startWallClock();
