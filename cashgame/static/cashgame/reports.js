// The manager's reports (issue #13): rake, drop, hours and hands per hour over a range of
// business days, the tournaments finished in it (entries, fees, overlay), two charts (Chart.js, vendored: cashgame/static/cashgame/vendor/) and a
// CSV download of each report (the reports API's ?format=csv). Read-only.
import { get } from "../casino/api.js";
import { amount, dateTime, esc, number, roomTz } from "../casino/fmt.js";

const T = JSON.parse(document.getElementById("page-i18n").textContent);
const $ = (id) => document.getElementById(id);
const charts = {};

// Today in the room's time zone, as YYYY-MM-DD.
function roomDay(offsetDays = 0) {
  const d = new Date(Date.now() + offsetDays * 86400_000);
  return new Intl.DateTimeFormat("en-CA", { timeZone: roomTz, year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
}

function query() {
  return `date_from=${$("date-from").value}&date_to=${$("date-to").value}`;
}

// Every row of a report in the range (follows the pages).
async function rows(report) {
  let url = `/api/v1/reports/${report}/?${query()}&page_size=1000`;
  const out = [];
  while (url) {
    const page = await get(url);
    out.push(...page.results);
    url = page.next ? new URL(page.next).pathname + new URL(page.next).search : null;
  }
  return out;
}

function bar(id, labels, values, label, color) {
  if (!window.Chart) return;
  const box = $(id).parentElement;
  let empty = box.querySelector(".chart-empty");
  if (!empty) {
    empty = document.createElement("p");
    empty.className = "chart-empty";
    empty.textContent = T.noData;
    box.append(empty);
  }
  empty.hidden = values.length > 0;
  if (charts[id]) charts[id].destroy();
  const text = "#f2f5f3";
  const grid = "rgba(185,199,190,.25)";
  charts[id] = new window.Chart($(id), {
    type: "bar",
    data: { labels, datasets: [{ label, data: values, backgroundColor: color, borderColor: color }] },
    options: {
      responsive: true, maintainAspectRatio: false, animation: false,
      plugins: { legend: { labels: { color: text } },
                 tooltip: { callbacks: { label: (c) => `${label}: ${amount(c.parsed.y)}` } } },
      scales: { x: { ticks: { color: text }, grid: { color: grid } },
                y: { beginAtZero: true, ticks: { color: text, callback: (v) => number(v) }, grid: { color: grid } } },
    },
  });
}

function table(id, list, cells, cols) {
  $(id).innerHTML = list.length ? list.map((r) => `<tr>${cells(r)}</tr>`).join("")
    : `<tr class="muted"><td colspan="${cols}">${esc(T.noData)}</td></tr>`;
}

// A refused range shows no figures: the last range's stayed under the new dates, and
// the CSV links pointed at the refused range (found by QA).
function clear() {
  for (const id of ["kpi-rake", "kpi-drop", "kpi-hours", "kpi-hph"]) $(id).textContent = "—";
  for (const id of Object.keys(charts)) { charts[id].destroy(); delete charts[id]; }
  for (const id of ["t-rake", "t-drop", "t-hours", "t-hph", "t-tournaments", "t-tournaments-total"]) $(id).innerHTML = "";
  for (const a of document.querySelectorAll("a.csv")) a.removeAttribute("href");
}

async function load() {
  const status = $("report-status");
  delete document.body.dataset.reportsLoaded;
  if ($("date-from").value > $("date-to").value) {
    clear();
    status.className = "result error";
    status.textContent = T.backwards;
    return;
  }
  status.className = "result pending";
  status.textContent = T.working;
  for (const a of document.querySelectorAll("a.csv")) {
    a.href = `/api/v1/reports/${a.dataset.report}/?format=csv&${query()}`;
  }
  try {
    const [rake, drop, byTable, hours, hph, tournaments] = await Promise.all(
      ["rake", "drop", "drop-by-table", "hours-by-game", "hands-per-hour", "tournaments"].map(rows));
    const sum = (list, k) => list.reduce((s, r) => s + (r[k] || 0), 0);
    $("kpi-rake").textContent = amount(sum(rake, "rake"));
    $("kpi-drop").textContent = amount(sum(drop, "drop"));
    $("kpi-hours").textContent = number(Math.round(sum(hours, "seconds") / 36) / 100);
    const rated = hph.filter((r) => r.hands_per_hour !== null); // a few minutes' dealing gives no pace
    const dealtSeconds = sum(rated, "seconds");
    $("kpi-hph").textContent = dealtSeconds ? number(Math.round((sum(rated, "hands") * 36000) / dealtSeconds) / 10) : "—";

    const byDay = new Map();
    for (const r of rake) byDay.set(r.day, (byDay.get(r.day) || 0) + r.rake);
    bar("chart-rake", [...byDay.keys()], [...byDay.values()], T.rake, "#ffd54a");
    bar("chart-drop", byTable.map((r) => `${T.table} ${r.table_id} · ${r.game} ${r.small_blind}/${r.big_blind}`),
      byTable.map((r) => r.drop), T.drop, "#6fe39a");

    table("t-rake", rake, (r) => `<td>${r.day}</td><td>${r.table_id}</td><td>${esc(r.game)} ${number(r.small_blind)}/${number(r.big_blind)}</td>
      <td class="num">${number(r.hands)}</td><td class="num">${amount(r.rake)}</td>`, 5);
    table("t-drop", drop, (r) => `<td>${r.day}</td><td class="num">${amount(r.buy_ins)}</td><td class="num">${amount(r.top_ups)}</td>
      <td class="num">${amount(r.drop)}</td><td class="num">${amount(r.paid_with_chips)}</td><td class="num">${amount(r.cash_outs)}</td>
      <td class="num">${amount(r.refreshments)}</td><td class="num">${amount(r.dealer_fees)}</td>`, 8);
    table("t-hours", hours, (r) => `<td>${esc(r.game)}</td><td class="num">${number(r.sessions)}</td><td class="num">${number(r.hours)}</td>`, 3);
    table("t-hph", hph, (r) => `<td>${r.day}</td><td>${r.table_id}</td><td class="num">${number(r.hands)}</td><td class="num">${r.hands_per_hour === null ? "—" : number(r.hands_per_hour)}</td>`, 4);
    // Tournaments: the house's income is the fees, less any overlay it added to reach a guarantee.
    table("t-tournaments", tournaments, (r) => `<td>${dateTime(r.finished_at)}</td><td>${esc(r.name)} <span class="muted">#${r.tournament_id}</span></td>
      <td class="num">${number(r.entries)}</td><td class="num">${amount(r.contributions)}</td><td class="num">${amount(r.fees)}</td>
      <td class="num">${amount(r.overlay)}</td><td class="num">${amount(r.prize_pool)}</td>
      <td>${r.winner_player_id ? `#${r.winner_player_id}` : "—"}</td>`, 8);
    $("t-tournaments-total").innerHTML = tournaments.length > 1 ? `<tr><th colspan="2">${esc(T.total)}</th>
      <th class="num">${number(sum(tournaments, "entries"))}</th><th class="num">${amount(sum(tournaments, "contributions"))}</th>
      <th class="num">${amount(sum(tournaments, "fees"))}</th><th class="num">${amount(sum(tournaments, "overlay"))}</th>
      <th class="num">${amount(sum(tournaments, "prize_pool"))}</th><th></th></tr>` : "";
    status.className = "result";
    status.textContent = "";
    document.body.dataset.reportsLoaded = "true";
  } catch (err) {
    const { describeError } = await import("../casino/api.js");
    clear();
    status.className = "result error";
    status.textContent = describeError(err);
  }
}

$("date-from").value = roomDay(-29);
$("date-to").value = roomDay(0);
$("range").addEventListener("submit", (e) => { e.preventDefault(); load(); });
// Chart.js is a deferred classic script: it has run before this module (modules are deferred too, in order).
load();
