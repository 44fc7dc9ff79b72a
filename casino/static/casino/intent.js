// One staff intent (a click that writes) with its outcome shown next to the form: the
// button is disabled while it runs; a refusal shows the rule in words (describeError); a
// request that got no answer offers "Retry", which resends the SAME Idempotency-Key
// (api.js NetworkError.retry), so a sale is never recorded twice. Until that is settled
// the button stays disabled: pressed again it would send a new key and could record the
// sale twice (found by QA). "Discard" frees it, for a write the staff has checked.
// Its words come from the page's "page-i18n" JSON when the page has one (the cashier's and
// director's own wording), else from the JavaScript catalogue (/jsi18n/: the floor);
// `discardHint` says where to check, for staff who check somewhere else.
import { NetworkError, describeError, write } from "./api.js";

const gettext = globalThis.gettext || ((s) => s);

function words() {
  const page = document.getElementById("page-i18n");
  return {
    working: gettext("Working…"),
    done: gettext("Done."),
    retry: gettext("Retry"),
    discard: gettext("Discard"),
    discardHint: gettext("Check first whether it was recorded: a write whose answer was lost may be."),
    ...(page ? JSON.parse(page.textContent) : {}),
  };
}

// One result line may hold one unsettled write: while it waits for Retry or Discard, another
// intent writing to the same line is not sent (QA: the tournament desk's next action wrote
// "Done." over a lost registration's Retry, and its button stayed disabled for good). The
// line's Retry is pointed out instead.
const unsettledLines = new Set();

// Leaving the page (a reload, the tab closed) would drop the Retry and free the button: the
// browser asks first while a write is unsettled (QA: after a reload nothing on screen said a
// sale might be recorded, and the cashier could sell again).
window.addEventListener("beforeunload", (e) => {
  if ([...unsettledLines].some((line) => line.isConnected && line.querySelector("button"))) {
    e.preventDefault();
    e.returnValue = "";
  }
});

// An unsettled write outlives a reload (QA: after one, the link refilled the sale and
// nothing said the first one might be recorded, so a second press sold twice). It is kept
// in sessionStorage under its result line's id, with its Idempotency-Key; the page that
// comes back shows the line's Retry and Discard again and keeps its button disabled.
// A Retry sends the same key: the server answers the recorded result, or records it once.
const KEPT = "casino.unsettled.";

function keep(resultEl, button, sent) {
  if (!resultEl.id || !sent) return;
  try {
    sessionStorage.setItem(KEPT + resultEl.id, JSON.stringify({ sent, button: button ? button.id : null }));
  } catch { /* storage full or off: the beforeunload warning still stands */ }
}

function forget(resultEl) {
  if (resultEl.id) try { sessionStorage.removeItem(KEPT + resultEl.id); } catch { /* off */ }
}

function restoreKept() {
  let names = [];
  try { names = Object.keys(sessionStorage).filter((k) => k.startsWith(KEPT)); } catch { return; }
  for (const name of names) {
    const resultEl = document.getElementById(name.slice(KEPT.length));
    let kept = null;
    try { kept = JSON.parse(sessionStorage.getItem(name)); } catch { /* unreadable */ }
    if (!resultEl || !kept || !kept.sent) continue;
    const { method, path, body, key, ifMatch } = kept.sent;
    const button = kept.button ? document.getElementById(kept.button) : null;
    if (button) button.disabled = true;
    const err = new NetworkError(new Error("reloaded"),
      () => write(method, path, body, { key, ifMatch }), kept.sent);
    intent(button, resultEl, () => Promise.reject(err),
      (answer) => resultEl.dispatchEvent(new CustomEvent("settled", { detail: answer, bubbles: true })));
  }
}

export async function intent(button, resultEl, run, onDone, { discardHint } = {}) {
  const strings = words();
  if (discardHint) strings.discardHint = discardHint;
  if (unsettledLines.has(resultEl)) {
    const waiting = resultEl.querySelector("button");
    if (waiting) waiting.focus();
    resultEl.classList.remove("flash");
    void resultEl.offsetWidth; // restart the flash
    resultEl.classList.add("flash");
    return;
  }
  if (button) button.disabled = true;
  resultEl.className = "result pending";
  resultEl.textContent = strings.working;
  const finish = (answer) => {
    resultEl.className = "result ok";
    resultEl.textContent = strings.done;
    if (onDone) onDone(answer);
  };
  let unsettled = false;
  const settle = () => {
    unsettledLines.delete(resultEl);
    forget(resultEl);
    if (button) button.disabled = false;
  };
  const fail = (err) => {
    resultEl.className = "result error";
    resultEl.textContent = describeError(err);
    unsettled = err instanceof NetworkError;
    if (!unsettled) return;
    unsettledLines.add(resultEl);
    keep(resultEl, button, err.sent);
    const retry = document.createElement("button");
    retry.type = "button";
    retry.className = "btn small";
    retry.textContent = strings.retry;
    retry.addEventListener("click", async () => {
      retry.disabled = true;
      try {
        const answer = await err.retry();
        settle();
        finish(answer);
      } catch (again) {
        fail(again);
        // the server answered and refused (a session that expired): settled, nothing was
        // recorded, so the button is free again (QA: it stayed disabled with no way out)
        if (!(again instanceof NetworkError)) settle();
      }
    });
    const discard = document.createElement("button");
    discard.type = "button";
    discard.className = "btn small";
    discard.textContent = strings.discard;
    discard.title = strings.discardHint;
    discard.addEventListener("click", () => {
      settle();
      resultEl.className = "result";
      resultEl.textContent = strings.discardHint;
    });
    resultEl.append(" ", retry, " ", discard);
  };
  try {
    finish(await run());
  } catch (err) {
    fail(err);
  } finally {
    if (button && !unsettled) button.disabled = false;
  }
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restoreKept);
else restoreKept();
